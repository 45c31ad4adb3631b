/**
 * Writes a bundle's artifacts while the build goes on: on a thread of its own
 * when one can run, so that a slow disk's file creations (0.2–0.6 s for 1,268
 * files on this project's machine, most of it waiting on the disk) overlap
 * compiling, counting and emitting. Batches go to the thread as the build
 * hands them over. Without a spare core, or run from the TypeScript sources
 * (threads run compiled JavaScript only), each batch is written here, at once.
 */
import path from 'node:path';
import { canStartThreads, startThread } from '../core/threads.js';
import { writeArtifactFiles, type ArtifactItem, type ArtifactsWritten } from './artifact-files.js';
import type { ArtifactMessage, ArtifactReply, ThrownData } from './artifact-thread.js';
import { OutputWriteError } from './write-error.js';

const THREAD_URL = new URL('./artifact-thread.js', import.meta.url);

/** What a write of artifacts did; `error` when the file system refused one (what was made until then is said). */
export type ArtifactsOutcome = ArtifactsWritten & { error?: unknown };

export interface ArtifactWriter {
  /** Writes these too, after those given before. */
  write(items: ArtifactItem[]): void;
  /** Once every batch is written, or the first refusal: never rejects, so the caller learns what was made, to remove it on failure. */
  finish(): Promise<ArtifactsOutcome>;
}

export function artifactWriter(outDir: string, thread: boolean): ArtifactWriter {
  return thread && canStartThreads() ? threadWriter(outDir) : hereWriter(outDir);
}

function hereWriter(outDir: string): ArtifactWriter {
  const made = { created: [] as string[], folders: [] as string[] };
  const written: string[] = [];
  let error: unknown;
  let failed = false;
  return {
    write(items) {
      if (failed) return;
      try {
        written.push(...writeArtifactFiles(outDir, items, made));
      } catch (thrown) {
        failed = true;
        error = thrown;
      }
    },
    finish: () => Promise.resolve(failed ? { written, ...made, error } : { written, ...made }),
  };
}

function threadWriter(outDir: string): ArtifactWriter {
  /** Every item given: if the thread is lost without a word, each new name may have been created. */
  const given: ArtifactItem[] = [];
  let finished: Promise<ArtifactsOutcome> | null = null;
  let settle: (outcome: ArtifactsOutcome) => void = () => {};
  const outcome = new Promise<ArtifactsOutcome>((resolve) => {
    settle = resolve;
  });
  // Started now, before the first batch: a thread takes a tenth of a second to boot, and the build has not compiled
  // its first text yet.
  const worker = startThread(THREAD_URL);
  worker.once('message', (reply: ArtifactReply) => settle(reply.error ? { ...reply, error: rebuilt(reply.error) } : reply));
  // Gone without a word (out of memory…): the names it was given were journaled as the tool's before it got them, so
  // removing the ones there now removes nobody else's file.
  const lost = (why: unknown) => settle({ written: [], created: given.filter((i) => !i.exists).map((i) => i.rel), folders: foldersOf(given), error: why });
  worker.once('error', lost);
  worker.once('exit', (code) => lost(new Error(`the artifact writer's thread exited (${code})`)));
  return {
    write(items) {
      if (items.length === 0 || finished) return;
      given.push(...items);
      worker.postMessage({ outDir, items } satisfies ArtifactMessage);
    },
    finish() {
      finished ??= (async () => {
        worker.postMessage({ done: true } satisfies ArtifactMessage);
        const result = await outcome;
        void worker.terminate();
        return result;
      })();
      return finished;
    },
  };
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
