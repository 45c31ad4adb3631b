/**
 * Vitest global setup: every temporary directory of the run — the tests' own
 * and those of the processes they start — goes under one fresh directory,
 * removed when the run ends, so that no run leaves trees behind in the
 * system's temporary directory, however a test ends.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pb-test-run-'));
  process.env.TMPDIR = root; // read by os.tmpdir() in test workers and in the CLI processes they start
  return () => fs.rm(root, { recursive: true, force: true });
}
