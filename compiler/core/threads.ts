/**
 * Starting the build's threads (parsing, counting, writing artifacts): when
 * they can run at all, and with which Node options.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Whether a thread is worth starting and can start: a second core, and
 * compiled JavaScript. Run from the TypeScript sources (the tests), this
 * module's own URL ends in `.ts`, and no thread's `.js` file exists.
 */
export function canStartThreads(): boolean {
  return os.availableParallelism() >= 2 && import.meta.url.endsWith('.js');
}

/**
 * A thread running `url`, with this process's Node options (a profiler's, say),
 * which a thread inherits — unless they hold `--input-type`, which is only for
 * a main script given as text: a thread started under `node --input-type=module
 * -e …` fails at once with it. Such a thread gets none (a thread may not be
 * given some of the others explicitly, such as a heap limit).
 */
export function startThread(url: URL): Worker {
  const textMain = process.execArgv.some((arg) => arg === '--input-type' || arg.startsWith('--input-type='));
  return new Worker(fileURLToPath(url), textMain ? { execArgv: [] } : {});
}
