/**
 * Parses many texts on every core. The texts are cut into small batches that
 * the main thread and worker threads take from one queue, so whoever is free
 * takes the next batch and nobody waits for a slow starter. Results are stored
 * by index, so the build stays deterministic whatever finishes first.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParseReply, ParseRequest } from './parse-worker.js';
import { parseSource, type ParsedSource } from './source.js';

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);
const BATCH_BYTES = 64 * 1024;

export async function parseAll(texts: readonly string[], extensions: readonly string[], threshold: number): Promise<ParsedSource[]> {
  const workers = workerCount(texts.length, threshold);
  if (workers === 0) return texts.map((t) => parseSource(t, extensions));
  const results = new Array<ParsedSource>(texts.length);
  const batches = cut(texts);
  let next = 0;
  const take = (): number[] | undefined => batches[next++];

  const pool = Array.from({ length: workers }, () => new Worker(fileURLToPath(WORKER_URL)));
  try {
    const remote = pool.map((worker) => drain(worker, take, texts, extensions, results));
    for (let batch = take(); batch; batch = take()) {
      for (const i of batch) results[i] = parseSource(texts[i]!, extensions);
      // Let waiting workers collect their next batch between two of ours.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(remote);
    return results;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

function workerCount(files: number, threshold: number): number {
  // Workers run compiled JavaScript only (tests run the TypeScript sources in-thread).
  if (files < threshold || !WORKER_URL.pathname.endsWith('.js')) return 0;
  return Math.max(0, Math.min(os.availableParallelism() - 1, 7));
}

/** Batches of text indexes of about BATCH_BYTES each. */
function cut(texts: readonly string[]): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let size = 0;
  texts.forEach((text, i) => {
    current.push(i);
    size += text.length;
    if (size >= BATCH_BYTES) {
      batches.push(current);
      current = [];
      size = 0;
    }
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Feeds one worker batches until the queue is empty. */
function drain(
  worker: Worker,
  take: () => number[] | undefined,
  texts: readonly string[],
  extensions: readonly string[],
  results: ParsedSource[],
): Promise<void> {
  return new Promise((resolve, reject) => {
    let batch: number[] | undefined;
    const send = (): void => {
      batch = take();
      if (!batch) return resolve();
      const request: ParseRequest = { texts: batch.map((i) => texts[i]!), extensions: [...extensions] };
      worker.postMessage(request);
    };
    worker.on('message', (reply: ParseReply) => {
      reply.parsed.forEach((parsed, k) => (results[batch![k]!] = parsed));
      send();
    });
    worker.once('error', reject);
    send();
  });
}
