/**
 * The hostile generator's newer shapes, picked out of the seeded run so
 * they are always exercised (the suite's 1,000 trees draw them at random):
 * names that are Object.prototype keys, a previous dist/ whose state folder
 * or artifacts are links, FIFOs or files, and — through the CLI, the only
 * reader of config files — hostile config shapes. Each tree must end in
 * success or diagnostics, within the hang limit, writing nothing outside
 * dist/ (see hostile/run-trees.ts).
 */
import { describe, it } from 'vitest';
import { hostileTree } from './hostile/generate.js';
import { previousBundle, runAsProcess, runInProcess, SEED } from './hostile/run-trees.js';

/** The first `n` trees from `from` on that hold one of `traits`. */
function treesWith(traits: readonly string[], from: number, n: number): number[] {
  const out: number[] = [];
  for (let i = from; out.length < n; i++) if (hostileTree(SEED, i).traits.some((t) => traits.includes(t))) out.push(i);
  return out;
}

describe('hostile shapes: prototype-key names, state folders, bundle links, config files', () => {
  it('20 trees with a hostile state folder, 20 with prototype-key names or links in dist/, in process', async () => {
    const previous = await previousBundle();
    for (const i of [...treesWith(['stateFolder'], 0, 20), ...treesWith(['protoNames', 'bundleLinks'], 0, 20)]) await runInProcess(i, previous);
  }, 600_000);

  it('6 trees with a hostile config file, through the CLI', async () => {
    const previous = await previousBundle();
    const trees = treesWith(['hostileConfig'], 200_000, 6);
    for (let k = 0; k < trees.length; k += 2) await Promise.all(trees.slice(k, k + 2).map((i) => runAsProcess(i, previous)));
  }, 600_000);
});
