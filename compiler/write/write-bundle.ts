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
import { bytesOf, prepareCommit, temporaryName, writeTemporary } from './commit-files.js';
import { directoriesOf, dirTimes, fileHoldsSync, listFiles, openOrNull, removeEmptiedDirs, unchangedSince } from './disk.js';
import { acquireLock, StateFolderError, type OutDirLock } from './lock.js';
import { OutDirError } from './out-dir.js';
import { COMMIT_FILES, readOwnership } from './ownership.js';

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

/** The file system refused a write (full disk, read-only, permissions, a name too long…). */
export class OutputWriteError extends Error {
  override name = 'OutputWriteError';
  constructor(
    /** The path that could not be written. */
    readonly file: string,
    /** The system's error code (`ENOSPC`, `EROFS`, …), or `EEXIST` for a path the tool does not own. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `last`: what the last write to `outDir` left there (watch mode). A file
 * still there with the same content as then is not checked again, and when
 * no directory of the bundle was modified since, the directories are not
 * even listed, so a rebuild costs what it changed rather than the size of
 * the bundle.
 */
export async function writeBundle(outDir: string, files: ReadonlyMap<string, string>, last?: WrittenBundle, options: WriteOptions = {}): Promise<WriteReport> {
  guarded(outDir, () => makeOutDir(outDir));
  const lock = await acquireLock(outDir, { timeoutMs: options.lockTimeoutMs ?? 30_000 }).catch((error: unknown) => {
    throw asWriteError(error, outDir);
  });
  try {
    return await writeLocked(outDir, files, lock, last, options);
  } finally {
    lock.release();
  }
}

async function writeLocked(outDir: string, files: ReadonlyMap<string, string>, lock: OutDirLock, last: WrittenBundle | undefined, options: WriteOptions): Promise<WriteReport> {
  const same = last !== undefined && path.resolve(last.outDir) === path.resolve(outDir);
  const previous = same ? last.files : undefined;
  const commits = COMMIT_FILES.filter((rel) => files.has(rel));
  const temporaries = commits.map((rel) => temporaryName(rel));
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
  const artifacts: string[] = [];
  files.forEach((content, rel) => {
    if (!(COMMIT_FILES as readonly string[]).includes(rel) && !kept(rel, content)) artifacts.push(rel);
  });
  artifacts.sort();
  const removed: string[] = [];
  existing.forEach((_, rel) => {
    if (!files.has(rel) && owned(rel)) removed.push(rel);
  });
  removed.sort();
  guarded(outDir, () => lock.journal([...artifacts.filter((rel) => !existing.has(rel)), ...removed]));

  const created: string[] = [];
  let committed = false;
  try {
    // The commit files are the bulk of the bytes: their temporary copies are written meanwhile.
    // Settled, not raced: on a failure, the other file's temporary must be written before its temporary is removed.
    const preparing = Promise.allSettled(commits.map((rel) => prepareCommit(outDir, rel, files, previous)));
    let written: string[];
    try {
      written = writeArtifacts(outDir, artifacts, files, existing, owned, created);
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
    const bundleDirs = listed ? directoriesOf(files.keys()) : new Set([...last!.dirTimes.keys(), ...directoriesOf(artifacts)]);
    return { written: written.sort(), removed, state: { outDir, files, dirTimes: dirTimes(outDir, bundleDirs) } };
  } catch (error) {
    for (const tmp of temporaries) fsSync.rmSync(path.join(outDir, tmp), { force: true });
    // Before the commit, nothing new is named by a manifest: what this write created goes again.
    if (!committed) for (const rel of created) fsSync.rmSync(path.join(outDir, rel), { force: true });
    throw asWriteError(error, outDir);
  }
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

/**
 * Blocking calls, one after another: a cold build writes thousands of small
 * files, and each asynchronous write costs three thread-pool round trips
 * (open, write, close) — measured at 10,000 files, about 7× the time of
 * blocking calls. The commit files' temporaries are written in the pool meanwhile.
 * `created` collects what did not exist before, as it is created.
 */
function writeArtifacts(
  outDir: string,
  artifacts: readonly string[],
  files: ReadonlyMap<string, string>,
  existing: ReadonlySet<string> | ReadonlyMap<string, string>,
  owned: (rel: string) => boolean,
  created: string[],
): string[] {
  makeDirectories(outDir, artifacts.map((rel) => path.posix.dirname(rel)));
  const written: string[] = [];
  for (const rel of artifacts) {
    const content = files.get(rel)!;
    const file = path.join(outDir, rel);
    if (existing.has(rel)) {
      // Content-addressed, but a name proves nothing: a file changed on disk is repaired, if it is the tool's.
      if (fileHoldsSync(file, [Buffer.from(content)])) continue;
      if (!owned(rel)) throw new OutputWriteError(file, 'EEXIST', `${file} is in the way: a file the tool did not write stands at an artifact's name`);
      fsSync.rmSync(file, { force: true });
    } else {
      created.push(rel);
    }
    // Exclusive: whatever stands at this name unlisted (a symlink, a FIFO) is not the tool's to write through.
    fsSync.writeFileSync(file, content, { flag: 'wx' });
    written.push(rel);
  }
  return written;
}

/**
 * Creates the bundle's directories one level at a time, refusing a symlink
 * or a file on the way: a write or removal through a symlinked directory
 * would land outside the bundle.
 */
function makeDirectories(outDir: string, dirs: Iterable<string>): void {
  const done = new Set<string>(['.']);
  const make = (dir: string): void => {
    if (done.has(dir)) return;
    make(path.posix.dirname(dir));
    const abs = path.join(outDir, dir);
    const stat = fsSync.lstatSync(abs, { throwIfNoEntry: false });
    if (stat === undefined) fsSync.mkdirSync(abs);
    else if (!stat.isDirectory()) {
      throw new OutputWriteError(abs, 'ENOTDIR', `${abs} is in the way: the bundle needs a directory of its own there, not ${stat.isSymbolicLink() ? 'a symlink' : 'a file'}`);
    }
    done.add(dir);
  };
  for (const dir of dirs) make(dir);
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
function makeOutDir(outDir: string): void {
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
