/** Real git repositories for the context tests, isolated from the machine's git configuration. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { vi } from 'vitest';

/**
 * Call in `beforeEach` (with `vi.unstubAllEnvs()` in `afterEach`): no global or
 * system config (a user.name there would leak into snapshots), no repository
 * above `root` (so a temporary directory is really outside any repository), and
 * none of the variables a git hook sets for the process running the tests.
 */
export async function isolateGit(root: string): Promise<void> {
  const emptyConfig = path.join(root, '.empty-gitconfig');
  await fs.writeFile(emptyConfig, '');
  vi.stubEnv('GIT_CONFIG_GLOBAL', emptyConfig);
  vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
  vi.stubEnv('GIT_CEILING_DIRECTORIES', path.dirname(root));
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY']) vi.stubEnv(name, undefined);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `git init` on `branch`, with a local identity (the snapshot's user name) unless `userName` is null. */
export async function initRepo(dir: string, { branch = 'main', userName = 'Test User' as string | null } = {}): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch', branch);
  git(dir, 'config', 'user.email', 'test@example.com');
  if (userName !== null) git(dir, 'config', 'user.name', userName);
  return dir;
}

/** Writes `file` and commits it; committer identity given inline so repos without user.name can commit too. */
export async function commitFile(dir: string, file: string, content: string, message: string): Promise<void> {
  await fs.writeFile(path.join(dir, file), content);
  git(dir, 'add', file);
  git(dir, '-c', 'user.name=Committer', 'commit', '--quiet', '-m', message);
}
