/**
 * The output folder belongs to the tool only where the tool made it (issue
 * 12 §1): an --out that could touch the sources or a user's files is a usage
 * error, and a build deletes only files it can show it wrote. Every case
 * checks that sentinel files outside the bundle are untouched.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertWritableOutDir, buildProject, OutDirError, resolveBuildOptions } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { runCli } from '../helpers/cli.js';
import { copyFixture, readTree, tempDir, writeTree } from '../helpers/tree.js';

/** A project with a sentinel in every place an --out could reach. */
async function project(): Promise<{ root: string; sentinels: Map<string, Buffer> }> {
  const root = await copyFixture('build/ok-basic');
  await writeTree(root, { 'prompts/sections/NOTES.txt': 'mine\n', 'agents/keep.txt': 'mine too\n', 'README.md': 'readme\n' });
  return { root, sentinels: await readTree(root) };
}

async function expectUntouched(root: string, sentinels: Map<string, Buffer>): Promise<void> {
  const now = await readTree(root);
  for (const [rel, bytes] of sentinels) expect(now.get(rel)?.equals(bytes), rel).toBe(true);
}

describe('--out is refused where writing could touch what the tool does not own', () => {
  const cases: Array<[string, (root: string, home: string) => string, RegExp]> = [
    ['the project root', (root) => root, /is the project root/],
    ['the project root, by a relative path', () => '.', /is the project root/],
    ['an ancestor of the root', (root) => path.dirname(root), /holds the project root/],
    ['the sources (prompts/sections)', (root) => path.join(root, 'prompts/sections'), /inside the sources \(prompts\/\)/],
    ['the agents folder', (root) => path.join(root, 'agents'), /inside the sources \(agents\/\)/],
    ['a new folder inside the sources', (root) => path.join(root, 'prompts/dist'), /inside the sources/],
    ['the home directory', (_root, home) => home, /home directory/],
    ['the file system root', () => '/', /file system root/],
  ];
  for (const [what, out, message] of cases) {
    it(`${what}: exit 2, nothing touched`, async () => {
      const { root, sentinels } = await project();
      const home = await tempDir('pb-home-');
      await writeTree(home, { 'notes.md': 'private\n' });
      const run = await runCli(['build', '--root', root, '--out', out(root, home), '--no-cache'], { cwd: root, env: { HOME: home } });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      await expectUntouched(root, sentinels);
      expect((await fs.readFile(path.join(home, 'notes.md'), 'utf8'))).toBe('private\n');
    });
  }

  it('a symlinked out directory that leads into the sources is refused by its real path', async () => {
    const { root, sentinels } = await project();
    await fs.symlink(path.join(root, 'prompts'), path.join(root, 'out-link'));
    const run = await runCli(['build', '--root', root, '--out', 'out-link', '--no-cache'], { cwd: root });
    expect(run.code).toBe(2);
    await expectUntouched(root, sentinels);
  });

  it('a file as --out is a usage error, not a raw EEXIST', async () => {
    const { root, sentinels } = await project();
    const run = await runCli(['build', '--root', root, '--out', 'README.md', '--no-cache'], { cwd: root });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/README\.md: is not a directory/);
    expect(run.stderr).not.toMatch(/EEXIST/);
    await expectUntouched(root, sentinels);
  });

  it('a non-empty folder that is not a bundle is refused; --force-out writes into it and deletes nothing there', async () => {
    const { root } = await project();
    const notes = await tempDir('pb-notes-');
    // Names like the tool's own artifacts prove nothing.
    await writeTree(notes, { 'a.txt': 'keep\n', 'static/intro.0123abcd.md': 'keep\n', 'manifest.json.1.tmp': 'keep\n' });
    const before = await readTree(notes);
    const refused = await runCli(['build', '--root', root, '--out', notes, '--no-cache']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a prompt-build bundle.*--force-out/);
    expect(await readTree(notes)).toEqual(before);

    expect((await runCli(['build', '--root', root, '--out', notes, '--no-cache', '--force-out'])).code).toBe(0);
    // A second build with other content prunes its own stale files, and nothing else.
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nMore.\n');
    expect((await runCli(['build', '--root', root, '--out', notes, '--no-cache'])).code).toBe(0);
    const after = await readTree(notes);
    for (const [rel, bytes] of before) expect(after.get(rel)?.equals(bytes), rel).toBe(true);
    await loadBundle(notes);
  });

  it('a folder with the tool\'s own .prompt-build/ passes the check before the lock (another first build may be writing it); under the lock, files no manifest or journal names are still refused and kept', async () => {
    const { root } = await project();
    const dist = path.join(root, 'dist');
    await writeTree(dist, { 'static/intro.00000000.md': 'from the other build\n' });
    expect(() => assertWritableOutDir(resolveBuildOptions({ root, outDir: dist }))).toThrow(OutDirError);
    await fs.mkdir(path.join(dist, '.prompt-build'));
    expect(() => assertWritableOutDir(resolveBuildOptions({ root, outDir: dist }))).not.toThrow();
    await expect(buildProject({ root, cacheDir: null })).rejects.toBeInstanceOf(OutDirError);
    expect(await fs.readFile(path.join(dist, 'static/intro.00000000.md'), 'utf8')).toBe('from the other build\n');
  });

  it('the library refuses too, before compiling anything', async () => {
    const { root, sentinels } = await project();
    await expect(buildProject({ root, outDir: root, cacheDir: null })).rejects.toBeInstanceOf(OutDirError);
    await expect(buildProject({ root, outDir: path.join(root, 'prompts'), cacheDir: null })).rejects.toThrow(/inside the sources/);
    await expectUntouched(root, sentinels);
  });
});

