/**
 * bench/watch.mjs on a small generated tree: it measures what it says and
 * leaves the tree as it found it (`npm run bench` reuses its trees).
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchWatch } from '../../bench/watch.mjs';
import { generateTree } from '../../bench/generate.mjs';
import { readTree, tempDir } from '../helpers/tree.js';

describe('benchWatch', () => {
  let root: string;
  beforeAll(async () => {
    root = await tempDir('pb-bench-watch-');
    await generateTree(root, { files: 150, seed: 7 });
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it('times cold and incremental builds and restores every edited file', async () => {
    const before = await readTree(root);
    const result = await benchWatch({ root, coldRuns: 1, edits: 3, pausedEdits: 1 });
    expect(result.sources).toBe(150);
    expect(result.coldMs).toBeGreaterThan(0);
    expect(result.incrementalMs).toBeGreaterThan(0);
    expect(result.leafMs).toBeGreaterThan(0);
    expect(result.pausedLeafMs).toBeGreaterThan(0);
    expect(result.ratio).toBeCloseTo(result.incrementalMs / result.coldMs, 10);
    expect(await readTree(root)).toEqual(before);
  });
});
