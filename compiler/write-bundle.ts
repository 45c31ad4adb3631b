/**
 * Writes a bundle so that an interrupted or failed write never leaves a
 * broken `dist/`. Artifacts are content-addressed, so new ones are written
 * beside the old; `bundle.mjs` and then `manifest.json` — the commit point —
 * are written to temporary files meanwhile and, once the artifacts are all
 * there, replaced by rename; only then are files the new manifest no longer
 * names deleted. Until the rename, the old manifest and everything it names are intact.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BundleFiles, type Piece } from './pieces.js';

/** Written last, in this order: the manifest is the commit point. */
const COMMIT_FILES = ['bundle.mjs', 'manifest.json'];

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

/**
 * `last`: what the last write to `outDir` left there (watch mode). A file
 * still there with the same content as then is not checked again, and when
 * no directory of the bundle was modified since, the directories are not
 * even listed, so a rebuild costs what it changed rather than the size of
 * the bundle.
 */
export async function writeBundle(outDir: string, files: ReadonlyMap<string, string>, last?: WrittenBundle): Promise<WriteReport> {
  const same = last !== undefined && path.resolve(last.outDir) === path.resolve(outDir);
  const previous = same ? last.files : undefined;
  fsSync.mkdirSync(outDir, { recursive: true });
  // Looked at before staging adds its temporary files.
  const listed = same && unchangedSince(last) ? null : listFiles(outDir);
  const commits = COMMIT_FILES.filter((rel) => files.has(rel));
  // The commit files are the bulk of the bytes: their temporary copies are written meanwhile.
  const staging = Promise.all(commits.map((rel) => stage(outDir, rel, files, previous)));
  staging.catch(() => {}); // awaited below; until then a failure must not count as unhandled
  const ours = new Set(commits.map((rel) => temporaryName(rel)));
  /** The files in `outDir` before this write: listed, or, when no directory changed since, those the last write left. */
  const existing: ReadonlySet<string> | ReadonlyMap<string, string> = listed ? new Set((await listed).filter((rel) => !ours.has(rel))) : last!.files;
  // What this process wrote last time is known to be there, without a look at the disk;
  // on a rebuild of a large bundle, that is nearly every file.
  const kept = (rel: string, content: string) => previous?.get(rel) === content && (existing === previous || existing.has(rel));
  const artifacts: string[] = [];
  files.forEach((content, rel) => {
    if (!COMMIT_FILES.includes(rel) && !kept(rel, content)) artifacts.push(rel);
  });
  artifacts.sort();
  const dirs = new Set(artifacts.map((rel) => path.posix.dirname(rel)));
  for (const dir of dirs) fsSync.mkdirSync(path.join(outDir, dir), { recursive: true });
  const written: string[] = [];
  // Blocking calls, one after another: a cold build writes thousands of small
  // files, and each asynchronous write costs three thread-pool round trips
  // (open, write, close) — measured at 10,000 files, about 7× the time of
  // blocking calls. The commit files' staging goes on in the pool meanwhile.
  for (const rel of artifacts) {
    const content = files.get(rel)!;
    const file = path.join(outDir, rel);
    // Content-addressed: a file of this name and size, not written by this process, already holds these bytes.
    if (existing.has(rel) && !previous?.has(rel) && sizeOf(file) === Buffer.byteLength(content)) continue;
    // Written in place: a name the old manifest uses is never rewritten (same name, same bytes), and a
    // write cut short leaves a file of the wrong size, which the next build rewrites.
    fsSync.writeFileSync(file, content);
    written.push(rel);
  }
  const staged = await staging;
  const replaced: number[] = [];
  try {
    for (const [i, rel] of commits.entries()) {
      const file = path.join(outDir, rel);
      const stagedAs = staged[i];
      // Not staged: it needs no writing, unless it has gone from the disk since this process wrote it.
      if (stagedAs === null && existing.has(rel)) continue;
      const tmp = stagedAs ?? (await writeTemporary(file, bytesOf(files, rel)));
      const old = existing.has(rel) ? openOrNull(file) : null;
      if (old !== null) replaced.push(old);
      fsSync.renameSync(tmp, file);
      written.push(rel);
    }
  } finally {
    // Freeing a replaced file's pages and blocks takes longer than writing its
    // successor (about 27 ms for a 49 MB bundle.mjs on ext4): it happens when
    // the last handle on it closes, so this one is closed in the background,
    // after the new bundle is in place.
    for (const fd of replaced) fsSync.close(fd, () => {});
  }
  const removed: string[] = [];
  existing.forEach((_, rel) => {
    if (!files.has(rel)) removed.push(rel);
  });
  removed.sort();
  for (const rel of removed) fsSync.rmSync(path.join(outDir, rel), { force: true });
  removeEmptiedDirs(outDir, removed);
  // Each directory is one the last write left or one written to now; one emptied since reads as gone, and is listed next time.
  const bundleDirs = listed ? directoriesOf(files.keys()) : new Set([...last!.dirTimes.keys(), ...dirs]);
  return { written: written.sort(), removed, state: { outDir, files, dirTimes: dirTimes(outDir, bundleDirs) } };
}

