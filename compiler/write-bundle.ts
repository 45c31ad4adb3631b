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
  /** Whether `rel` on disk holds `content`: known from `previous`, or found out by `probe`. */
  const holds = async (rel: string, content: string, probe: () => Promise<boolean>) =>
    existing.has(rel) && (previous?.has(rel) ? previous.get(rel) === content : await probe());
  const written: string[] = [];
  const artifacts = [...files.keys()].filter((f) => !COMMIT_FILES.includes(f)).sort();
  await Promise.all(
    artifacts.map(async (rel) => {
      const content = files.get(rel)!;
      // Content-addressed: a file of this name and size already holds these bytes.
      if (await holds(rel, content, async () => (await sizeOf(path.join(outDir, rel))) === Buffer.byteLength(content))) return;
      await writeAtomic(path.join(outDir, rel), content);
      written.push(rel);
    }),
  );
  for (const rel of COMMIT_FILES) {
    const content = files.get(rel);
    if (content === undefined) continue;
    if (await holds(rel, content, async () => (await readOrNull(path.join(outDir, rel))) === content)) continue;
    await writeAtomic(path.join(outDir, rel), content);
    written.push(rel);
  }
  const removed = [...existing].filter((rel) => !files.has(rel)).sort();
  await Promise.all(removed.map((rel) => fs.rm(path.join(outDir, rel), { force: true })));
  await removeEmptyDirs(outDir);
  return { written: written.sort(), removed };
}

/** Files below `dir`, bundle-relative POSIX paths; temporary files of an interrupted write included. */
export async function listFiles(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

async function writeAtomic(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, content);
  await fs.rename(tmp, file);
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

async function removeEmptyDirs(dir: string): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  for (const e of entries.filter((x) => x.isDirectory())) {
    const sub = path.join(dir, e.name);
    await removeEmptyDirs(sub);
    if ((await fs.readdir(sub)).length === 0) await fs.rmdir(sub);
  }
}
