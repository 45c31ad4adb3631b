/** Worker thread: parses batches of texts (the CPU-bound part of a cold build). */
import { parentPort } from 'node:worker_threads';
import { parseSource, type ParsedSource } from '../markdown/source.js';

export interface ParseRequest {
  texts: string[];
  extensions: string[];
}

export interface ParseReply {
  parsed: ParsedSource[];
}

parentPort?.on('message', (request: ParseRequest) => {
  const reply: ParseReply = { parsed: request.texts.map((t) => parseSource(t, request.extensions)) };
  parentPort!.postMessage(reply);
});
