/** `checkBundle`, the library call under `prompt-build check`: the same gate, as data. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, checkBundle } from '../../compiler/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const TREE = {
  'prompts/sections/a.md': 'Alpha.\n',
  'prompts/profiles/p.md': '---\nsections: [a]\ncacheWarning: false\n---\n',
};

async function built(): Promise<string> {
  const root = await tempDir('pb-checkbundle-');
  await writeTree(root, TREE);
  expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
  return root;
}

describe('checkBundle', () => {
  it('passes on a fresh bundle and lists what a source change made stale', async () => {
    const root = await built();
    const fresh = await checkBundle({ root, cacheDir: null });
    expect(fresh).toMatchObject({ ok: true, compared: true, missing: false, stale: [], otherOptions: [], staticPrefixChanges: [] });
    await fs.writeFile(path.join(root, 'prompts/sections/a.md'), 'Beta.\n');
    const stale = await checkBundle({ root, cacheDir: null });
    expect(stale.ok).toBe(false);
    expect(stale.stale.map((s) => s.state).sort()).toEqual(['changed', 'changed', 'extra', 'missing']);
  });

  it('gates a static prefix change by the profiles allowed, against the out directory or a given baseline', async () => {
    const root = await built();
    const before = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8'));
    await fs.writeFile(path.join(root, 'prompts/sections/a.md'), 'Beta.\n');
    await buildProject({ root, cacheDir: null });
    expect((await checkBundle({ root, cacheDir: null }, { allowStaticPrefixChange: [] })).ok).toBe(true);
    const refused = await checkBundle({ root, cacheDir: null }, { allowStaticPrefixChange: [], baseline: before });
    expect(refused.ok).toBe(false);
    expect(refused.staticPrefixChanges).toEqual([expect.objectContaining({ profile: 'p', allowed: false, old: before.profiles.p.staticPrefixHash })]);
    expect((await checkBundle({ root, cacheDir: null }, { allowStaticPrefixChange: ['p'], baseline: before })).ok).toBe(true);
  });

  it('a missing out directory fails unless allowed', async () => {
    const root = await tempDir('pb-checkbundle-');
    await writeTree(root, TREE);
    expect(await checkBundle({ root, cacheDir: null })).toMatchObject({ ok: false, missing: true, compared: false });
    expect(await checkBundle({ root, cacheDir: null }, { allowMissingDist: true })).toMatchObject({ ok: true, missing: false });
  });
});
