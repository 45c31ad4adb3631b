/** Worker thread: parses batches of texts (the CPU-bound part of a cold build). */
import { parentPort } from 'node:worker_threads';
import { parseSource } from './source.js';

export interface ParseRequest {
  id: number;
  texts: string[];
  extensions: string[];
}

parentPort?.on('message', (request: ParseRequest) => {
  parentPort!.postMessage({ id: request.id, parsed: request.texts.map((t) => parseSource(t, request.extensions)) });
});
