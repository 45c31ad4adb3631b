/**
 * A build on every core equals a build on one: the compiled library parses a
 * generated tree with worker threads (its parallel threshold lowered to 1; by
 * default a tree this small is parsed on one thread), the in-process API in
 * this thread alone; the bundles must be identical.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { readTree, REPO, tempDir } from '../helpers/tree.js';

describe('parallel parsing', () => {
  it('worker threads and a single thread build byte-identical bundles', async () => {
    const root = await tempDir('pb-parallel-');
    // The benchmarks' seeded generator (plain JavaScript).
    const { generateTree } = (await import('../helpers/generate-tree.mjs' as string)) as {
      generateTree(root: string, options: { files: number; seed: number }): Promise<unknown>;
    };
    // Small enough to build twice in seconds.
    await generateTree(root, { files: 160, seed: 7 });
    const threaded = path.join(root, 'dist-threaded');
    const single = path.join(root, 'dist-single');
    const script = `const { buildProject } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'lib/index.js')).href)});
      const built = await buildProject({ root: process.argv[1], outDir: process.argv[2], cacheDir: null, parallelThreshold: 1 });
      process.exitCode = built.ok ? 0 : 1;`;
    const code = await new Promise<number>((resolve) => execFile(process.execPath, ['--input-type=module', '-e', script, root, threaded], (error) => resolve(error ? 1 : 0)));
    expect(code).toBe(0);
    const result = await buildProject({ root, outDir: single, cacheDir: null, parallelThreshold: Number.POSITIVE_INFINITY });
    expect(result.ok).toBe(true);
    const a = await readTree(threaded);
    expect(a.size).toBeGreaterThan(120);
    expect(a).toEqual(await readTree(single));
  });
});
