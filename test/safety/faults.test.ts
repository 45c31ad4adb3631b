/**
 * Faults (issue 12 §3): a full disk, a read-only file system, a name the
 * system refuses — each is one line with a rule id and exit 1, no stack
 * trace, no temporary files left, the previous bundle still loadable. A
 * `dist/` changed on disk, or a retargeted symlink on an include path, is
 * repaired by the next build, with and without the cache.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { copyFixture, readTree, tempDir, writeTree } from '../helpers/tree.js';

/** A tmpfs of `kib` KiB, or null where this machine allows no `mount` (then the tests below say so and are skipped). */
function mountTmpfs(dir: string, kib: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
});

async function tmpfs(kib: number): Promise<string | null> {
  const dir = await tempDir('pb-tmpfs-');
  if (!mountTmpfs(dir, kib)) return null;
  mounts.push(dir);
  return dir;
}

const canMount = await (async () => {
  const probe = await tmpfs(16);
  return probe !== null;
})();

function noTemporaries(tree: Map<string, Buffer>): void {
  expect([...tree.keys()].filter((rel) => rel.endsWith('.tmp') || rel.startsWith('.prompt-build'))).toEqual([]);
}

describe.skipIf(!canMount)('a file system that refuses the write (needs mount: tmpfs)', () => {
  it('a full disk: output/write-failed, exit 1, no temporaries, the previous bundle loads', async () => {
    const root = await copyFixture('build/ok-basic');
    const disk = (await tmpfs(256))!;
    const out = path.join(disk, 'dist');
    // The previous bundle is setup, built by the CLI's own code in this process; the failing build runs as a user's would.
    expect((await runCliInProcess(['build', '--root', root, '--out', out, '--no-cache'])).code).toBe(0);
    const before = await readTree(out);
    // Far more than the disk holds, well under the 1 MiB source limit.
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), `\n${'All work and no play. '.repeat(40_000)}\n`);
    const run = await runCli(['build', '--root', root, '--out', out, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: cannot write .*no space left on device \(ENOSPC\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const after = await readTree(out);
    noTemporaries(after);
    expect(after).toEqual(before);
    await loadBundle(out);
  });

  it('a read-only file system: output/write-failed (EROFS), exit 1, the bundle untouched', async () => {
    const root = await copyFixture('build/ok-basic');
    const disk = (await tmpfs(1024))!;
    const out = path.join(disk, 'dist');
    // The previous bundle is setup, built by the CLI's own code in this process; the failing build runs as a user's would.
    expect((await runCliInProcess(['build', '--root', root, '--out', out, '--no-cache'])).code).toBe(0);
    const before = await readTree(out);
    execFileSync('mount', ['-o', 'remount,ro', disk]);
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
    const run = await runCli(['build', '--root', root, '--out', out, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: .*\(EROFS\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await readTree(out)).toEqual(before);
    await loadBundle(out);
  });
});

describe('permission denied', () => {
  it('an out dir the user may not write: output/write-failed (EACCES), exit 1, no temporaries, the bundle untouched', async () => {
    const root = await copyFixture('build/ok-basic');
    const out = path.join(root, 'dist');
    expect((await runCliInProcess(['build', '--root', root, '--no-cache'])).code).toBe(0); // setup: the previous bundle
    const before = await readTree(out);
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
    // Root writes anywhere: it builds as `nobody`, the tree readable to it and the bundle still root's. Anyone else: the bundle made read-only.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chmodTree(root, 0o755, 0o644);
    else await chmodTree(out, 0o555, 0o444);
    const run = await runCli(['build', '--root', root, '--no-cache'], asRoot ? { uid: 65534, gid: 65534, env: { HOME: root } } : {});
    if (!asRoot) await chmodTree(out, 0o755, 0o644);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error output\/write-failed: .*permission denied \(EACCES\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const after = await readTree(out);
    noTemporaries(after);
    expect(after).toEqual(before);
    await loadBundle(out);
  });
});

/** Sets the mode of `dir` and of every folder and file under it. */
async function chmodTree(dir: string, folders: number, files: number): Promise<void> {
  await fs.chmod(dir, folders);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await chmodTree(child, folders, files);
    else if (entry.isFile()) await fs.chmod(child, files);
  }
}

describe('names the system refuses', () => {
  it('an out path with a component over 255 bytes: output/write-failed (ENAMETOOLONG), exit 1', async () => {
    const root = await copyFixture('build/ok-basic');
    const run = await runCli(['build', '--root', root, '--out', path.join(root, 'x'.repeat(300)), '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/output\/write-failed: .*\(ENAMETOOLONG\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('repair', () => {
  for (const cache of [true, false]) {
    it(`an artifact changed on disk (same size) is rewritten by the next build (${cache ? 'with' : 'without'} the cache)`, async () => {
      const root = await copyFixture('build/ok-basic');
      const cacheDir = cache ? path.join(root, '.cache') : null;
      await buildProject({ root, cacheDir });
      const dist = path.join(root, 'dist');
      const good = await readTree(dist);
      const [rel, bytes] = [...good].find(([r]) => r.startsWith('static/'))!;
      const broken = Buffer.from(bytes);
      broken[0] = broken[0] === 0x41 ? 0x42 : 0x41;
      await fs.writeFile(path.join(dist, rel), broken);
      const result = await buildProject({ root, cacheDir });
      expect(result.upToDate).toBe(false);
      expect(result.written!.written).toContain(rel);
      expect(await readTree(dist)).toEqual(good);
      // And once repaired, the next build is up to date again.
      if (cache) expect((await buildProject({ root, cacheDir })).upToDate).toBe(true);
    });
  }

  it('retargeting a symlink on an include path rebuilds, though no source changed', async () => {
    const root = await copyFixture('build/ok-basic');
    // Outside prompts/: not a source itself, reached only through the include.
    await writeTree(root, { 'prompts/sections/zz.md': 'Before @../../other/link.md after\n', 'other/a.md': 'AAA\n', 'other/b.md': 'BBB\n' });
    await writeTree(root, { 'prompts/profiles/zz.md': '---\nsections: [zz]\ncacheWarning: false\n---\n' });
    await fs.symlink('a.md', path.join(root, 'other/link.md'));
    const cacheDir = path.join(root, '.cache');
    const first = await buildProject({ root, cacheDir });
    expect(first.ok, JSON.stringify(first.diagnostics)).toBe(true);
    const text = async () => {
      const bundle = await loadBundle(path.join(root, 'dist'));
      return bundle.profiles.get('zz')!.staticTexts[0]!;
    };
    expect(JSON.stringify(await text())).toContain('AAA');
    expect((await buildProject({ root, cacheDir })).upToDate).toBe(true);
    await fs.rm(path.join(root, 'other/link.md'));
    await fs.symlink('b.md', path.join(root, 'other/link.md'));
    const second = await buildProject({ root, cacheDir });
    expect(second.upToDate).toBe(false);
    expect(JSON.stringify(await text())).toContain('BBB');
  });
});
