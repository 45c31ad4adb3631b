/**
 * Runs generated hostile trees (generate.ts) through the library in-process
 * or through the CLI as a process, and checks what every one must end with:
 * success or diagnostics (exit 0, 1 or 2 for the CLI), never a thrown error,
 * a stack trace or a hang, and a previous bundle that still loads.
 */
import { execFile, execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, RULES } from '../../../compiler/index.js';
import { loadBundle } from '../../../compiler/runtime/index.js';
import { tempDir, writeTree, CLI_BIN } from '../../helpers/tree.js';
import { hostileTree, type HostileTree } from './generate.js';
import { generatedCases } from '../../helpers/scale.js';

const BIN = CLI_BIN;

/** Long enough for any tree the default limits accept; a tree still running by then hangs the build. */
const HANG_MS = 20_000;

export const SEED = 12;

/** A good bundle to put in every tree's dist/ first: the previous build that a failed one must leave loadable. */
export async function previousBundle(): Promise<{ dir: string; manifest: Buffer }> {
  const root = await tempDir('pb-good-');
  await writeTree(root, { 'prompts/sections/intro.md': 'Good.\n', 'prompts/profiles/p.md': '---\nsections: [intro]\ncacheWarning: false\n---\n' });
  const result = await buildProject({ root, cacheDir: null });
  if (!result.ok) throw new Error('the previous bundle did not build');
  const dir = path.join(root, 'dist');
  return { dir, manifest: await fs.readFile(path.join(dir, 'manifest.json')) };
}

/**
 * The tree on disk, with the previous bundle in its dist/. Blocking calls:
 * thousands of tiny files, where each asynchronous call's round trip through
 * the thread pool costs more than the write.
 */
async function materialise(t: HostileTree, previous: string): Promise<string> {
  const root = await tempDir('pb-hostile-');
  const place = (rel: string): string => {
    const file = path.join(root, rel);
    fsSync.mkdirSync(path.dirname(file), { recursive: true });
    return file;
  };
  for (const [rel, content] of Object.entries(t.files)) fsSync.writeFileSync(place(rel), content);
  for (const [link, target] of Object.entries(t.symlinks)) {
    const file = place(link);
    fsSync.rmSync(file, { force: true });
    fsSync.symlinkSync(target, file);
  }
  if (t.fifos.length > 0) execFileSync('mkfifo', [...new Set(t.fifos)].map(place));
  const dist = path.join(root, 'dist');
  fsSync.cpSync(previous, dist, { recursive: true });
  const artifact = listFilesUnder(dist).find((rel) => rel !== 'manifest.json' && rel !== 'bundle.mjs' && !rel.startsWith('.prompt-build'))!;
  const inDist = (rel: string): string => {
    const file = path.join(dist, rel === '@artifact' ? artifact : rel);
    fsSync.mkdirSync(path.dirname(file), { recursive: true });
    return file;
  };
  for (const rel of t.dist.remove) fsSync.rmSync(inDist(rel), { recursive: true, force: true });
  for (const [rel, content] of Object.entries(t.dist.files)) fsSync.writeFileSync(inDist(rel), content);
  for (const [link, target] of Object.entries(t.dist.symlinks)) fsSync.symlinkSync(target, inDist(link));
  if (t.dist.fifos.length > 0) execFileSync('mkfifo', [...new Set(t.dist.fifos)].map(inDist));
  return root;
}

