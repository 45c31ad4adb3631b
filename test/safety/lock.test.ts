/**
 * One writer per out directory (issue 12 §1): concurrent builds are
 * serialised by a lock holding the writer's pid; a dead writer's lock is
 * taken over and its journal cleaned up; a live one is waited for, a bounded
 * time, then named in the error.
 */
import { spawn } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, LockTimeoutError } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { copyFixture, leaveInterruptedWrite, readTree, tempDir, CLI_BIN } from '../helpers/tree.js';

const BIN = CLI_BIN;

function build(root: string, out: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'build', '--root', root, '--out', out, '--no-cache', '--no-color'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

/** The bundle a clean build of `root` writes, as path → bytes. */
async function reference(root: string): Promise<Map<string, Buffer>> {
  const out = await tempDir('pb-ref-');
  await fs.rm(out, { recursive: true });
  await buildProject({ root, outDir: out, cacheDir: null });
  return readTree(out);
}

describe('the out directory lock', () => {
  it('two builds of different roots into one out dir at once: both succeed, and dist/ is exactly one complete build', async () => {
    const a = await copyFixture('build/ok-basic');
    const b = await copyFixture('build/ok-basic');
    await fs.appendFile(path.join(b, 'prompts/sections/intro.md'), '\nOnly in b.\n');
    const out = path.join(await tempDir('pb-shared-'), 'dist');
    const runs = await Promise.all([build(a, out), build(b, out), build(a, out), build(b, out)]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const tree = await readTree(out);
    const [ra, rb] = [await reference(a), await reference(b)];
    const same = (ref: Map<string, Buffer>) => tree.size === ref.size && [...ref].every(([rel, bytes]) => tree.get(rel)?.equals(bytes));
    expect(same(ra) || same(rb)).toBe(true);
    expect(tree.has('.prompt-build/lock')).toBe(false);
    await loadBundle(out);
  });

  it('a live lock is waited for, then the build fails naming the holder; the bundle is untouched', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const dist = path.join(root, 'dist');
    const before = await readTree(dist);
    // Held by a process that is alive: this one.
    const lock = path.join(dist, '.prompt-build/lock');
    await fs.mkdir(path.dirname(lock), { recursive: true });
    await fs.writeFile(lock, `${process.pid} ${os.hostname()}\n`);
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
    const failed = buildProject({ root, cacheDir: null, lockTimeoutMs: 50 });
    await expect(failed).rejects.toBeInstanceOf(LockTimeoutError);
    await expect(failed).rejects.toThrow(new RegExp(`held by process ${process.pid}`));
    expect(await fs.readFile(lock, 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
    await fs.rm(lock);
    expect(await readTree(dist)).toEqual(before);
  });

  it('the lock of a dead build is taken over, and what its journal names is cleaned up', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const dist = path.join(root, 'dist');
    await fs.writeFile(path.join(dist, 'bundle.mjs.999999.tmp'), 'half');
    await fs.writeFile(path.join(dist, 'static/new.0badc0de.md'), 'half');
    await fs.writeFile(path.join(dist, 'static/user.md'), 'not journaled');
    await leaveInterruptedWrite(dist, ['bundle.mjs.999999.tmp', 'static/new.0badc0de.md', '../escape.md']);
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written!.removed).toEqual(['bundle.mjs.999999.tmp', 'static/new.0badc0de.md']);
    const tree = await readTree(dist);
    expect(tree.get('static/user.md')?.toString('utf8')).toBe('not journaled');
    expect(tree.has('.prompt-build/lock')).toBe(false);
  });

  it('a journal line a kill cut short is not read: a file at that part of a path is not the tool\'s, and is kept', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const dist = path.join(root, 'dist');
    await fs.writeFile(path.join(dist, 'bundle.mjs.999999.tmp'), 'half');
    await fs.writeFile(path.join(dist, 'static/new'), 'the user\'s');
    // Killed while it appended `static/new.0badc0de.md`: that file was not written yet.
    await leaveInterruptedWrite(dist, ['bundle.mjs.999999.tmp'], 'static/new');
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written!.removed).toEqual(['bundle.mjs.999999.tmp']);
    expect((await readTree(dist)).get('static/new')?.toString('utf8')).toBe("the user's");
  });

  it('a write under way: its lock file names the holder, then every path the write may create or remove, each on a line of its own', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const dist = path.join(root, 'dist');
    const before = new Set((await readTree(dist)).keys());
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
    const lock = path.join(dist, '.prompt-build/lock');
    // Each turn of the event loop while the write waits for its staging, the lock file as it is then.
    let last = '';
    const stop = everyTurn(() => {
      last = readIfThere(lock) || last;
      return true;
    });
    const result = await buildProject({ root, cacheDir: null }).finally(stop);
    const [holder, ...lines] = last.split('\n');
    expect(holder).toBe(`${process.pid} ${os.hostname()}`);
    expect(lines.pop()).toBe('');
    const created = result.written!.written.filter((rel) => !before.has(rel));
    expect(created.length).toBeGreaterThan(0);
    expect(result.written!.removed.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set([`bundle.mjs.${process.pid}.tmp`, `manifest.json.${process.pid}.tmp`, ...created, ...result.written!.removed]));
  });
});

describe('a lock removed while its build holds it', () => {
  it('the write stops before it touches the bundle, and leaves no lock without a holder', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const dist = path.join(root, 'dist');
    const before = await readTree(dist);
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
    const lock = path.join(dist, '.prompt-build/lock');
    // Removed at the first turn of the event loop after the lock is taken (its first journal is written by then).
    const stop = everyTurn(() => {
      if (!readIfThere(lock)) return true;
      fsSync.rmSync(lock);
      return false;
    });
    const result = await buildProject({ root, cacheDir: null }).finally(stop);
    expect(result.ok).toBe(false);
    const failure = result.diagnostics.find((d) => d.rule === 'output/write-failed');
    expect(failure?.file).toBe('dist/.prompt-build/lock');
    expect(failure?.message).toMatch(/ENOENT/);
    expect(failure?.message).toMatch(/removed while this build held it; another build may be writing here/);
    expect(await readTree(dist)).toEqual(before);
  });
});

/** Runs `step` at each turn of the event loop, until it returns false or the returned function is called. */
function everyTurn(step: () => boolean): () => void {
  let going = true;
  const turn = (): void => {
    if (going && step()) setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    going = false;
  };
}

function readIfThere(file: string): string {
  try {
    return fsSync.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
