/** The persistent parse cache: reused when valid, never trusted when not. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, createCompiler } from '../../compiler/index.js';
import { copyFixture, readTree, tempDir } from '../helpers/tree.js';

async function buildWithCache(root: string, cacheDir: string) {
  const result = await buildProject({ root, cacheDir });
  return { result, dist: await readTree(path.join(root, 'dist')) };
}

describe('parse cache', () => {
  it('a second build takes every parse from the cache and writes the same bundle', async () => {
    const root = await copyFixture('build/ok-basic');
    const cacheDir = await tempDir('pb-cache-');
    const cold = await buildWithCache(root, cacheDir);
    expect(cold.result.stats.cacheHits).toBe(0);
    expect(cold.result.stats.cacheMisses).toBeGreaterThan(5);
    await fs.rm(path.join(root, 'dist'), { recursive: true });
    const warm = await buildWithCache(root, cacheDir);
    expect(warm.result.upToDate).toBe(false);
    expect(warm.result.stats.cacheMisses).toBe(0);
    expect(warm.result.stats.cacheHits).toBe(cold.result.stats.cacheMisses);
    expect(warm.dist).toEqual(cold.dist);
  });

  it('with nothing changed, the next build is up to date: nothing compiled, nothing written, warnings kept', async () => {
    const root = await copyFixture('build/ok-basic');
    await fs.writeFile(path.join(root, 'prompts/sections/unused.md'), 'Nobody lists me.\n');
    const cacheDir = await tempDir('pb-cache-');
    const first = await buildWithCache(root, cacheDir);
    const second = await buildWithCache(root, cacheDir);
    expect(second.result.upToDate).toBe(true);
    expect(second.result.written).toBeNull();
    expect(second.result.diagnostics).toEqual(first.result.diagnostics);
    expect(second.result.diagnostics.map((d) => d.rule)).toEqual(['cache/prefix-below-minimum', 'section/unused']);
    expect(second.result.manifest).toEqual(first.result.manifest);
    expect(second.dist).toEqual(first.dist);
  });

  it.each([
    ['a source edited', (root: string) => fs.appendFile(path.join(root, 'prompts/fragments/hello.md'), 'more\n')],
    ['a source added', (root: string) => fs.writeFile(path.join(root, 'prompts/sections/new.md'), 'New\n')],
    ['a source removed', (root: string) => fs.rm(path.join(root, 'prompts/sections/literal.md'))],
    ['a dist file touched', (root: string) => fs.appendFile(path.join(root, 'dist/manifest.json'), ' ')],
    // The manifest is hashed; every other bundle file is checked by its size, time and inode.
    ['a dist file besides the manifest edited', (root: string) => fs.appendFile(path.join(root, 'dist/bundle.mjs'), '// edited\n')],
    ['a dist file removed', (root: string) => fs.rm(path.join(root, 'dist/bundle.mjs'))],
  ])('%s: the build is not up to date, and its result equals a clean build', async (_what, change) => {
    const root = await copyFixture('build/ok-basic');
    const cacheDir = await tempDir('pb-cache-');
    await buildWithCache(root, cacheDir);
    await change(root);
    const again = await buildWithCache(root, cacheDir);
    expect(again.result.upToDate).toBe(false);
    const clean = await tempDir();
    for (const dir of ['prompts', 'agents']) await fs.cp(path.join(root, dir), path.join(clean, dir), { recursive: true });
    const reference = await buildWithCache(clean, await tempDir('pb-cache-'));
    expect(again.result.ok).toBe(reference.result.ok);
    if (again.result.ok) expect(again.dist).toEqual(reference.dist);
  });

  it.each([
    ['a flipped byte (checksum mismatch)', (t: string) => t.replace('"bodyOffset":', '"bodyOffset":1'), 'checksum mismatch'],
    ['garbage', () => '{not json', 'malformed'],
    ['another tool version', (t: string) => t.replace(/"version":"[^"]*"/, '"version":"0.0.0-other"'), 'other tool version'],
  ])('a cache with %s is discarded and rebuilt', async (_what, corrupt, reason) => {
    const root = await copyFixture('build/ok-basic');
    const cacheDir = await tempDir('pb-cache-');
    const clean = await buildWithCache(root, cacheDir);
    const file = path.join(cacheDir, 'parse-cache.json');
    await fs.writeFile(file, corrupt(await fs.readFile(file, 'utf8')));
    await fs.rm(path.join(root, 'dist'), { recursive: true });
    const again = await buildWithCache(root, cacheDir);
    expect(again.result.stats.cacheDiscarded).toBe(reason);
    expect(again.result.stats.cacheHits).toBe(0);
    expect(again.dist).toEqual(clean.dist);
    // …and the rewritten cache is valid again.
    const third = await buildWithCache(root, cacheDir);
    expect(third.result.stats.cacheDiscarded).toBeNull();
    expect(third.result.stats.cacheMisses).toBe(0);
  });

  it('an entry of the wrong shape with a valid checksum is recomputed, not trusted', async () => {
    const root = await copyFixture('build/ok-basic');
    const cacheDir = await tempDir('pb-cache-');
    const clean = await buildWithCache(root, cacheDir);
    const file = path.join(cacheDir, 'parse-cache.json');
    const [header, payload] = (await fs.readFile(file, 'utf8')).split('\n') as [string, string];
    const entries = JSON.parse(payload) as Record<string, unknown>;
    for (const key of Object.keys(entries)) entries[key] = { scan: 'nonsense' };
    const forged = JSON.stringify(entries);
    const { createHash } = await import('node:crypto');
    const h = JSON.parse(header) as { version: string };
    const checksum = createHash('sha256').update(forged).digest('hex');
    await fs.writeFile(file, `${JSON.stringify({ version: h.version, checksum })}\n${forged}`);
    await fs.rm(path.join(root, 'dist'), { recursive: true });
    const again = await buildWithCache(root, cacheDir);
    expect(again.result.stats.cacheHits).toBe(0);
    expect(again.dist).toEqual(clean.dist);
  });

  it('cacheDir: null (--no-cache) reads and writes no cache', async () => {
    const root = await copyFixture('build/ok-basic');
    const compiler = await createCompiler({ root, cacheDir: null });
    const result = await compiler.build();
    expect(result.ok).toBe(true);
    await expect(fs.access(path.join(root, 'node_modules'))).rejects.toThrow();
  });
});
