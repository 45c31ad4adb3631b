/**
 * A build whose caller never reads `bundle.mjs` (the language server, `lint`)
 * leaves it out, and only it: every other file, the manifest included, is
 * what a full build emits; a later full build of the same compiler has it.
 */
import { describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { copyFixture } from '../helpers/tree.js';

describe('bundle.mjs left out', () => {
  it('is the only file missing, and the same compiler emits it again when asked', async () => {
    const root = await copyFixture('build/ok-basic');
    const full = (await (await createCompiler({ root, cacheDir: null })).build()).bundle!;
    const compiler = await createCompiler({ root, cacheDir: null });
    const without = (await compiler.build(undefined, { bundleModule: false })).bundle!;
    expect([...without.files.keys()].sort()).toEqual([...full.files.keys()].filter((file) => file !== 'bundle.mjs').sort());
    for (const [file, content] of without.files) expect(content, file).toBe(full.files.get(file));
    const again = (await compiler.build([])).bundle!;
    expect(again.files.get('bundle.mjs')).toBe(full.files.get('bundle.mjs'));
  });
});
