/**
 * o200k_base counting on the spare core. Loading the tokenizer costs about
 * 0.5 s of processor time (a 2.4 MB module of 200,000 ranks to compile, then
 * a map of them to fill), and its counts are needed only at the end, by
 * emit. A build that is about to compile starts this thread before it even
 * loads the compiler's modules, so the tokenizer loads while the build reads,
 * parses and compiles; emit then sends it the texts to count. Measured on
 * this repository's own prompts: a cold build 1.07 s → 0.92 s (medians), as
 * the build's thread no longer loads the tokenizer itself. The counts of the last request
 * are kept, so a rebuild sends only the texts that are new.
 */
import type { Worker } from 'node:worker_threads';
import { canStartThreads, startThread } from '../core/threads.js';
import type { BuildOptions } from '../core/options.js';
import { InternalError } from '../diagnostics/diagnostics.js';
import type { CountReply, CountRequest } from './count-worker.js';
import type { O200kCount } from './o200k.js';
import type { O200kCounter } from './token-counters.js';

const WORKER_URL = new URL('./count-worker.js', import.meta.url);
/**
 * Texts to a message when counting ahead: few enough that counting starts
 * early in the compile, enough that a message's own cost stays small beside
 * its texts'.
 */
const AHEAD_BATCH = 64;

/**
 * The counting thread of a build about to compile; none for exact counts
 * (fetched, then counted here), with one core, or from TypeScript sources.
 */
export function startCounting(options: Pick<BuildOptions, 'exactTokens'>): BackgroundCounter | null {
  return options.exactTokens ? null : BackgroundCounter.start();
}

export class BackgroundCounter {
  /** The counts of the texts of the last request. */
  private known = new Map<string, O200kCount>();
  /** Replies awaited, oldest first: the thread answers in order. */
  private readonly waiting: Array<(reply: CountReply) => void> = [];
  /** Why the thread is gone, once it is: every request from then on fails at once. */
  private gone: string | null = null;
  /** Texts sent ahead by `countAhead`, each with the reply that counts it and its place in the request. */
  private readonly ahead = new Map<string, { reply: Promise<CountReply>; index: number }>();
  /** Texts given to `countAhead` and not sent yet: they go `AHEAD_BATCH` to a message. */
  private pending: string[] = [];

  /**
   * Starts the thread now, so that it loads the tokenizer while the build
   * compiles and links. Null when there is no spare core, or when running
   * from TypeScript sources (threads run compiled JavaScript only): the build
   * then counts on its own thread.
   */
  static start(): BackgroundCounter | null {
    return canStartThreads() ? new BackgroundCounter(startThread(WORKER_URL)) : null;
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
   * Has `text` counted now, while the build still compiles, so that emit's
   * `counterFor` finds its count made: a text is sent once it is compiled,
   * not all of them once the last one is.
   */
  countAhead(text: string): void {
    if (this.known.has(text) || this.ahead.has(text)) return;
    this.pending.push(text);
    if (this.pending.length >= AHEAD_BATCH) this.sendAhead();
  }

  /**
   * A counter that knows every text of `texts`; null when the thread failed,
   * and the caller counts on its own thread instead.
   */
  async counterFor(texts: Iterable<string>): Promise<O200kCounter | null> {
    const wanted = new Set(texts);
    // What `countAhead` has not sent yet is among these: asked for in the one request.
    this.pending = [];
    const todo = [...wanted].filter((text) => !this.known.has(text) && !this.ahead.has(text));
    if (todo.length > 0) this.send(todo);
    const counts = new Map<string, O200kCount>();
    for (const text of wanted) {
      const known = this.known.get(text);
      if (known) {
        counts.set(text, known);
        continue;
      }
      const { reply, index } = this.ahead.get(text)!;
      const answer = await reply;
      if ('failed' in answer) return null;
      counts.set(text, answer.counts[index]!);
    }
    this.ahead.clear();
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

  private sendAhead(): void {
    this.send(this.pending);
    this.pending = [];
  }

  private send(texts: string[]): void {
    const reply = this.request({ texts });
    texts.forEach((text, index) => this.ahead.set(text, { reply, index }));
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
