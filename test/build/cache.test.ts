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
    const warm = await buildWithCache(root, cacheDir);
    expect(warm.result.stats.cacheMisses).toBe(0);
    expect(warm.result.stats.cacheHits).toBe(cold.result.stats.cacheMisses);
    expect(warm.dist).toEqual(cold.dist);
    expect(warm.result.written!.written).toEqual([]);
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
