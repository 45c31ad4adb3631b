/**
 * The background counter's thread (background-counter.ts): loads the o200k_base
 * tokenizer as soon as it starts, then answers each request, in order, with
 * the counts of its texts.
 */
import { parentPort } from 'node:worker_threads';
import { loadO200kCounts, type O200kCount } from './o200k.js';

export interface CountRequest {
  texts: string[];
}

/** The counts in the request's order, or why the tokenizer could not be loaded. */
export type CountReply = { counts: O200kCount[] } | { failed: string };

if (parentPort) {
  const port = parentPort;
  const loaded = loadO200kCounts();
  port.on('message', ({ texts }: CountRequest) => {
    loaded.then(
      (count) => port.postMessage({ counts: texts.map(count) } satisfies CountReply),
      (error: unknown) => port.postMessage({ failed: String(error) } satisfies CountReply),
    );
  });
}
