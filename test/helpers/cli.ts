/** Runs the built CLI (`lib/cli/bin.js`, compiled by `npm test` before vitest starts) as a user would. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { REPO } from './tree.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `uid`/`gid`: run as another user (the tests that need permissions to bite run as root, which they would not). */
export function runCli(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO, 'lib/cli/bin.js'), ...args],
      {
        cwd: options.cwd ?? REPO,
        env: { ...process.env, NO_COLOR: '1', ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        ...(options.uid === undefined ? {} : { uid: options.uid }),
        ...(options.gid === undefined ? {} : { gid: options.gid }),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
