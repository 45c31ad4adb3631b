/**
 * Parses many texts on every core: the main thread takes a share while worker
 * threads take the rest. Results come back in input order, so the build stays
 * deterministic whatever finishes first.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParseRequest } from './parse-worker.js';
import { parseSource, type ParsedSource } from './source.js';

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);

export async function parseAll(texts: readonly string[], extensions: readonly string[], threshold: number): Promise<ParsedSource[]> {
  const workers = workerCount(texts.length, threshold);
  if (workers === 0) return texts.map((t) => parseSource(t, extensions));
  const shares = split(texts, workers + 1);
  const pool = Array.from({ length: workers }, () => new Worker(fileURLToPath(WORKER_URL)));
  try {
    const remote = pool.map((worker, i) => ask(worker, { id: i, texts: shares[i + 1]!, extensions: [...extensions] }));
    const local = shares[0]!.map((t) => parseSource(t, extensions));
    return [local, ...(await Promise.all(remote))].flat();
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

function workerCount(files: number, threshold: number): number {
  // Workers run compiled JavaScript only (tests run the TypeScript sources in-thread).
  if (files < threshold || !WORKER_URL.pathname.endsWith('.js')) return 0;
  return Math.max(0, Math.min(os.availableParallelism() - 1, 7));
}

/** Contiguous shares, weighted by text length so the threads finish together. */
function split(texts: readonly string[], parts: number): string[][] {
  const total = texts.reduce((n, t) => n + t.length, 0);
  const shares: string[][] = Array.from({ length: parts }, () => []);
  let part = 0;
  let acc = 0;
  for (const text of texts) {
    shares[part]!.push(text);
    acc += text.length;
    if (part < parts - 1 && acc >= (total * (part + 1)) / parts) part++;
  }
  return shares;
}

function ask(worker: Worker, request: ParseRequest): Promise<ParsedSource[]> {
  return new Promise((resolve, reject) => {
    worker.once('message', (reply: { parsed: ParsedSource[] }) => resolve(reply.parsed));
    worker.once('error', reject);
    worker.postMessage(request);
  });
}
