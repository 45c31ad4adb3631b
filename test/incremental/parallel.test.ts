/**
 * A build on every core equals a build on one: the compiled CLI parses a
 * generated tree with worker threads (it is above the parallel threshold),
 * the in-process API in this thread alone; the bundles must be identical.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { readTree, tempDir } from '../helpers/tree.js';

describe('parallel parsing', () => {
  it('worker threads and a single thread build byte-identical bundles', async () => {
    const root = await tempDir('pb-parallel-');
    // The benchmarks' seeded generator (plain JavaScript).
    const { generateTree } = (await import('../helpers/generate-tree.mjs' as string)) as {
      generateTree(root: string, options: { files: number; seed: number }): Promise<unknown>;
    };
    // Well above the parallel threshold (64 files to parse), and small enough to build twice in seconds.
    await generateTree(root, { files: 160, seed: 7 });
    const threaded = path.join(root, 'dist-threaded');
    const single = path.join(root, 'dist-single');
    const run = await runCli(['build', '--root', root, '--out', threaded, '--no-cache']);
    expect(run.code).toBe(0);
    const result = await buildProject({ root, outDir: single, cacheDir: null, parallelThreshold: Number.POSITIVE_INFINITY });
    expect(result.ok).toBe(true);
    const a = await readTree(threaded);
    expect(a.size).toBeGreaterThan(120);
    expect(a).toEqual(await readTree(single));
  });
});
