/**
 * A build whose caller reads only the manifest and the diagnostics (the
 * language server, `lint`) leaves the bundle's files out: the manifest is
 * the one a full build emits, and a later build of the same compiler has
 * every file again.
 */
import { describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { copyFixture } from '../helpers/tree.js';

describe('a build without its files', () => {
  it('has the full build’s manifest and no file, and the same compiler emits every file again when asked', async () => {
    const root = await copyFixture('build/ok-basic');
    const full = (await (await createCompiler({ root, cacheDir: null })).build()).bundle!;
    expect(full.files.size).toBeGreaterThan(2);
    const compiler = await createCompiler({ root, cacheDir: null });
    const without = (await compiler.build(undefined, { files: false })).bundle!;
    expect(without.manifest).toEqual(full.manifest);
    expect(without.files.size).toBe(0);
    const again = (await compiler.build([])).bundle!;
    expect(new Map(again.files)).toEqual(new Map(full.files));
  });
});
