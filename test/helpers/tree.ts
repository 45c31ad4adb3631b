/** Temporary copies of fixture trees: tests build and edit copies, never the fixtures. */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO, 'test/fixtures');
/** The command as `npm install` links it: package.json's `bin`, the bundle `npm run build:tool` writes (before vitest starts, in `npm test`). */
export const CLI_BIN = path.join(REPO, (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['prompt-build']!);

/** Every `.md` file under `dir`, sorted; none when `dir` does not exist. */
export async function markdownUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export async function tempDir(prefix = 'pb-'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** Copies a fixture tree (symlinks kept as symlinks) into a fresh temporary directory. */
export async function copyFixture(relative: string): Promise<string> {
  const dir = await tempDir();
  await fs.cp(path.join(FIXTURES, relative), dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

/** Writes files given as `{ 'prompts/sections/a.md': 'text' }` under `root`. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
}

/** Every file below `dir` as bundle-relative path → bytes (for byte-for-byte comparisons). */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out.set(path.relative(dir, file).split(path.sep).join('/'), await fs.readFile(file));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * What a build killed mid-write leaves in an out directory: its lock, held by
 * a process that no longer exists, journaling the paths it was writing, and
 * after them `cutShort`, a line the kill cut off before its newline.
 */
export async function leaveInterruptedWrite(outDir: string, journaled: readonly string[], cutShort = ''): Promise<void> {
  const { spawnSync } = await import('node:child_process');
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  await fs.mkdir(path.join(outDir, '.prompt-build'), { recursive: true });
  await fs.writeFile(path.join(outDir, '.prompt-build/lock'), `${dead} ${os.hostname()}\n${journaled.join('\n')}\n${cutShort}`);
}