/** Files below `dir`, root-relative, sorted, links and FIFOs included, not followed. */
function listFilesUnder(dir: string): string[] {
  return (fsSync.readdirSync(dir, { recursive: true, withFileTypes: true }) as fsSync.Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * What the folders a tree says must stay untouched hold: each file's path
 * and bytes, and the folder's modification time, which a file created and
 * removed again (a lock taken and released through a link) changes too.
 */
function snapshot(root: string, dirs: readonly string[]): string {
  return JSON.stringify(
    dirs.map((dir) => [
      String(fsSync.statSync(path.join(root, dir), { bigint: true }).mtimeNs),
      listFilesUnder(path.join(root, dir)).map((rel) => [rel, fsSync.readFileSync(path.join(root, dir, rel), 'base64')]),
    ]),
  );
}

function withinHangLimit<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running after ${HANG_MS} ms`)), HANG_MS);
  });
  return Promise.race([work, hang]).finally(() => clearTimeout(timer));
}

/** A failed build left the previous manifest; the bundle loads, unless the tree itself broke the previous one (a link or FIFO for an artifact). */
async function expectPreviousOrNew(root: string, ok: boolean, previous: { manifest: Buffer }, what: string, tree: HostileTree): Promise<void> {
  const dist = path.join(root, 'dist');
  if (!ok) expect((await fs.readFile(path.join(dist, 'manifest.json'))).equals(previous.manifest), `${what}: dist/ changed by a failed build`).toBe(true);
  if (ok || !tree.traits.includes('bundleLinks')) await loadBundle(dist);
}

/** Tree `index` through `buildProject`. */
export async function runInProcess(index: number, previous: { dir: string; manifest: Buffer }): Promise<void> {
  const tree = hostileTree(SEED, index);
  const what = `tree ${index} (${tree.traits.join(', ')})`;
  const root = await materialise(tree, previous.dir);
  const before = snapshot(root, tree.untouched);
  try {
    const result = await withinHangLimit(what, buildProject({ root, cacheDir: null }));
    expect(snapshot(root, tree.untouched), `${what}: wrote outside dist/`).toBe(before);
    for (const d of result.diagnostics) {
      expect(RULES as readonly string[], what).toContain(d.rule);
      expect(d.line >= 1 && d.column >= 1 && typeof d.file === 'string' && d.message.length > 0, `${what}: ${JSON.stringify(d)}`).toBe(true);
    }
    expect(result.ok, what).toBe(!result.diagnostics.some((d) => d.severity === 'error'));
    await expectPreviousOrNew(root, result.ok, previous, what, tree);
  } finally {
    fsSync.rmSync(root, { recursive: true, force: true });
  }
}

/** Tree `index` through `prompt-build build`, with the memory bound the issue sets (1 GiB of heap). */
export async function runAsProcess(index: number, previous: { dir: string; manifest: Buffer }): Promise<void> {
  const tree = hostileTree(SEED, index);
  const what = `tree ${index} (${tree.traits.join(', ')}) via the CLI`;
  const root = await materialise(tree, previous.dir);
  const before = snapshot(root, tree.untouched);
  try {
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--max-old-space-size=1024', BIN, 'build', '--root', root, '--no-cache', '--no-color'], { timeout: HANG_MS, env: { ...process.env, NO_COLOR: '1' } }, (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
      });
    });
    expect([0, 1, 2], `${what}: exit ${run.code}\n${run.stderr}`).toContain(run.code);
    expect(run.stderr, what).not.toMatch(/\n\s+at |internal error/);
    expect(snapshot(root, tree.untouched), `${what}: wrote outside dist/`).toBe(before);
    await expectPreviousOrNew(root, run.code === 0, previous, what, tree);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/**
 * How many trees a file runs: the suite's share (a quarter of 1,000), or a quarter of more in a longer opt-in run
 * (`HOSTILE_TREES=20000 npm test`). 1,000, down from 2,000, when the suite reached CI's 8 minutes: every shape is
 * exercised deterministically by hostile-shapes.test.ts; the random draws add combinations, and a long run adds more.
 */
export function treeCount(suiteShare: number): number {
  const asked = Number(process.env.HOSTILE_TREES);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.ceil(asked / 4) : suiteShare;
}

/**
 * The tests of one of the two files that share the CLI sample (20 processes
 * each, 40 in all; `PB_TEST_SCALE=1.5` runs the 60 of before), taken from past
 * the trees the in-process run covers, so the sample adds shapes rather than
 * repeating them. 40, down from 100 then 60: each is a process of its own, the
 * slowest part of the suite where starting a process is slow.
 */
export function hostileCliHalf(half: number): void {
  const count = generatedCases(20);
  const first = 100_000 + half * count;
  describe('hostile trees through the CLI', () => {
    it(`trees ${first}–${first + count - 1} each exit 0, 1 or 2 with no stack trace and leave the previous bundle loadable`, async () => {
      const previous = await previousBundle();
      // Two at a time: as many as this machine has cores.
      for (let i = first; i < first + count; i += 2) await Promise.all([runAsProcess(i, previous), ...(i + 1 < first + count ? [runAsProcess(i + 1, previous)] : [])]);
    }, 600_000);
  });
}

/** The tests of one of the four files that share the in-process trees (so vitest runs them on both workers). */
export function hostileQuarter(quarter: number): void {
  const count = treeCount(250);
  describe('hostile trees through buildProject', () => {
    it(`trees ${quarter * count}–${(quarter + 1) * count - 1} end in success or diagnostics, and leave the previous bundle loadable`, async () => {
      const previous = await previousBundle();
      for (let i = quarter * count; i < (quarter + 1) * count; i++) await runInProcess(i, previous);
    }, 600_000);
  });
}
