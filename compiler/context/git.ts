/**
 * The system context (docs/context.md#the-git-snapshot): a snapshot of the repository the session
 * starts in — branch, main branch, short status, last five commits, user name.
 * The five git commands run concurrently (run-git.ts), so the snapshot costs
 * about as much as the slowest of them. `--no-optional-locks` keeps them from
 * taking the index lock, so a snapshot never makes the user's own git
 * commands fail.
 * Outside a repository, without git, or on any git error there is no snapshot.
 * This module gathers the data; the words around it are the bundle's
 * `git-snapshot` text (prompts/sections/context/git-snapshot.md).
 */
import path from 'node:path';
import type { Bundle } from '../runtime/bundle.js';
import { renderContextText } from '../runtime/context-wording.js';
import type { ContextSession } from './session.js';
import { runGitCommands, type GitLimits } from './run-git.js';
import { wordingFor } from './wording.js';

export interface SystemContext {
  /** The snapshot as the model reads it; present only inside a git work tree. */
  gitStatus?: string;
  /** The data it was rendered from. */
  git?: GitSnapshot;
}

/** What the `git-snapshot` text is rendered from. */
export interface GitSnapshot {
  /** Absent when HEAD is detached. */
  branch?: string;
  /** The short hash a detached HEAD is at, when there are commits. */
  detachedAt?: string;
  mainBranch: string;
  /** Absent when git has none configured. */
  userName?: string;
  /** `git status --short`, cut to `MAX_STATUS_CHARS` at a line end; empty when clean. */
  status: string;
  /** Present when `status` was cut: the limit (as printed) and how many lines were left out. */
  truncated?: { limit: string; omittedLines: number };
  /** The last five commits, one line each; empty on a branch with no commits yet. */
  commits: string;
}

export interface SystemContextOptions {
  /** Default: `process.cwd()`. */
  cwd?: string;
  /** The bundle whose `context` profile words the snapshot; the embedded set's when absent or when it has none. */
  wording?: Bundle;
}

/** With a session, the snapshot is taken (and worded) once per working directory and reused; without one, every call takes a new one. */
export function getSystemContext(options: SystemContextOptions = {}, session?: ContextSession): Promise<SystemContext> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const take = async (): Promise<SystemContext> => {
    // git's processes start first; the wording's bundle is read while they run, not after them.
    const snapshot = takeSnapshot(cwd);
    const wording = wordingFor(options.wording, session);
    wording.catch(() => {}); // awaited below, unless there is no snapshot to word
    const git = await snapshot;
    if (git === null) return {};
    return { gitStatus: renderContextText(await wording, 'git-snapshot', { ...git }), git };
  };
  return session ? session.systemContext(cwd, take) : take();
}

/** The argument lists of the five commands (after `git`), exported so the benchmark times exactly these. */
export const GIT_SNAPSHOT_COMMANDS = {
  // Exit 1 with no output when HEAD is detached; works on a branch with no commits yet.
  branch: ['--no-optional-locks', 'symbolic-ref', '--short', '--quiet', 'HEAD'],
  // One command for every main-branch candidate: origin's HEAD (with its target), then main/master.
  mainBranch: [
    '--no-optional-locks',
    'for-each-ref',
    '--format=%(refname)%09%(symref)',
    'refs/remotes/origin/HEAD',
    'refs/heads/main',
    'refs/heads/master',
    'refs/remotes/origin/main',
    'refs/remotes/origin/master',
  ],
  status: ['--no-optional-locks', 'status', '--short'],
  log: ['--no-optional-locks', 'log', '--oneline', '-n', '5'],
  userName: ['--no-optional-locks', 'config', 'user.name'],
} as const satisfies Record<string, readonly string[]>;

/** Longest status kept in the prompt; a dirty checkout must not crowd out the conversation. */
export const MAX_STATUS_CHARS = 2000;

async function takeSnapshot(cwd: string): Promise<GitSnapshot | null> {
  const commands = GIT_SNAPSHOT_COMMANDS;
  // status first: it is the slow one.
  const [status, log, branch, mainBranch, userName] = await runGitCommands(
    [commands.status, commands.log, commands.branch, commands.mainBranch, commands.userName],
    cwd,
    LIMITS,
  );
  // status fails outside a work tree and when git is missing; symbolic-ref fails with 1 only for a detached HEAD.
  if (!status.ok || (!branch.ok && branch.exitCode !== 1) || !mainBranch.ok) return null;
  const commits = log.ok ? log.stdout.trim() : ''; // log fails on a branch with no commits yet
  const user = userName.ok ? userName.stdout.trim() : '';
  return {
    ...(branch.ok ? { branch: branch.stdout.trim() } : commits ? { detachedAt: commits.split(' ', 1)[0]! } : {}),
    mainBranch: pickMainBranch(mainBranch.stdout),
    ...(user ? { userName: user } : {}),
    ...cutStatus(status.stdout.trimEnd()), // not trimStart: the first column of `--short` is the index state
    commits,
  };
}

/** Cut at a line boundary within the limit, and count what was left out. */
function cutStatus(status: string): Pick<GitSnapshot, 'status' | 'truncated'> {
  if (status.length <= MAX_STATUS_CHARS) return { status };
  const cut = status.lastIndexOf('\n', MAX_STATUS_CHARS);
  const kept = cut > 0 ? status.slice(0, cut) : status.slice(0, MAX_STATUS_CHARS);
  const omittedLines = status.split('\n').length - kept.split('\n').length;
  return { status: kept, truncated: { limit: MAX_STATUS_CHARS.toLocaleString('en-US'), omittedLines } };
}

/** origin's HEAD names the main branch when the clone recorded it; otherwise main, then master. */
function pickMainBranch(forEachRef: string): string {
  const refs = new Map<string, string>();
  for (const line of forEachRef.split('\n')) {
    const [ref, target] = line.split('\t');
    if (ref) refs.set(ref, target ?? '');
  }
  const originHead = refs.get('refs/remotes/origin/HEAD');
  if (originHead) return originHead.replace(/^refs\/remotes\/origin\//, '');
  const found = ['main', 'master'].find((name) => refs.has(`refs/heads/${name}`) || refs.has(`refs/remotes/origin/${name}`));
  return found ?? 'main';
}

const LIMITS: GitLimits = {
  // A huge status is cut to 2,000 characters anyway, but must not fail the snapshot by overflowing the default 1 MiB.
  maxBytes: 64 * 1024 * 1024,
  // A git stuck on a network file system must not hold up the prompt; a timed-out snapshot is no snapshot.
  timeoutMs: 10_000,
};
