import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createContextSession, getSystemContext, MAX_STATUS_CHARS } from '../../compiler/context/index.js';
import { tempDir } from '../helpers/tree.js';
import { commitFile, git, initRepo, isolateGit } from './repo.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('pb-git-');
  await isolateGit(root);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(root, { recursive: true, force: true });
});

async function snapshot(cwd: string): Promise<string> {
  const { gitStatus } = await getSystemContext({ cwd });
  if (gitStatus === undefined) throw new Error(`no snapshot in ${cwd}`);
  return gitStatus;
}

/** The lines between `Status:` and the blank line before `Recent commits:`. */
function statusSection(gitStatus: string): string {
  return gitStatus.slice(gitStatus.indexOf('\nStatus:\n') + '\nStatus:\n'.length, gitStatus.indexOf('\n\nRecent commits:\n'));
}

describe('getSystemContext', () => {
  it('snapshots branch, main branch, user, a clean status and the last five commits', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    for (const n of ['one', 'two', 'three', 'four', 'five', 'six']) await commitFile(repo, 'a.txt', n, `commit ${n}`);
    const lines = (await snapshot(repo)).split('\n');
    expect(lines[0]).toMatch(/^This is the git status at the start of the conversation\. .*will not update/);
    expect(lines.slice(1)).toEqual([
      'Current branch: main',
      'Main branch (you will usually use this for pull requests): main',
      'Git user: Test User',
      '',
      'Status:',
      '(clean)',
      '',
      'Recent commits:',
      ...['six', 'five', 'four', 'three', 'two'].map((n) => expect.stringMatching(new RegExp(`^[0-9a-f]{7,} commit ${n}$`))),
    ]);
  });

  it('shows a dirty tree in short format, keeping the leading index column', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'tracked.txt', 'v1', 'first');
    await fs.writeFile(path.join(repo, 'tracked.txt'), 'v2');
    await fs.writeFile(path.join(repo, 'new.txt'), 'new');
    expect(statusSection(await snapshot(repo))).toBe(' M tracked.txt\n?? new.txt');
  });

  it('names master as the main branch when there is no main, and reports the current feature branch', async () => {
    const repo = await initRepo(path.join(root, 'repo'), { branch: 'master' });
    await commitFile(repo, 'a.txt', 'a', 'first');
    git(repo, 'checkout', '--quiet', '-b', 'feature/x');
    const text = await snapshot(repo);
    expect(text).toContain('\nCurrent branch: feature/x\n');
    expect(text).toContain('\nMain branch (you will usually use this for pull requests): master\n');
  });

  it("prefers the branch origin's HEAD points at", async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    git(repo, 'update-ref', 'refs/remotes/origin/trunk', 'HEAD');
    git(repo, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    expect(await snapshot(repo)).toContain('\nMain branch (you will usually use this for pull requests): trunk\n');
  });

  it('describes a detached HEAD by its commit', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    await commitFile(repo, 'a.txt', 'b', 'second');
    git(repo, 'checkout', '--quiet', '--detach', 'HEAD~1');
    const short = git(repo, 'rev-parse', '--short', 'HEAD');
    const text = await snapshot(repo);
    expect(text).toContain(`\nCurrent branch: (detached HEAD at ${short})\n`);
    expect(text).toContain('\nMain branch (you will usually use this for pull requests): main\n');
  });

  it('handles a repository with no commits yet and no user name', async () => {
    const repo = await initRepo(path.join(root, 'repo'), { userName: null });
    await fs.writeFile(path.join(repo, 'first.txt'), '');
    const text = await snapshot(repo);
    expect(text).toContain('\nCurrent branch: main\n');
    expect(text).not.toContain('Git user:');
    expect(text.endsWith('Recent commits:\n(no commits yet)')).toBe(true);
    expect(statusSection(text)).toBe('?? first.txt');
  });

  it('cuts a status of 3,000 changed files at 2,000 characters on a line boundary, and says so', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    const names = Array.from({ length: 3000 }, (_, i) => `changed-${String(i).padStart(4, '0')}.txt`);
    await Promise.all(names.map((name) => fs.writeFile(path.join(repo, name), '')));
    const status = statusSection(await snapshot(repo));
    const [kept, note] = [status.slice(0, status.lastIndexOf('\n')), status.slice(status.lastIndexOf('\n') + 1)];
    expect(kept.length).toBeLessThanOrEqual(MAX_STATUS_CHARS);
    expect(kept.length).toBeGreaterThan(MAX_STATUS_CHARS - 30);
    const keptLines = kept.split('\n');
    expect(keptLines).toEqual(names.slice(0, keptLines.length).map((name) => `?? ${name}`));
    expect(note).toBe(
      `... (truncated: the status is over 2,000 characters; ${3000 - keptLines.length} more lines not shown. ` +
        'Run "git status" for the full list.)',
    );
  });

  it('returns no snapshot outside any repository', async () => {
    await fs.mkdir(path.join(root, 'plain'));
    expect(await getSystemContext({ cwd: path.join(root, 'plain') })).toEqual({});
  });

  it('returns no snapshot when git is not installed', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    const emptyBin = path.join(root, 'empty-bin');
    await fs.mkdir(emptyBin);
    vi.stubEnv('PATH', emptyBin);
    expect(await getSystemContext({ cwd: repo })).toEqual({});
  });

  it('memoises per session object: the snapshot stays until the session is cleared, other sessions see the change', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'a.txt', 'a', 'first');
    const session = createContextSession();
    const before = await getSystemContext({ cwd: repo }, session);
    await commitFile(repo, 'a.txt', 'b', 'second');
    expect(await getSystemContext({ cwd: repo }, session)).toBe(before);
    for (const fresh of [await getSystemContext({ cwd: repo }, createContextSession()), await getSystemContext({ cwd: repo })]) {
      expect(fresh.gitStatus).toContain(' second');
    }
    session.clear();
    expect((await getSystemContext({ cwd: repo }, session)).gitStatus).toContain(' second');
  });

  it('runs its five git commands concurrently, each with --no-optional-locks', async () => {
    // A stand-in git that logs its arguments, then waits (up to ~4 s) until five invocations have started.
    // Run one after another, the first would give up waiting and log `end` before the second started.
    const bin = path.join(root, 'fake-bin');
    const log = path.join(root, 'git.log');
    await fs.mkdir(bin);
    await fs.writeFile(log, '');
    await fs.writeFile(
      path.join(bin, 'git'),
      [
        '#!/bin/sh',
        `echo "start $*" >> '${log}'`,
        'i=0',
        `while [ "$(grep -c '^start' '${log}')" -lt 5 ] && [ "$i" -lt 200 ]; do sleep 0.02; i=$((i+1)); done`,
        `echo end >> '${log}'`,
        'exit 128',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    vi.stubEnv('PATH', `${bin}${path.delimiter}${process.env.PATH ?? ''}`);
    expect(await getSystemContext({ cwd: root })).toEqual({});
    const lines = (await fs.readFile(log, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines.slice(0, 5).every((line) => line.startsWith('start --no-optional-locks '))).toBe(true);
    expect(lines.slice(5)).toEqual(Array(5).fill('end'));
  });
});
