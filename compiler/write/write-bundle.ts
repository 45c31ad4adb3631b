/**
 * Writes a bundle so that an interrupted or failed write never leaves a
 * broken `dist/`, and never touches a file the tool does not own.
 *
 * Under the directory's lock (lock.ts), and after journaling every path it
 * may create or remove: artifacts are content-addressed, so new ones are
 * written beside the old; `bundle.mjs` and then `manifest.json` — the commit
 * point — are written to temporary files meanwhile and, once the artifacts
 * are all there, replaced by rename; only then are files the new manifest no
 * longer names deleted, and only those the old manifest (or an interrupted
 * write's journal) shows to be the tool's (ownership.ts). A write that fails
 * removes what it created and throws `OutputWriteError`: the old manifest and
 * everything it names are intact.
 */
import fsSync from 'node:fs';
import path from 'node:path';
import { makeDirectories, writeArtifactFiles, type ArtifactItem } from './artifact-files.js';
import { artifactWriter } from './artifact-writer.js';
import { bytesOf, prepareCommit, temporaryName, writeTemporary } from './commit-files.js';
import { directoriesOf, dirTimes, listFiles, openOrNull, removeEmptiedDirs, unchangedSince } from './disk.js';
import { acquireLock, StateFolderError, type OutDirLock } from './lock.js';
import { OutDirError } from './out-dir.js';
import { OutputWriteError } from './write-error.js';
import { COMMIT_FILES, readOwnership, TOOL_DIR } from './ownership.js';

export { listFiles } from './disk.js';

export interface WriteReport {
  written: string[];
  removed: string[];
  /** What `outDir` holds now: give it to the next `writeBundle` of the same directory (watch mode). */
  state: WrittenBundle;
}

/** The files a `writeBundle` left in a directory, and how to tell whether anyone changed the listing since. */
export interface WrittenBundle {
  readonly outDir: string;
  readonly files: ReadonlyMap<string, string>;
  /** The modification time of each directory of the bundle, read last. */
  readonly dirTimes: ReadonlyMap<string, bigint>;
}

export interface WriteOptions {
  /** Write into a non-empty directory that is not a bundle. Nothing already there is deleted either way. */
  forceOut?: boolean;
  /** How long to wait for another build writing the same directory, in ms (default 30 s). */
  lockTimeoutMs?: number;
}

export { OutputWriteError } from './write-error.js';

/**
 * Artifacts to a batch when a build hands them over text by text: a journal
 * append and a message to the writer's thread each, instead of one per
 * compiled section.
 */
const ADD_BATCH = 32;

/**
 * `last`: what the last write to `outDir` left there (watch mode). A file
 * still there with the same content as then is not checked again, and when
 * no directory of the bundle was modified since, the directories are not
 * even listed, so a rebuild costs what it changed rather than the size of
 * the bundle.
 */
export async function writeBundle(outDir: string, files: ReadonlyMap<string, string>, last?: WrittenBundle, options: WriteOptions = {}): Promise<WriteReport> {
  return (await beginWrite(outDir, files, last, options)).commit(files);
}

/** A write begun (`beginWrite`): its artifacts on their way to disk, the out directory's lock held until `commit` or `abort`. */
export interface PendingWrite {
  /**
   * Starts writing these artifacts too: the build hands each text's over as it
   * compiles it. One the bundle does not name in the end (a section in no
   * profile) is removed again by `commit`; a refusal is reported by it.
   */
  add(artifacts: ReadonlyMap<string, string>): void;
  /**
   * The bundle's files, all of them: the artifacts not given to `beginWrite`
   * are written now, then the commit files, then the files the bundle no
   * longer names are removed. The lock is given up either way.
   */
  commit(files: ReadonlyMap<string, string>): Promise<WriteReport>;
  /** The build failed after its artifacts were started: what this write created goes, and the lock is given up. */
  abort(): Promise<void>;
}

/**
 * Takes the lock, checks the out directory, journals and starts writing
 * `artifacts` (a bundle's files; its commit files among them are left for
 * `commit`). With `thread`, on a thread of their own, so the caller can go on
 * emitting meanwhile (artifact-writer.ts).
 */
export async function beginWrite(outDir: string, artifacts: ReadonlyMap<string, string>, last?: WrittenBundle, options: WriteOptions & { thread?: boolean } = {}): Promise<PendingWrite> {
  const madeOut = guarded(outDir, () => makeOutDir(outDir));
  const lock = await acquireLock(outDir, { timeoutMs: options.lockTimeoutMs ?? 30_000 }).catch((error: unknown) => {
    throw asWriteError(error, outDir);
  });
  try {
    return await begin(outDir, artifacts, lock, last, options, madeOut);
  } catch (error) {
    lock.release();
    unmakeOut(outDir, madeOut);
    throw error;
  }
}

