/**
 * The environment facts (docs/context.md#environment) as a plain object whose keys are the context
 * variables dynamic sections read (`{{cwd}}`, `{{isGitRepo}}`, `{{platform}}`,
 * `{{shell}}`, `{{model}}`, `{{#each additionalDirectories}}`), so the result
 * can be handed to a bundle's thunks as it is.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface EnvInfoOptions {
  /** Default: `process.cwd()`. */
  cwd?: string;
  /** The model id the session talks to. */
  model: string;
  /** Extra working directories (absolute, or relative to `cwd`). */
  additionalDirectories?: readonly string[];
}

export interface EnvInfo {
  /** Absolute. */
  cwd: string;
  isGitRepo: boolean;
  platform: NodeJS.Platform;
  /** Name of the user's shell (`bash`, `zsh`…), or `unknown`. */
  shell: string;
  model: string;
  /** Absolute. */
  additionalDirectories: string[];
  /** e.g. `Linux 6.8.0`. */
  osVersion: string;
}

export async function getEnvInfo(options: EnvInfoOptions): Promise<EnvInfo> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  return {
    cwd,
    isGitRepo: await isInsideGitRepo(cwd),
    platform: process.platform,
    shell: shellName(process.env),
    model: options.model,
    additionalDirectories: (options.additionalDirectories ?? []).map((dir) => path.resolve(cwd, dir)),
    osVersion: `${os.type()} ${os.release()}`,
  };
}

/**
 * A `.git` entry (a folder, or the file a worktree or submodule has) in `dir`
 * or above. Looked up on disk rather than by running git: it answers even
 * where git is not installed, and costs a few stat calls instead of a process.
 */
async function isInsideGitRepo(dir: string): Promise<boolean> {
  for (let current = dir; ; current = path.dirname(current)) {
    try {
      await fs.stat(path.join(current, '.git'));
      return true;
    } catch {
      if (path.dirname(current) === current) return false;
    }
  }
}

function shellName(env: NodeJS.ProcessEnv): string {
  const shell = env.SHELL || (process.platform === 'win32' ? env.ComSpec || env.COMSPEC : undefined);
  return shell ? path.basename(shell).replace(/\.exe$/i, '') : 'unknown';
}
