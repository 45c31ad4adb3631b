/**
 * The out dir's own state (`.prompt-build/`, its lock) as a stranger may
 * leave it in a checked-out `dist/`: a symlinked state folder is never
 * written through, a FIFO lock never read (it would hang every build); each
 * is `output/write-failed`, exit 1, the bundle untouched. And two faults of
 * the disk reported as what they are: a short write (a file-size limit, set
 * on the real process), a read-only parent (EROFS, not ENOENT).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { runCli } from '../helpers/cli.js';
import { copyFixture, readTree, tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

async function built(): Promise<{ root: string; dist: string; before: Map<string, Buffer> }> {
  const root = await copyFixture('build/ok-basic');
  await buildProject({ root, cacheDir: null });
  const dist = path.join(root, 'dist');
  await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
  return { root, dist, before: await readTree(dist) };
}

describe('the state folder and its lock', () => {
  it('a .prompt-build that is a symlink out of the out dir: refused, nothing written through it', async () => {
    const { root, dist, before } = await built();
    const elsewhere = await tempDir('pb-elsewhere-');
    await fs.rm(path.join(dist, '.prompt-build'), { recursive: true, force: true });
    await fs.symlink(elsewhere, path.join(dist, '.prompt-build'));
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: .*dist\/\.prompt-build is a symlink, not the tool's own folder/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await fs.readdir(elsewhere)).toEqual([]);
    const after = await readTree(dist);
    after.delete('.prompt-build');
    before.delete('.prompt-build');
    expect(after).toEqual(before);
    await loadBundle(dist);
  });

  it('a FIFO lock: refused at once, not waited on', async () => {
    const { root, dist, before } = await built();
    await fs.mkdir(path.join(dist, '.prompt-build'), { recursive: true });
    execFileSync('mkfifo', [path.join(dist, '.prompt-build/lock')]);
    const started = performance.now();
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(performance.now() - started).toBeLessThan(20_000); // a process on a shared machine; the hang was forever
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: .*\.prompt-build\/lock is a FIFO \(named pipe\), not a lock the tool wrote; remove it/);
    expect(await readTree(dist)).toEqual(before);
  });

  it('a lock that is a symlink (even to a file holding a live pid) is refused, not read or written through', async () => {
    const { root, dist, before } = await built();
    const target = path.join(await tempDir('pb-elsewhere-'), 'lock');
    await fs.writeFile(target, `${process.pid} elsewhere\n`);
    await fs.mkdir(path.join(dist, '.prompt-build'), { recursive: true });
    await fs.symlink(target, path.join(dist, '.prompt-build/lock'));
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: .*\.prompt-build\/lock is a symlink, not a lock the tool wrote/);
    expect(await fs.readFile(target, 'utf8')).toBe(`${process.pid} elsewhere\n`);
    expect(await readTree(dist)).toEqual(before);
  });

  it('a .prompt-build that is a file: refused by name', async () => {
    const { root, dist } = await built();
    await fs.rm(path.join(dist, '.prompt-build'), { recursive: true, force: true });
    await writeTree(dist, { '.prompt-build': 'not a folder\n' });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: .*\.prompt-build is a file, not the tool's own folder/);
  });
});

/** Runs the CLI under a shell that ignores SIGXFSZ and limits each file the process writes to `kib` KiB. */
function buildLimited(root: string, kib: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const script = `trap '' XFSZ; ulimit -f ${kib}; exec "$0" "$@"`;
    const child = spawn('sh', ['-c', script, process.execPath, CLI_BIN, 'build', '--root', root, '--no-cache', '--no-color'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('faults of the disk', () => {
  it('a short write (the file-size limit reached mid-file) is output/write-failed with the system’s reason, no stack', async () => {
    const root = await tempDir('pb-short-');
    // bundle.mjs well over 64 KiB; every section's own artifact well under it.
    const sections = Array.from({ length: 40 }, (_, i) => `s${i}`);
    await writeTree(root, {
      'prompts/profiles/default.md': `---\nsections: [${sections.join(', ')}]\n---\n`,
      ...Object.fromEntries(sections.map((s, i) => [`prompts/sections/${s}.md`, `---\nname: ${s}\n---\n${`Line of text number ${i}. `.repeat(120)}\n`])),
    });
    const run = await buildLimited(root, 64);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: cannot write .*dist\/bundle\.mjs: file too large \(EFBIG\)/);
    const left = await readTree(path.join(root, 'dist'));
    expect([...left.keys()].filter((rel) => rel.endsWith('.tmp') || rel.startsWith('.prompt-build'))).toEqual([]);
  });

  const mounts: string[] = [];
  afterAll(() => {
    for (const dir of mounts) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  });
  const canMount = (() => {
    try {
      execFileSync('mount', ['--version'], { stdio: 'ignore' });
      return process.getuid?.() === 0;
    } catch {
      return false;
    }
  })();

  it.skipIf(!canMount)('a read-only dist/, and an out dir under one, are EROFS, not ENOENT (needs mount, as root)', async () => {
    const { root, dist } = await built();
    await fs.rm(path.join(dist, '.prompt-build'), { recursive: true, force: true });
    execFileSync('mount', ['--bind', dist, dist]);
    mounts.push(dist);
    execFileSync('mount', ['-o', 'remount,ro,bind', dist]);
    const run = await runCli(['build', '--root', root, '--no-cache', '--out', 'dist/sub']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: cannot write .*dist\/sub: read-only file system \(EROFS\)/);
    expect(run.stderr).not.toMatch(/ENOENT/);
    // The read-only dist/ itself: its state folder cannot be made, for that reason.
    const same = await runCli(['build', '--root', root, '--no-cache']);
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/error output\/write-failed: cannot write .*dist\/\.prompt-build: read-only file system \(EROFS\)/);
  });
});
