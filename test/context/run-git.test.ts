import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runGitCommands, type GitLimits } from '../../compiler/context/run-git.js';
import { tempDir } from '../helpers/tree.js';
import { commitFile, git, initRepo, isolateGit } from './repo.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('pb-run-git-');
  await isolateGit(root);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(root, { recursive: true, force: true });
});

const LIMITS: GitLimits = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };
/** Through the shell, without one, and with a shell that is not there (the fallback). */
const MODES = [
  { name: 'one shell for all', shell: '/bin/sh' },
  { name: 'a process each', shell: null },
  { name: 'a missing shell', shell: '/nonexistent/sh' },
] as const;

describe.each(MODES)('runGitCommands, $name', ({ shell }) => {
  it("gives each command's output and exit status, in order", async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    await commitFile(repo, 'a.txt', 'b', 'second');
    git(repo, 'checkout', '--quiet', '--detach', 'HEAD~1');
    await fs.writeFile(path.join(repo, 'new.txt'), '');
    const [status, branch, log, bad] = await runGitCommands(
      [['status', '--short'], ['symbolic-ref', '--quiet', 'HEAD'], ['log', '--format=%s'], ['no-such-command']],
      repo,
      { ...LIMITS, shell },
    );
    expect(status).toEqual({ ok: true, stdout: '?? new.txt\n' });
    expect(branch).toEqual({ ok: false, exitCode: 1 }); // detached: the exit status the snapshot tells apart
    expect(log).toEqual({ ok: true, stdout: 'first\n' });
    expect(bad.ok).toBe(false);
  });

  it('fails only the command whose output is over the limit', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    const names = Array.from({ length: 2000 }, (_, i) => `untracked-${i}.txt`);
    await Promise.all(names.map((name) => fs.writeFile(path.join(repo, name), '')));
    const [status, user] = await runGitCommands([['status', '--short'], ['config', 'user.name']], repo, { ...LIMITS, maxBytes: 4096, shell });
    expect(status.ok).toBe(false);
    expect(user).toEqual({ ok: true, stdout: 'Test User\n' });
  });

  it('fails every command still running at the timeout, and stops them', async () => {
    // A stand-in git that records its process id, then waits until killed.
    const bin = path.join(root, 'fake-bin');
    const pids = path.join(root, 'pids');
    await fs.mkdir(bin);
    await fs.writeFile(pids, '');
    await fs.writeFile(path.join(bin, 'git'), `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 600\n`, { mode: 0o755 });
    vi.stubEnv('PATH', `${bin}${path.delimiter}${process.env.PATH ?? ''}`);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const running = runGitCommands([['status'], ['log']], root, { ...LIMITS, shell });
      const started = async (): Promise<number[]> => (await fs.readFile(pids, 'utf8')).split('\n').filter(Boolean).map(Number);
      while ((await started()).length < 2) await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(LIMITS.timeoutMs);
      expect(await running).toEqual([
        { ok: false, exitCode: null },
        { ok: false, exitCode: null },
      ]);
      for (const pid of await started()) expect(await stopsWithin(pid, 10_000), `git ${pid} left running`).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('runGitCommands through a shell', () => {
  it('stops its commands when the shell is interrupted (those started with & ignore Ctrl-C themselves)', async () => {
    const bin = path.join(root, 'fake-bin');
    const pids = path.join(root, 'pids');
    await fs.mkdir(bin);
    await fs.writeFile(pids, '');
    // Records the shell that started it and itself, then waits until killed.
    await fs.writeFile(path.join(bin, 'git'), `#!/bin/sh\necho "$PPID $$" >> '${pids}'\nexec sleep 600\n`, { mode: 0o755 });
    vi.stubEnv('PATH', `${bin}${path.delimiter}${process.env.PATH ?? ''}`);
    const running = runGitCommands([['status'], ['log']], root, { ...LIMITS, shell: '/bin/sh' });
    const started = async (): Promise<number[][]> => (await fs.readFile(pids, 'utf8')).split('\n').filter(Boolean).map((line) => line.split(' ').map(Number));
    while ((await started()).length < 2) await new Promise((resolve) => setImmediate(resolve));
    const [[shell]] = await started();
    process.kill(shell!, 'SIGINT');
    expect(await running).toEqual([
      { ok: false, exitCode: null },
      { ok: false, exitCode: null },
    ]);
    for (const [, pid] of await started()) expect(await stopsWithin(pid!, 10_000), `git ${pid} left running`).toBe(true);
  });
});

/**
 * Whether the process is gone within the deadline. A killed process has closed its pipes before the
 * kernel marks it a zombie, so a loaded machine can show it running for a moment after its shell
 * closed. Polled on setImmediate, since a test here fakes setTimeout.
 */
async function stopsWithin(pid: number, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (await isRunning(pid)) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

/** A process that has exited but is not reaped yet (a zombie) is not running. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z /.test(stat);
}
