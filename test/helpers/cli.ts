/** Runs the built command (`CLI_BIN`) as a user would. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { REPO, CLI_BIN } from './tree.js';

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
      [CLI_BIN, ...args],
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

/**
 * The CLI's own `main`, in this process, for setup that is not what a test is
 * about (the build before the `diff`, `inspect` or `report` under test): the
 * same command with the same config and flags, without the second a process
 * spends loading the tool. Output as the process would print it, uncoloured.
 */
export async function runCliInProcess(args: readonly string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const { main } = await import('../../compiler/cli/main.js');
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const code = await main([...args, '--no-color'], { out: (text) => void (stdout += line(text)), err: (text) => void (stderr += line(text)) });
  return { code, stdout, stderr };
}