describe('pruning deletes only what the tool wrote', () => {
  it('files added to dist/ by hand survive every rebuild, whatever their names', async () => {
    const { root } = await project();
    await buildProject({ root, cacheDir: null });
    const dist = path.join(root, 'dist');
    const mine = { 'static/mine.00000000.md': 'mine\n', 'NOTES.md': 'notes\n', 'maps/x.json': '{}\n', 'manifest.json.77.tmp': 'x' };
    await writeTree(dist, mine);
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), '\nChanged.\n');
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written!.removed.length).toBeGreaterThan(0); // the old intro artifact, which was the tool's
    for (const rel of Object.keys(mine)) expect(result.written!.removed).not.toContain(rel);
    const tree = await readTree(dist);
    for (const [rel, text] of Object.entries(mine)) expect(tree.get(rel)?.toString('utf8'), rel).toBe(text);
  });

  it('a crafted manifest cannot name a file outside the bundle to be pruned', async () => {
    const { root } = await project();
    const outside = await tempDir('pb-outside-');
    await writeTree(outside, { 'victim.md': 'victim\n' });
    const dist = path.join(root, 'dist');
    const rel = path.relative(dist, path.join(outside, 'victim.md'));
    const crafted = { tool: { name: 'prompt-build' }, profiles: { p: { sections: [{ file: rel }, { file: '/etc/hostname' }] } }, agents: {} };
    await writeTree(dist, { 'manifest.json': JSON.stringify(crafted) });
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    expect(await fs.readFile(path.join(outside, 'victim.md'), 'utf8')).toBe('victim\n');
  });

  it('a symlinked directory inside dist/ is never written or pruned through', async () => {
    const { root } = await project();
    await buildProject({ root, cacheDir: null });
    const outside = await tempDir('pb-outside-');
    await writeTree(outside, { 'keep.md': 'keep\n' });
    const dist = path.join(root, 'dist');
    const before = await readTree(dist);
    await fs.rm(path.join(dist, 'static'), { recursive: true });
    await fs.symlink(outside, path.join(dist, 'static'));
    const result = await buildProject({ root, cacheDir: null });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.rule)).toContain('output/write-failed');
    expect(await readTree(outside)).toEqual(new Map([['keep.md', Buffer.from('keep\n')]]));
    // The manifest on disk is the previous one: nothing was committed.
    expect((await readTree(dist)).get('manifest.json')).toEqual(before.get('manifest.json'));
  });
});