async function begin(
  outDir: string,
  artifacts: ReadonlyMap<string, string>,
  lock: OutDirLock,
  last: WrittenBundle | undefined,
  options: WriteOptions & { thread?: boolean },
  madeOut: readonly string[],
): Promise<PendingWrite> {
  const same = last !== undefined && path.resolve(last.outDir) === path.resolve(outDir);
  const previous = same ? last.files : undefined;
  const temporaries = COMMIT_FILES.map((rel) => temporaryName(rel));
  // Journaled before they exist, so that a crash while they are written leaves nothing unknown behind.
  guarded(outDir, () => lock.journal([...lock.inherited, ...temporaries]));
  // Looked at before preparing adds its temporary files.
  const listed = same && lock.inherited.length === 0 && unchangedSince(outDir, last.dirTimes) ? null : await listFiles(outDir);
  const ours = new Set(temporaries);
  /** The files in `outDir` before this write: listed, or, when no directory changed since, those the last write left. */
  const existing: ReadonlySet<string> | ReadonlyMap<string, string> = listed ? new Set(listed.filter((rel) => !ours.has(rel))) : last!.files;
  const owned = ownedFiles(outDir, existing, listed !== null, lock, previous, options);
  // What this process wrote last time is known to be there, without a look at the disk;
  // on a rebuild of a large bundle, that is nearly every file.
  const kept = (rel: string, content: string) => previous?.get(rel) === content && (existing === previous || existing.has(rel));
  const toWrite = (files: ReadonlyMap<string, string>, skip: (rel: string) => boolean): ArtifactItem[] => {
    const items: ArtifactItem[] = [];
    files.forEach((content, rel) => {
      if (!(COMMIT_FILES as readonly string[]).includes(rel) && !skip(rel) && !kept(rel, content)) {
        items.push({ rel, content, exists: existing.has(rel), owned: existing.has(rel) && owned(rel) });
      }
    });
    items.sort((a, b) => (a.rel < b.rel ? -1 : 1));
    return items;
  };
  /** Journaled before they are created: a crash meanwhile leaves nothing unknown behind. */
  const journaled = (items: ArtifactItem[]): ArtifactItem[] => {
    guarded(outDir, () => lock.journal(items.filter((i) => !i.exists).map((i) => i.rel)));
    return items;
  };
  const writer = artifactWriter(outDir, options.thread === true);
  /** The artifacts handed over so far (`add`), by name; and why one could not be, to report at `commit`. */
  const given = new Set<string>();
  let refused: unknown;
  /** Handed over, not yet journaled and sent: they go `ADD_BATCH` at a time, one journal line-run and one message each. */
  let waiting: ArtifactItem[] = [];
  const send = (): void => {
    if (waiting.length === 0 || refused !== undefined) return;
    try {
      writer.write(journaled(waiting));
    } catch (error) {
      refused = error;
    }
    waiting = [];
  };
  const add = (files: ReadonlyMap<string, string>): void => {
    if (refused !== undefined) return;
    for (const item of toWrite(files, (rel) => given.has(rel))) {
      given.add(item.rel);
      waiting.push(item);
    }
    if (waiting.length >= ADD_BATCH) send();
  };
  add(artifacts);
  const made = { created: [] as string[], folders: [] as string[] };
  const { created } = made;
  const writerDone = async () => {
    send();
    const outcome = await writer.finish();
    created.push(...outcome.created);
    made.folders.push(...outcome.folders);
    return refused === undefined ? outcome : { ...outcome, error: outcome.error ?? refused };
  };
  /** Before the commit, nothing new is named by a manifest: what this write created goes again, its folders once empty. */
  const undo = (committed: boolean) => {
    for (const tmp of temporaries) fsSync.rmSync(path.join(outDir, tmp), { force: true });
    if (committed) return;
    for (const rel of created) fsSync.rmSync(path.join(outDir, rel), { force: true });
    unmake(outDir, made.folders);
  };

  const commit = async (files: ReadonlyMap<string, string>): Promise<WriteReport> => {
    let committed = false;
    try {
      const commits = COMMIT_FILES.filter((rel) => files.has(rel));
      const removed: string[] = [];
      existing.forEach((_, rel) => {
        if (!files.has(rel) && owned(rel)) removed.push(rel);
      });
      removed.sort();
      guarded(outDir, () => lock.journal(removed));
      // The commit files are the bulk of the bytes: their temporary copies are written meanwhile.
      // Settled, not raced: on a failure, the other file's temporary must be written before its temporary is removed.
      const preparing = Promise.allSettled(commits.map((rel) => prepareCommit(outDir, rel, files, previous)));
      const written: string[] = [];
      try {
        const outcome = await writerDone();
        if (outcome.error !== undefined) throw outcome.error;
        written.push(...outcome.written);
        // Given early but not in the bundle after all: this write's own, so it goes (one that stood there before is
        // among `removed` below, if it is the tool's).
        for (const rel of outcome.written) if (!files.has(rel) && created.includes(rel)) fsSync.rmSync(path.join(outDir, rel), { force: true });
        // `writeBundle` gives every artifact to `beginWrite`: nothing is late, and a rebuild of a large bundle need not look again.
        const late = files === artifacts ? [] : journaled(toWrite(files, (rel) => given.has(rel)));
        written.push(...writeArtifactFiles(outDir, late, made));
        for (const item of late) given.add(item.rel);
      } finally {
        await preparing;
      }
      const prepared = (await preparing).map((s) => {
        if (s.status === 'rejected') throw s.reason;
        return s.value;
      });
      const replaced: number[] = [];
      try {
        for (const [i, rel] of commits.entries()) {
          const file = path.join(outDir, rel);
          const preparedAs = prepared[i];
          // Not prepared: it needs no writing, unless it has gone from the disk since this process wrote it.
          if (preparedAs === null && existing.has(rel)) continue;
          const tmp = preparedAs ?? (await writeTemporary(file, bytesOf(files, rel)));
          const old = existing.has(rel) ? openOrNull(file) : null;
          if (old !== null) replaced.push(old);
          fsSync.renameSync(tmp, file);
          if (rel === 'manifest.json') committed = true;
          written.push(rel);
        }
      } finally {
        // Freeing a replaced file's pages and blocks takes longer than writing its
        // successor (about 27 ms for a 49 MB bundle.mjs on ext4): it happens when
        // the last handle on it closes, so this one is closed in the background,
        // after the new bundle is in place.
        for (const fd of replaced) fsSync.close(fd, () => {});
      }
      makeDirectories(outDir, removed.map((rel) => path.posix.dirname(rel)));
      for (const rel of removed) fsSync.rmSync(path.join(outDir, rel), { force: true });
      removeEmptiedDirs(outDir, removed);
      // Each directory is one the last write left or one written to now; one emptied since reads as gone, and is listed next time.
      const bundleDirs = listed ? directoriesOf(files.keys()) : new Set([...last!.dirTimes.keys(), ...directoriesOf(given)]);
      return { written: written.filter((rel) => files.has(rel)).sort(), removed, state: { outDir, files, dirTimes: dirTimes(outDir, bundleDirs) } };
    } catch (error) {
      undo(committed);
      throw asWriteError(error, outDir);
    } finally {
      lock.release();
    }
  };

  const abort = async (): Promise<void> => {
    try {
      await writerDone();
      undo(false);
    } finally {
      lock.release();
    }
    unmakeOut(outDir, madeOut);
  };
  return { add, commit, abort };
}

