/**
 * Context providers benchmark (issue 4, acceptance 5): user-context discovery
 * in a 12-level-deep directory with rules folders, and the git snapshot on a
 * repository with 3,000 changed files against the slowest single git command
 * it runs. The snapshot runs its five commands concurrently, so it should cost
 * about as much as that slowest command: the target is a ratio of at most 1.5.
 *
 * Runs on the compiled tool (`npx tsc -p tsconfig.json` first). Standalone:
 * `node bench/context.mjs [iterations]` prints the medians as JSON.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GIT_SNAPSHOT_COMMANDS, getSystemContext, getUserContext } from '../lib/context/index.js';

const DEPTH = 12;
const CHANGED_FILES = 3000;
export const TARGET_RATIO = 1.5;

/** Medians over `iterations` runs (after a warm-up run), in milliseconds. */
export async function benchContext({ iterations = 15 } = {}) {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pb-bench-context-')));
  try {
    const cwd = await makeDeepTree(root);
    const repo = await makeDirtyRepo(path.join(root, 'repo'));
    const userOptions = {
      cwd,
      homeDir: path.join(root, 'home'),
      managedPath: null,
      disabled: false,
      filesInPlay: [path.join(cwd, 'src/index.ts')],
    };
    // Two separate phases, so that neither measurement pays for the other's leftovers (garbage, thread-pool work).
    const discovery = await sample(iterations, () => time(() => getUserContext(userOptions)));
    const git = await sample(iterations, async (i) => {
      // Alternate the order, so that neither side always runs on the caches the other just warmed.
      const snapshotFirst = i % 2 === 0;
      const before = snapshotFirst ? await time(() => getSystemContext({ cwd: repo })) : 0;
      const singles = [];
      for (const args of Object.values(GIT_SNAPSHOT_COMMANDS)) singles.push(await time(() => runGit(args, repo)));
      const snapshot = snapshotFirst ? before : await time(() => getSystemContext({ cwd: repo }));
      return { snapshot, slowest: Math.max(...singles) };
    });
    const samples = {
      discoveryMs: discovery,
      gitSnapshotMs: git.map((g) => g.snapshot),
      slowestGitCommandMs: git.map((g) => g.slowest),
    };
    const discoveryMs = median(samples.discoveryMs);
    const gitSnapshotMs = median(samples.gitSnapshotMs);
    const slowestGitCommandMs = median(samples.slowestGitCommandMs);
    return { discoveryMs, gitSnapshotMs, slowestGitCommandMs, ratio: round(gitSnapshotMs / slowestGitCommandMs) };
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/**
 * `tree/l01/…/l12`, each level with an instruction file (including a shared
 * note), a dot-folder file and a rules folder with one conditional rule;
 * returns the deepest level.
 */
async function makeDeepTree(root) {
  const files = { 'home/.claude/CLAUDE.md': 'user instructions\n' };
  let dir = 'tree';
  for (let level = 1; level <= DEPTH; level++) {
    dir = `${dir}/l${String(level).padStart(2, '0')}`;
    files[`${dir}/CLAUDE.md`] = `level ${level} instructions\n@./shared.md\n`;
    files[`${dir}/shared.md`] = `level ${level} shared notes\n`;
    files[`${dir}/.claude/CLAUDE.md`] = `level ${level} dot-folder instructions\n`;
    files[`${dir}/.claude/rules/style.md`] = `level ${level} style rule\n`;
    files[`${dir}/.claude/rules/testing.md`] = `level ${level} testing rule\n`;
    files[`${dir}/.claude/rules/typescript.md`] = `---\npaths: ["**/*.ts"]\n---\nlevel ${level} TypeScript rule\n`;
    if (level % 4 === 0) files[`${dir}/CLAUDE.local.md`] = `level ${level} local notes\n`;
  }
  await writeFiles(root, files);
  return path.join(root, dir);
}

/** A repository with 3,000 committed files, all modified since. */
async function makeDirtyRepo(repo) {
  await fs.mkdir(repo, { recursive: true });
  const names = Array.from({ length: CHANGED_FILES }, (_, i) => `src/file-${String(i).padStart(4, '0')}.txt`);
  await writeFiles(repo, Object.fromEntries(names.map((name) => [name, 'original\n'])));
  await runGit(['init', '--quiet', '--initial-branch', 'main'], repo);
  await runGit(['add', '--all'], repo);
  await runGit(['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '--quiet', '-m', 'initial'], repo);
  await writeFiles(repo, Object.fromEntries(names.map((name) => [name, 'changed\n'])));
  return repo;
}

async function writeFiles(root, files) {
  const dirs = new Set(Object.keys(files).map((rel) => path.dirname(path.join(root, rel))));
  await Promise.all([...dirs].map((dir) => fs.mkdir(dir, { recursive: true })));
  await Promise.all(Object.entries(files).map(([rel, text]) => fs.writeFile(path.join(root, rel), text)));
}

const execFileAsync = promisify(execFile);

function runGit(args, cwd) {
  return execFileAsync('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
}

/** `iterations` results of `run`, after one warm-up run (file-system caches, git's first look at the index). */
async function sample(iterations, run) {
  await run(-1);
  const results = [];
  for (let i = 0; i < iterations; i++) results.push(await run(i));
  return results;
}

async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2);
}

function round(n) {
  return Math.round(n * 100) / 100;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await benchContext({ iterations: Number(process.argv[2] ?? 15) });
  console.log(JSON.stringify({ ...result, targetRatio: TARGET_RATIO, ok: result.ratio <= TARGET_RATIO }, null, 2));
}
