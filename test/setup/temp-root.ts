/**
 * Vitest global setup: every temporary directory of the run — the tests' own
 * and those of the processes they start — goes under one fresh directory,
 * removed when the run ends, so that no run leaves trees behind in the
 * system's temporary directory, however a test ends.
 *
 * That directory is in memory where it can be: the suite writes and deletes
 * tens of thousands of small files, and on this machine's disk (ext4 mounted
 * with `discard`) creating 10,000 of them took 2.2 s against 0.11 s in
 * memory — a third of the suite's time went to the disk. Root mounts a tmpfs
 * of its own; anyone else uses `/dev/shm` when it is a tmpfs with room.
 * `PB_TEST_DISK=1` keeps the run on the disk.
 */
import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Room the largest trees the suite writes at once need, far below this machine's memory; pages are used only as files fill them. */
const ROOM = 4 * 1024 ** 3;

export default async function setup(): Promise<() => Promise<void>> {
  const onDisk = process.env.PB_TEST_DISK === '1';
  const shared = onDisk ? null : sharedMemory();
  const root = await fs.mkdtemp(path.join(shared ?? os.tmpdir(), 'pb-test-run-'));
  const mounted = !onDisk && shared === null && mountTmpfs(root);
  // Others may pass through (not list): a test that runs the CLI as another user, so that permissions bite even for root, opens its own tree to it.
  await fs.chmod(root, 0o711);
  process.env.TMPDIR = root; // read by os.tmpdir() in test workers and in the CLI processes they start
  return async () => {
    if (mounted) execFileSync('umount', ['-l', root], { stdio: 'ignore' });
    await fs.rm(root, { recursive: true, force: true });
  };
}

/** `/dev/shm` for a run that cannot mount, when it is a writable tmpfs with room (containers often give it 64 MB). */
function sharedMemory(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() === 0) return null;
  try {
    const stats = fsSync.statfsSync('/dev/shm');
    fsSync.accessSync('/dev/shm', fsSync.constants.W_OK);
    return stats.bavail * stats.bsize >= ROOM ? '/dev/shm' : null;
  } catch {
    return null;
  }
}

/** True when `dir` is now a tmpfs; false (the run stays on the disk) where mounting is not allowed. */
function mountTmpfs(dir: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${ROOM},mode=0711`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
