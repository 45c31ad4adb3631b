/** Same sources → byte-identical dist/; one edit changes only what it must; failures leave dist/ alone. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { copyFixture, leaveInterruptedWrite, readTree } from '../helpers/tree.js';

describe('determinism', () => {
  it('two builds of the same tree give byte-identical dist/, wherever the tree lives', async () => {
    const a = await copyFixture('build/ok-basic');
    const b = await copyFixture('build/ok-basic');
    await buildProject({ root: a, cacheDir: null });
    await buildProject({ root: b, cacheDir: null });
    const first = await readTree(path.join(a, 'dist'));
    await buildProject({ root: a, cacheDir: null });
    expect(await readTree(path.join(a, 'dist'))).toEqual(first);
    expect(await readTree(path.join(b, 'dist'))).toEqual(first);
    expect(first.get('manifest.json')!.toString()).not.toContain(a);
  });

  it('editing one static section changes only its artifacts, the manifest, the bundle module and that profile’s staticPrefixHash', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const before = await readTree(path.join(root, 'dist'));
    const file = path.join(root, 'prompts/sections/intro.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('Outro', 'Outro, edited'));
    await buildProject({ root, cacheDir: null });
    const after = await readTree(path.join(root, 'dist'));

    const removed = [...before.keys()].filter((f) => !after.has(f));
    const added = [...after.keys()].filter((f) => !before.has(f));
    const changed = [...after.keys()].filter((f) => before.has(f) && !before.get(f)!.equals(after.get(f)!));
    expect(removed.map(stripHash)).toEqual(['maps/static/intro.json', 'static/intro.md']);
    expect(added.map(stripHash)).toEqual(['maps/static/intro.json', 'static/intro.md']);
    expect(changed).toEqual(['bundle.mjs', 'manifest.json']);

    const m0 = JSON.parse(before.get('manifest.json')!.toString()) as Manifest;
    const m1 = JSON.parse(after.get('manifest.json')!.toString()) as Manifest;
    expect(m1.profiles.default!.staticPrefixHash).not.toBe(m0.profiles.default!.staticPrefixHash);
    expect(m1.profiles.parts!.staticPrefixHash).toBe(m0.profiles.parts!.staticPrefixHash);
  });

  it('a dynamic-only edit leaves the static prefix hash alone', async () => {
    const root = await copyFixture('build/ok-basic');
    const first = await buildProject({ root, cacheDir: null });
    const file = path.join(root, 'prompts/sections/env.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('Working directory', 'Current directory'));
    const second = await buildProject({ root, cacheDir: null });
    const p0 = first.bundle!.manifest.profiles.default!;
    const p1 = second.bundle!.manifest.profiles.default!;
    expect(p1.staticPrefixHash).toBe(p0.staticPrefixHash);
    expect(p1.sections[3]!.hash).not.toBe(p0.sections[3]!.hash);
  });
});

describe('atomic output', () => {
  it('a failed build leaves the previous dist/ untouched', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    const before = await readTree(path.join(root, 'dist'));
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), 'Now broken: @./missing.md\n');
    await fs.writeFile(path.join(root, 'prompts/sections/env.md'), 'Static {{oops}}\n');
    const result = await buildProject({ root, cacheDir: null });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.rule).sort()).toEqual(['include/missing', 'section/static-template']);
    expect(result.written).toBeNull();
    expect(await readTree(path.join(root, 'dist'))).toEqual(before);
  });

  it('leftovers of an interrupted write are pruned by the next build, and the manifest never names a missing file', async () => {
    const root = await copyFixture('build/ok-basic');
    await buildProject({ root, cacheDir: null });
    await fs.writeFile(path.join(root, 'dist/static/intro.deadbeef.md.123.tmp'), 'half');
    await fs.writeFile(path.join(root, 'dist/static/orphan.00000000.md'), 'old');
    // Only what the interrupted write's journal names is the tool's to prune.
    await leaveInterruptedWrite(path.join(root, 'dist'), ['static/intro.deadbeef.md.123.tmp', 'static/orphan.00000000.md']);
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written!.removed).toEqual(['static/intro.deadbeef.md.123.tmp', 'static/orphan.00000000.md']);
    const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8')) as Manifest;
    for (const p of Object.values(manifest.profiles)) for (const s of p.sections) await fs.access(path.join(root, 'dist', s.file));
  });
});

function stripHash(file: string): string {
  return file.replace(/\.[0-9a-f]{8}\./, '.');
}
