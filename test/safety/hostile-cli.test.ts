/** A sample of the generated hostile trees through `prompt-build build` as a process (see hostile/run-trees.ts). */
import { describe, it } from 'vitest';
import { generatedCases } from '../helpers/scale.js';
import { previousBundle, runAsProcess } from './hostile/run-trees.js';

/** Taken from past the trees the in-process run covers, so the sample adds shapes rather than repeating them. */
const FIRST = 100_000;
// 40 processes in the suite (each a whole CLI build, most of them emitting); `PB_TEST_SCALE` runs more.
const COUNT = generatedCases(40);

describe('hostile trees through the CLI', () => {
  it('each exits 0, 1 or 2 with no stack trace and leaves the previous bundle loadable', async () => {
    const previous = await previousBundle();
    // Two at a time: as many as this machine has cores.
    for (let i = FIRST; i < FIRST + COUNT; i += 2) await Promise.all([runAsProcess(i, previous), runAsProcess(i + 1, previous)]);
  }, 600_000);
});
