/**
 * o200k_base counting on the spare core. Loading the tokenizer costs about
 * 0.4 s of processor time (a 2.4 MB module of 200,000 ranks to
 * compile, then a map of them to fill), and its counts are needed only at
 * the end, by emit. A thread that a large project's build starts once its
 * sources are read loads it while the build compiles and links; emit then
 * sends it the texts to count (at 10,000 files, over a second of counting
 * off the build's thread). A small project's build reaches emit before a
 * thread has even started, and counts on its own. The counts of the last
 * request are kept, so a rebuild sends only the texts that are new.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InternalError } from '../diagnostics/diagnostics.js';
import type { CountReply, CountRequest } from './count-worker.js';
import type { O200kCount } from './o200k.js';
import type { O200kCounter } from './token-counters.js';

const WORKER_URL = new URL('./count-worker.js', import.meta.url);

export class BackgroundCounter {
  /** The counts of the texts of the last request. */
  private known = new Map<string, O200kCount>();
  /** Replies awaited, oldest first: the thread answers in order. */
  private readonly waiting: Array<(reply: CountReply) => void> = [];
  /** Why the thread is gone, once it is: every request from then on fails at once. */
  private gone: string | null = null;

  /**
   * Starts the thread now, so that it loads the tokenizer while the build
   * compiles and links. Null when there is no spare core, or when running
   * from TypeScript sources (threads run compiled JavaScript only): the build
   * then counts on its own thread.
   */
  static start(): BackgroundCounter | null {
    // This module's own URL: a `.ts` one runs from the sources (tests), where the thread's `.js` file does not exist.
    if (os.availableParallelism() < 2 || !import.meta.url.endsWith('.js')) return null;
    return new BackgroundCounter(new Worker(fileURLToPath(WORKER_URL)));
  }

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: CountReply) => {
      this.waiting.shift()?.(reply);
      if (this.waiting.length === 0) worker.unref();
    });
    const fail = (error: unknown) => {
      this.gone ??= String(error);
      for (const settle of this.waiting.splice(0)) settle({ failed: this.gone });
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`the counting thread exited (${code})`));
    // Between requests the thread must not keep a finished process alive; while one waits, it must
    // (`request` refs it). Unref'd after the listeners: adding one refs it again.
    worker.unref();
  }

  /**
   * A counter that knows every text of `texts`; null when the thread failed,
   * and the caller counts on its own thread instead.
   */
  async counterFor(texts: Iterable<string>): Promise<O200kCounter | null> {
    const counts = new Map<string, O200kCount>();
    const todo = new Set<string>();
    for (const text of texts) {
      const known = this.known.get(text);
      if (known) counts.set(text, known);
      else todo.add(text);
    }
    if (todo.size > 0) {
      const asked = [...todo];
      const reply = await this.request({ texts: asked });
      if ('failed' in reply) return null;
      asked.forEach((text, i) => counts.set(text, reply.counts[i]!));
    }
    this.known = counts;
    return (text) => {
      const count = counts.get(text);
      if (!count) throw new InternalError('a text emitted was not among those counted');
      return count;
    };
  }

  /** Ends the thread: a compiler that is dropped (watch after a failure) must not leave its tokenizer in memory. */
  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private request(request: CountRequest): Promise<CountReply> {
    if (this.gone !== null) return Promise.resolve({ failed: this.gone });
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.worker.ref();
      this.worker.postMessage(request);
    });
  }
}