/** The directories holding `files`, their parents, and `.` (the bundle directory itself). */
function directoriesOf(files: Iterable<string>): Set<string> {
  const dirs = new Set<string>(['.']);
  for (const rel of files) {
    for (let dir = path.posix.dirname(rel); dir !== '.' && !dirs.has(dir); dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  return dirs;
}

/**
 * The modification time of each directory. A directory's time changes when
 * an entry is added, removed or renamed, so while every time is the same,
 * listing the directories would find exactly the files of the last write.
 * (Linux 6.13 and later give a change after a `stat` a newer time however
 * soon it comes; on older kernels a change in the same clock tick as this
 * read can go unseen until the next full build.)
 */
function dirTimes(outDir: string, dirs: Iterable<string>): Map<string, bigint> {
  const times = new Map<string, bigint>();
  for (const dir of dirs) times.set(dir, mtimeOf(path.join(outDir, dir)));
  return times;
}

function unchangedSince(last: WrittenBundle): boolean {
  for (const [dir, time] of last.dirTimes) if (mtimeOf(path.join(last.outDir, dir)) !== time) return false;
  return true;
}

function mtimeOf(dir: string): bigint {
  return fsSync.statSync(dir, { bigint: true, throwIfNoEntry: false })?.mtimeNs ?? -1n;
}

function openOrNull(file: string): number | null {
  try {
    return fsSync.openSync(file, 'r');
  } catch {
    return null;
  }
}

/**
 * Writes the new content of a commit file to a temporary file beside it, to
 * be renamed into place once the artifacts are written; returns its path, or
 * null when the file needs no writing (when still there, see `writeBundle`):
 * unchanged since this process last wrote it, or found holding these bytes.
 */
async function stage(outDir: string, rel: string, files: ReadonlyMap<string, string>, previous?: ReadonlyMap<string, string>): Promise<string | null> {
  if (previous?.has(rel) && sameContent(previous, files, rel)) return null;
  const file = path.join(outDir, rel);
  const chunks = bytesOf(files, rel);
  if (!previous?.has(rel) && (await fileHolds(file, chunks))) return null;
  return writeTemporary(file, chunks);
}

/** Files below `dir`, bundle-relative POSIX paths; temporary files of an interrupted write included. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  // A walk of its own: several times faster on a large bundle than readdir's
  // `recursive` option followed by path.relative on every entry.
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await fs.readdir(abs, { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const child = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) await walk(path.join(abs, e.name), child);
        else if (e.isFile()) out.push(child);
      }),
    );
  };
  try {
    await walk(dir, '');
  } catch {
    return [];
  }
  return out.sort();
}

/**
 * Whether `previous` held what `files` holds at commit file `rel`. Files
 * generated in pieces are compared piece by piece: comparing two equally long
 * ropes as strings would flatten both, copying tens of megabytes on a large bundle.
 */
function sameContent(previous: ReadonlyMap<string, string>, files: ReadonlyMap<string, string>, rel: string): boolean {
  const before = piecesOf(previous, rel);
  const now = piecesOf(files, rel);
  if (before && now) return before.length === now.length && before.every((piece, i) => piece === now[i] || piece.text === now[i]!.text);
  return previous.get(rel) === files.get(rel);
}

function piecesOf(files: ReadonlyMap<string, string>, rel: string): readonly Piece[] | undefined {
  return files instanceof BundleFiles ? files.pieces(rel) : undefined;
}

/** The UTF-8 bytes of a file, in the pieces' own (cached) buffers when it has pieces. */
function bytesOf(files: ReadonlyMap<string, string>, rel: string): readonly Buffer[] {
  return piecesOf(files, rel)?.map((piece) => piece.bytes) ?? [Buffer.from(files.get(rel)!)];
}

async function fileHolds(file: string, chunks: readonly Buffer[]): Promise<boolean> {
  const bytes = await readOrNull(file);
  if (bytes === null || bytes.length !== chunks.reduce((n, chunk) => n + chunk.length, 0)) return false;
  let offset = 0;
  for (const chunk of chunks) {
    if (chunk.compare(bytes, offset, offset + chunk.length) !== 0) return false;
    offset += chunk.length;
  }
  return true;
}

function temporaryName(rel: string): string {
  return `${rel}.${process.pid}.tmp`;
}

/** Written whole beside `file`, for a rename into place: readers see the old file or the new one, never part of one. */
async function writeTemporary(file: string, chunks: readonly Buffer[]): Promise<string> {
  const tmp = temporaryName(file);
  const handle = await fs.open(tmp, 'w');
  try {
    // One call: libuv writes the buffers in batches the system allows, resuming after short writes.
    const { bytesWritten } = await handle.writev(chunks);
    const size = chunks.reduce((n, chunk) => n + chunk.length, 0);
    if (bytesWritten !== size) throw new Error(`${tmp}: wrote ${bytesWritten} of ${size} bytes`);
  } finally {
    await handle.close();
  }
  return tmp;
}

function sizeOf(file: string): number {
  return fsSync.statSync(file, { throwIfNoEntry: false })?.size ?? -1;
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch {
    return null;
  }
}

/**
 * Removes the directories the removed files leave empty, deepest first. Only
 * their own directories can have been emptied: reading every directory of a
 * large bundle on each write would cost more than the write.
 */
function removeEmptiedDirs(outDir: string, removed: readonly string[]): void {
  const dirs = new Set<string>();
  for (const rel of removed) {
    for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const dir of deepestFirst) {
    try {
      fsSync.rmdirSync(path.join(outDir, dir));
    } catch {
      // not empty: it stays
    }
  }
}
