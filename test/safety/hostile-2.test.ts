/** Generated hostile trees, quarter 2 of the suite's 2,000, through the library in-process (see hostile/run-trees.ts). */
import { describe, it } from 'vitest';
import { previousBundle, runInProcess, treeCount } from './hostile/run-trees.js';

const QUARTER = 2;
const COUNT = treeCount(500);

describe('hostile trees through buildProject', () => {
  it(`trees ${QUARTER * COUNT}–${(QUARTER + 1) * COUNT - 1} end in success or diagnostics, and leave the previous bundle loadable`, async () => {
    const previous = await previousBundle();
    for (let i = QUARTER * COUNT; i < (QUARTER + 1) * COUNT; i++) await runInProcess(i, previous);
  }, 600_000);
});
