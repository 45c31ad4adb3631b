/**
 * Writes a bundle so that an interrupted or failed write never leaves a
 * broken `dist/`. Artifacts are content-addressed, so new ones are written
 * beside the old; `bundle.mjs` and then `manifest.json` — the commit point —
 * are replaced by rename; only then are files the new manifest no longer names
 * deleted. Until the rename, the old manifest and everything it names are intact.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** Written last, in this order: the manifest is the commit point. */
const COMMIT_FILES = ['bundle.mjs', 'manifest.json'];

export interface WriteReport {
  written: string[];
  removed: string[];
}

/**
 * `previous`: the files this process last wrote to `outDir` (watch mode). A
 * file still there with the same content as then is not checked again, so a
 * rebuild costs what it changed rather than the size of the bundle.
 */
export async function writeBundle(
  outDir: string,
  files: ReadonlyMap<string, string>,
  previous?: ReadonlyMap<string, string>,
): Promise<WriteReport> {
  await fs.mkdir(outDir, { recursive: true });
  const existing = new Set(await listFiles(outDir));
  // What this process wrote last time is known to be there, without a look at the disk;
  // on a rebuild of a large bundle, that is nearly every file.
  const kept = (rel: string) => existing.has(rel) && previous?.get(rel) === files.get(rel);
  /** Whether `rel` on disk already holds its new content; `probe` looks when `previous` cannot tell. */
  const holds = async (rel: string, probe: () => Promise<boolean>) => kept(rel) || (existing.has(rel) && !previous?.has(rel) && (await probe()));
  const written: string[] = [];
  const artifacts = [...files.keys()].filter((f) => !COMMIT_FILES.includes(f) && !kept(f)).sort();
  const dirs = new Set(artifacts.map((rel) => path.posix.dirname(rel)));
  await Promise.all([...dirs].map((dir) => fs.mkdir(path.join(outDir, dir), { recursive: true })));
  await forEachLimited(artifacts, 64, async (rel) => {
    const content = files.get(rel)!;
    // Content-addressed: a file of this name and size already holds these bytes.
    if (await holds(rel, async () => (await sizeOf(path.join(outDir, rel))) === Buffer.byteLength(content))) return;
    // Written in place: a name the old manifest uses is never rewritten (same name, same bytes), and a
    // write cut short leaves a file of the wrong size, which the next build rewrites.
    await fs.writeFile(path.join(outDir, rel), content);
    written.push(rel);
  });
  for (const rel of COMMIT_FILES) {
    const content = files.get(rel);
    if (content === undefined) continue;
    if (await holds(rel, async () => (await readOrNull(path.join(outDir, rel))) === content)) continue;
    await writeAtomic(path.join(outDir, rel), content);
    written.push(rel);
  }
  const removed = [...existing].filter((rel) => !files.has(rel)).sort();
  await Promise.all(removed.map((rel) => fs.rm(path.join(outDir, rel), { force: true })));
  await removeEmptiedDirs(outDir, removed);
  return { written: written.sort(), removed };
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

async function writeAtomic(file: string, content: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, content);
  await fs.rename(tmp, file);
}

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return -1;
  }
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Removes the directories the removed files leave empty, deepest first. Only
 * their own directories can have been emptied: reading every directory of a
 * large bundle on each write would cost more than the write.
 */
async function removeEmptiedDirs(outDir: string, removed: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of removed) {
    for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const dir of deepestFirst) {
    await fs.rmdir(path.join(outDir, dir)).catch(() => {}); // fails when not empty: it stays
  }
}