/**
 * Which existing files this write may delete: those the manifest on disk
 * names, those an interrupted write journaled, and those this process wrote
 * last time. A directory with files but no manifest is refused unless forced.
 */
function ownedFiles(
  outDir: string,
  existing: ReadonlySet<string> | ReadonlyMap<string, string>,
  listed: boolean,
  lock: OutDirLock,
  previous: ReadonlyMap<string, string> | undefined,
  options: WriteOptions,
): (rel: string) => boolean {
  if (!listed) return (rel) => previous!.has(rel);
  const disk = readOwnership(outDir, lock.inherited);
  if (!disk.isBundle && previous === undefined && lock.inherited.length === 0 && existing.size > 0 && !options.forceOut) {
    throw new OutDirError(`--out ${outDir}: is a non-empty directory that is not a prompt-build bundle; name a new or empty directory, or pass --force-out`);
  }
  return (rel) => disk.owned.has(rel) || previous?.has(rel) === true;
}

/** Runs a file-system step, turning the system's refusal into an `OutputWriteError`. */
function guarded<T>(outDir: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw asWriteError(error, outDir);
  }
}

/**
 * The out dir and its missing parents, one level at a time. A recursive
 * mkdir that meets a read-only or forbidden parent reports ENOENT (Node 20);
 * made one by one, the level that fails says why: EROFS, EACCES.
 */
function makeOutDir(outDir: string): string[] {
  const missing: string[] = [];
  for (let dir = path.resolve(outDir); !fsSync.existsSync(dir); dir = path.dirname(dir)) {
    missing.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      fsSync.mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // made meanwhile by another build: fine
    }
  }
  return missing;
}

/** Removes folders (inside `outDir` or absolute) made by this write, deepest first, each only when empty. */
function unmake(outDir: string, folders: readonly string[]): void {
  for (const folder of [...folders].reverse()) {
    try {
      fsSync.rmdirSync(path.resolve(outDir, folder));
    } catch {
      // not empty, or gone: it stays as it is
    }
  }
}

/** An out directory this write made goes when the write does, as if the failed build had never begun one. */
function unmakeOut(outDir: string, madeOut: readonly string[]): void {
  if (madeOut.length === 0) return;
  unmake(outDir, [TOOL_DIR]);
  unmake(outDir, madeOut);
}

function asWriteError(error: unknown, outDir: string): unknown {
  if (error instanceof OutputWriteError || error instanceof OutDirError) return error;
  if (error instanceof StateFolderError) return new OutputWriteError(error.path, error.code, error.message);
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code !== 'string') return error;
  const file = e.path ?? outDir;
  if (e.code === 'EEXIST' || e.code === 'ENOTDIR') {
    return new OutputWriteError(file, e.code, `${file} is in the way: something the tool did not write stands where the bundle needs a ${e.code === 'ENOTDIR' ? 'directory' : 'file'}`);
  }
  const what = (e.message.split(': ')[1] ?? e.message).split(',')[0];
  return new OutputWriteError(file, e.code, `cannot write ${file}: ${what} (${e.code})`);
}
