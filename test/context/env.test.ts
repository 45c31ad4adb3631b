import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getEnvInfo } from '../../compiler/context/index.js';
import { tempDir } from '../helpers/tree.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('pb-env-');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(root, { recursive: true, force: true });
});

describe('getEnvInfo', () => {
  it('gives the context variables dynamic sections read', async () => {
    const cwd = path.join(root, 'repo/src/deep');
    await fs.mkdir(cwd, { recursive: true });
    await fs.mkdir(path.join(root, 'repo/.git'));
    vi.stubEnv('SHELL', '/usr/local/bin/zsh');
    const info = await getEnvInfo({ cwd, model: 'claude-sonnet-4', additionalDirectories: ['../../../docs', '/abs/dir'] });
    expect(info).toEqual({
      cwd,
      isGitRepo: true,
      platform: process.platform,
      shell: 'zsh',
      model: 'claude-sonnet-4',
      additionalDirectories: [path.join(root, 'docs'), path.resolve('/abs/dir')],
      osVersion: `${os.type()} ${os.release()}`,
    });
  });

  it('finds the .git file of a worktree or submodule, and says no outside a repository', async () => {
    await fs.mkdir(path.join(root, 'worktree/sub'), { recursive: true });
    await fs.writeFile(path.join(root, 'worktree/.git'), 'gitdir: /somewhere/else\n');
    await fs.mkdir(path.join(root, 'plain'));
    expect((await getEnvInfo({ cwd: path.join(root, 'worktree/sub'), model: 'm' })).isGitRepo).toBe(true);
    expect((await getEnvInfo({ cwd: path.join(root, 'plain'), model: 'm' })).isGitRepo).toBe(false);
  });

  it('says unknown when no shell is set', async () => {
    vi.stubEnv('SHELL', undefined);
    vi.stubEnv('ComSpec', undefined);
    vi.stubEnv('COMSPEC', undefined);
    expect((await getEnvInfo({ cwd: root, model: 'm' })).shell).toBe('unknown');
  });
});
