/**
 * The artifact writer's thread (artifact-writer.ts): writes each batch of
 * artifacts as it comes, with blocking calls, and once told it has them all,
 * answers with what it wrote and made — also when the file system refused
 * one (then it writes nothing more), with the refusal as data.
 */
import { parentPort } from 'node:worker_threads';
import { writeArtifactFiles, type ArtifactItem, type ArtifactsWritten } from './artifact-files.js';

/** A batch to write, or the word that there are no more. */
export type ArtifactMessage = { outDir: string; items: ArtifactItem[] } | { done: true };

/** What went wrong, as plain data: an error does not cross threads with its class and fields. */
export interface ThrownData {
  name: string;
  message: string;
  code?: string;
  /** The path the system named, or the file an `OutputWriteError` names. */
  path?: string;
}

export type ArtifactReply = ArtifactsWritten & { error?: ThrownData };

if (parentPort) {
  const port = parentPort;
  const made = { created: [] as string[], folders: [] as string[] };
  const written: string[] = [];
  let error: ThrownData | undefined;
  port.on('message', (message: ArtifactMessage) => {
    if ('done' in message) {
      port.postMessage({ written, ...made, ...(error ? { error } : {}) } satisfies ArtifactReply);
      return;
    }
    if (error) return;
    try {
      written.push(...writeArtifactFiles(message.outDir, message.items, made));
    } catch (thrown) {
      error = asData(thrown);
    }
  });
}

function asData(thrown: unknown): ThrownData {
  const e = thrown as Error & { code?: unknown; path?: unknown; file?: unknown };
  const data: ThrownData = { name: e.name, message: e.message };
  if (typeof e.code === 'string') data.code = e.code;
  const at = typeof e.file === 'string' ? e.file : e.path;
  if (typeof at === 'string') data.path = at;
  return data;
}
