/**
 * The whole pipeline: a fixture tree built by the compiler, loaded by the
 * runtime from dist/ and from dist/bundle.mjs, assembled with a context, and
 * compared byte-for-byte with an expected prompt.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import {
  createSectionCache,
  getSystemPrompt,
  loadBundle,
  loadBundleModule,
  renderSystemPrompt,
  toSystemBlocks,
  type Bundle,
} from '../../compiler/runtime/index.js';
import { copyFixture, FIXTURES } from '../helpers/tree.js';

const UPDATE = process.env.UPDATE === '1';
const CONTEXT = {
  cwd: '/home/dev/project',
  language: 'French',
  servers: [
    { name: 'github', instructions: 'Use it for issues. Values like {{cwd}} stay literal.' },
    { name: 'db', instructions: 'Read-only queries.' },
  ],
};

async function built(): Promise<{ dir: Bundle; module: Bundle }> {
  const root = await copyFixture('build/ok-basic');
  const result = await buildProject({ root, cacheDir: null });
  expect(result.ok).toBe(true);
  const dist = path.join(root, 'dist');
  return {
    dir: await loadBundle(dist),
    module: loadBundleModule(await import(pathToFileURL(path.join(dist, 'bundle.mjs')).href)),
  };
}

describe('compiler → runtime', () => {
  it('assembles the default profile from dist/ and from bundle.mjs, equal to the expected prompt', async () => {
    const { dir, module } = await built();
    const expectedFile = path.join(FIXTURES, 'e2e/ok-basic-default.txt');
    const fromDir = await getSystemPrompt(dir, { context: CONTEXT, cache: createSectionCache() });
    const fromModule = await getSystemPrompt(module, { context: CONTEXT, cache: createSectionCache() });
    const text = `${renderSystemPrompt(fromDir, { showBoundary: true })}\n`;
    if (UPDATE) await fs.writeFile(expectedFile, text);
    expect(text).toBe(await fs.readFile(expectedFile, 'utf8'));
    expect([...fromModule]).toEqual([...fromDir]);
    expect(text).toContain('Values like {{cwd}} stay literal.');
  });

  it('the static block is the same for every context; only the dynamic block changes', async () => {
    const { dir } = await built();
    const a = toSystemBlocks(await getSystemPrompt(dir, { context: CONTEXT, cache: createSectionCache() }));
    const b = toSystemBlocks(await getSystemPrompt(dir, { context: { cwd: '/elsewhere' }, cache: createSectionCache() }));
    expect(a[0]).toEqual(b[0]);
    expect(a[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(a[1]!.text).not.toBe(b[1]!.text);
  });

  it('a missing required variable names section and variable', async () => {
    const { dir } = await built();
    await expect(getSystemPrompt(dir, { context: {}, cache: createSectionCache() })).rejects.toThrow(/env.*cwd|cwd.*env/);
  });
});
