/**
 * The artifact writer's thread (artifact-writer.ts): writes one batch of
 * artifacts with blocking calls, and answers with what it wrote and created
 * — also when the file system refused one, with the refusal as data.
 */
import { parentPort } from 'node:worker_threads';
import { writeArtifactFiles, type ArtifactItem, type ArtifactsWritten } from './artifact-files.js';

export interface ArtifactJob {
  outDir: string;
  items: ArtifactItem[];
}

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
  port.once('message', ({ outDir, items }: ArtifactJob) => {
    const made = { created: [] as string[], folders: [] as string[] };
    try {
      port.postMessage({ written: writeArtifactFiles(outDir, items, made), ...made } satisfies ArtifactReply);
    } catch (error) {
      const e = error as Error & { code?: unknown; path?: unknown; file?: unknown };
      const thrown: ThrownData = { name: e.name, message: e.message };
      if (typeof e.code === 'string') thrown.code = e.code;
      const at = typeof e.file === 'string' ? e.file : e.path;
      if (typeof at === 'string') thrown.path = at;
      port.postMessage({ written: [], ...made, error: thrown } satisfies ArtifactReply);
    }
  });
}
