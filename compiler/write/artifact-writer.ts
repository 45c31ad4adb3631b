/**
 * Starts writing a bundle's artifacts and lets the build go on: on a thread of
 * its own when one can run, so that a slow disk's file creations (0.2–0.5 s
 * for 1,268 files on this project's machine, most of it waiting on the disk)
 * overlap the rest of the build — counting, emitting the manifest and
 * `bundle.mjs`. Without a spare core, or run from the TypeScript sources
 * (threads run compiled JavaScript only), the same function runs here, at once.
 */
import path from 'node:path';
import { canStartThreads, startThread } from '../core/threads.js';
import { writeArtifactFiles, type ArtifactItem, type ArtifactsWritten } from './artifact-files.js';
import type { ArtifactJob, ArtifactReply, ThrownData } from './artifact-thread.js';
import { OutputWriteError } from './write-error.js';

const THREAD_URL = new URL('./artifact-thread.js', import.meta.url);

/** What a write of artifacts did; `error` when the file system refused one (what was created until then is in `created`). */
export type ArtifactsOutcome = ArtifactsWritten & { error?: unknown };

/** Never rejects: whatever happens, the caller learns what was created, to remove it on failure. */
export function writeArtifactsAside(outDir: string, items: ArtifactItem[], thread: boolean): Promise<ArtifactsOutcome> {
  if (items.length === 0 || !thread || !canStartThreads()) return Promise.resolve(writeHere(outDir, items));
  return new Promise((resolve) => {
    const worker = startThread(THREAD_URL);
    let settled = false;
    const settle = (outcome: ArtifactsOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      void worker.terminate();
    };
    worker.once('message', (reply: ArtifactReply) => settle(reply.error ? { ...reply, error: rebuilt(reply.error) } : reply));
    // A thread gone without a word (out of memory…): every new name it was given may have been created. They were
    // journaled as the tool's before the thread started, so removing the ones there now removes nobody else's file.
    const lost = (why: unknown) => settle({ written: [], created: items.filter((i) => !i.exists).map((i) => i.rel), folders: foldersOf(items), error: why });
    worker.once('error', lost);
    worker.once('exit', (code) => lost(new Error(`the artifact writer's thread exited (${code})`)));
    worker.postMessage({ outDir, items } satisfies ArtifactJob);
  });
}

function writeHere(outDir: string, items: readonly ArtifactItem[]): ArtifactsOutcome {
  const made = { created: [] as string[], folders: [] as string[] };
  try {
    return { written: writeArtifactFiles(outDir, items, made), ...made };
  } catch (error) {
    return { written: [], ...made, error };
  }
}

/** Every folder the items' paths go through, parents first: those removed once empty, when a thread could not say which it made. */
function foldersOf(items: readonly ArtifactItem[]): string[] {
  const folders = new Set<string>();
  for (const { rel } of items) for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) folders.add(dir);
  return [...folders].sort((a, b) => a.split('/').length - b.split('/').length);
}

/** The thread's refusal as the error the writer would have thrown here. */
function rebuilt(thrown: ThrownData): Error {
  if (thrown.name === 'OutputWriteError') return new OutputWriteError(thrown.path ?? '', thrown.code ?? 'EIO', thrown.message);
  return Object.assign(new Error(thrown.message), { code: thrown.code, path: thrown.path });
}
