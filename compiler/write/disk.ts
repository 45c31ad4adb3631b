/** Small file-system reads the bundle writer needs: listings, directory times, comparisons. */
import fsSync, { type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { TOOL_DIR } from './ownership.js';

/**
 * Files below `dir`, bundle-relative POSIX paths, temporary files of an
 * interrupted write included; the lock and its journal (the tool's
 * bookkeeping, not part of any bundle) left out. A walk of its own: several
 * times faster on a large bundle than readdir's `recursive` option followed
 * by path.relative on every entry. Folders are read concurrently.
 */
export async function listFiles(dir: string, others?: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    const folders = take(await fs.readdir(abs, { withFileTypes: true }), abs, rel, out, others);
    await Promise.all(folders.map(([childAbs, childRel]) => walk(childAbs, childRel)));
  };
  try {
    await walk(dir, '');
  } catch {
    return [];
  }
  return out.sort();
}

/**
 * The same, blocking: for the up-to-date check, which has nothing else to do
 * meanwhile; on a bundle of a few folders, a promise round trip per folder
 * costs more than the listing.
 */
export function listFilesSync(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const [childAbs, childRel] of take(fsSync.readdirSync(abs, { withFileTypes: true }), abs, rel, out)) walk(childAbs, childRel);
  };
  try {
    walk(dir, '');
  } catch {
    return [];
  }
  return out.sort();
}

/**
 * Adds a folder's files to `out`, and, when asked, every other entry that is
 * no folder (a link, a FIFO, a socket) to `others`; returns its folders to
 * walk, as [absolute, relative] paths. A link to a folder is not followed.
 */
function take(entries: readonly Dirent[], abs: string, rel: string, out: string[], others?: string[]): Array<[string, string]> {
  const folders: Array<[string, string]> = [];
  for (const e of entries) {
    if (rel === '' && e.name === TOOL_DIR) continue;
    const child = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) folders.push([path.join(abs, e.name), child]);
    else if (e.isFile()) out.push(child);
    else others?.push(child);
  }
  return folders;
}

/** The directories holding `files`, their parents, and `.` (the bundle directory itself). */
export function directoriesOf(files: Iterable<string>): Set<string> {
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
export function dirTimes(outDir: string, dirs: Iterable<string>): Map<string, bigint> {
  const times = new Map<string, bigint>();
  for (const dir of dirs) times.set(dir, mtimeOf(path.join(outDir, dir)));
  return times;
}

export function unchangedSince(outDir: string, times: ReadonlyMap<string, bigint>): boolean {
  for (const [dir, time] of times) if (mtimeOf(path.join(outDir, dir)) !== time) return false;
  return true;
}

function mtimeOf(dir: string): bigint {
  return fsSync.statSync(dir, { bigint: true, throwIfNoEntry: false })?.mtimeNs ?? -1n;
}

export function openOrNull(file: string): number | null {
  try {
    return fsSync.openSync(file, 'r');
  } catch {
    return null;
  }
}

/** The file is a regular file holding exactly `chunks`. Never opens anything but a regular file. */
export function fileHoldsSync(file: string, chunks: readonly Buffer[]): boolean {
  const size = chunks.reduce((n, chunk) => n + chunk.length, 0);
  const stat = fsSync.lstatSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size !== size) return false;
  let bytes: Buffer;
  try {
    bytes = fsSync.readFileSync(file);
  } catch {
    return false;
  }
  let offset = 0;
  for (const chunk of chunks) {
    if (chunk.compare(bytes, offset, offset + chunk.length) !== 0) return false;
    offset += chunk.length;
  }
  return offset === bytes.length;
}

/**
 * Removes the directories the removed files leave empty, deepest first. Only
 * their own directories can have been emptied: reading every directory of a
 * large bundle on each write would cost more than the write.
 */
export function removeEmptiedDirs(outDir: string, removed: readonly string[]): void {
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
