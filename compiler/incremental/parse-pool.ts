/**
 * Parses texts on every core. Batches go into one queue as soon as they are
 * read; worker threads take them as they come, and the main thread takes its
 * share once it has nothing else to do, so reading, parsing and the workers'
 * start-up overlap. Each batch's results come back to whoever submitted it,
 * so the build stays deterministic whatever finishes first.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { canStartThreads, startThread } from '../core/threads.js';
import type { ParseReply, ParseRequest } from './parse-worker.js';
import { parseSource, type ParsedSource } from '../markdown/source.js';

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);

/**
 * Batches sent to a worker ahead of time. The main thread hands out work only
 * between two of its own batches, so a worker with one batch would sit idle
 * for most of one of them after finishing.
 */
const IN_FLIGHT = 3;

interface Job {
  texts: string[];
  resolve(parsed: ParsedSource[]): void;
  reject(error: unknown): void;
}

export class ParsePool {
  private readonly queue: Job[] = [];
  private readonly workers: Worker[];
  /** Jobs each worker is working through, oldest first (a worker answers in order). */
  private readonly sent = new Map<Worker, Job[]>();

  /**
   * Starts the workers now, so they load their modules while the caller is
   * still reading files. Null when there is no spare core, or when running
   * from TypeScript sources (workers run compiled JavaScript only).
   */
  static open(extensions: readonly string[]): ParsePool | null {
    return canStartThreads() ? new ParsePool(extensions, Math.min(os.availableParallelism() - 1, 7)) : null;
  }

  private constructor(
    private readonly extensions: readonly string[],
    size: number,
  ) {
    this.workers = Array.from({ length: size }, () => {
      const worker = startThread(WORKER_URL);
      this.sent.set(worker, []);
      worker.on('message', (reply: ParseReply) => this.settle(worker, (job) => job.resolve(reply.parsed)));
      worker.on('error', (error) => this.settle(worker, (job) => job.reject(error)));
      return worker;
    });
  }

  /** Queues a batch; the promise gives its results in order. */
  submit(texts: string[]): Promise<ParsedSource[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ texts, resolve, reject });
      this.pump();
    });
  }

  /** The main thread takes queued batches too, until the queue is empty. */
  async help(): Promise<void> {
    for (let job = this.queue.shift(); job; job = this.queue.shift()) {
      job.resolve(job.texts.map((t) => parseSource(t, this.extensions)));
      // Let finished workers report and take the next batch between two of ours.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private pump(): void {
    for (const worker of this.workers) {
      const jobs = this.sent.get(worker)!;
      while (jobs.length < IN_FLIGHT && this.queue.length > 0) {
        const job = this.queue.shift()!;
        jobs.push(job);
        const request: ParseRequest = { texts: job.texts, extensions: [...this.extensions] };
        worker.postMessage(request);
      }
    }
  }

  private settle(worker: Worker, finish: (job: Job) => void): void {
    const job = this.sent.get(worker)!.shift();
    if (!job) return;
    finish(job);
    this.pump();
  }
}
