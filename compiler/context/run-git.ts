/**
 * Runs several git commands side by side for the price of one process start.
 * Node starts a process by forking itself and waiting until the copy has
 * exec'd: several milliseconds of blocked event loop each time, more in a
 * larger process. So the commands go to one POSIX shell, which starts them
 * at once, each writing to a pipe of its own, and reports their exit codes.
 * Where there is no such shell (Windows, an image without `/bin/sh`) each
 * command is a process of its own.
 */
import { execFile, spawn } from 'node:child_process';

export type GitResult = { ok: true; stdout: string } | { ok: false; exitCode: number | null };

export interface GitLimits {
  /** Output beyond this fails the command (the others still count). */
  maxBytes: number;
  /** After this long, every command not done yet fails. */
  timeoutMs: number;
  /** The POSIX shell; null runs each command as a process of its own. */
  shell?: string | null;
}

/** One result per command, in order. A failure to start anything fails every command, never throws. */
export async function runGitCommands<const C extends readonly (readonly string[])[]>(
  commands: C,
  cwd: string,
  limits: GitLimits,
): Promise<{ [K in keyof C]: GitResult }> {
  const shell = limits.shell === undefined ? (process.platform === 'win32' ? null : '/bin/sh') : limits.shell;
  const results = (shell === null ? null : await runInShell(shell, commands, cwd, limits)) ?? (await Promise.all(commands.map((args) => runAlone(args, cwd, limits))));
  return results as { [K in keyof C]: GitResult };
}

function runAlone(args: readonly string[], cwd: string, { maxBytes, timeoutMs }: GitLimits): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = execFile('git', args, { cwd, maxBuffer: maxBytes, windowsHide: true }, (error, stdout) => {
      clearTimeout(timer);
      if (!error) resolve({ ok: true, stdout });
      else resolve({ ok: false, exitCode: typeof error.code === 'number' ? error.code : null });
    });
    // A timer of our own rather than execFile's, so that both ways of running keep time alike.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
  });
}

/** Null when the shell itself cannot be started. */
function runInShell(shell: string, commands: readonly (readonly string[])[], cwd: string, { maxBytes, timeoutMs }: GitLimits): Promise<GitResult[] | null> {
  return new Promise((resolve) => {
    const failed = (): GitResult[] => commands.map(() => ({ ok: false, exitCode: null }));
    const firstPipe = 3;
    const child = spawn(shell, ['-c', shellScript(commands, firstPipe)], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore', ...commands.map(() => 'pipe' as const)],
    });
    const outputs = commands.map(() => ({ chunks: [] as Buffer[], bytes: 0, overflowed: false }));
    commands.forEach((_, i) => {
      const pipe = child.stdio[firstPipe + i]!;
      const output = outputs[i]!;
      pipe.on('data', (chunk: Buffer) => {
        output.bytes += chunk.length;
        if (output.bytes <= maxBytes) output.chunks.push(chunk);
        else if (!output.overflowed) {
          output.overflowed = true;
          output.chunks = [];
          pipe.destroy(); // the command dies on its next write, as execFile's would be killed
        }
      });
      pipe.on('error', () => {}); // a destroyed pipe; the command's own failure is what counts
    });
    const codes: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => codes.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM'); // the script's trap passes it on to the commands
    }, timeoutMs);
    let settled = false;
    const settle = (results: GitResult[] | null): void => {
      settled = true;
      clearTimeout(timer);
      resolve(results);
    };
    // A shell that cannot start reports 'error', then 'close': the first decides.
    child.on('error', () => settle(null));
    child.on('close', (status) => {
      if (settled) return;
      const exitCodes = Buffer.concat(codes).toString('latin1').trim().split(' ').map(Number);
      if (timedOut || status !== 0 || exitCodes.length !== commands.length || !exitCodes.every(Number.isInteger)) return settle(failed());
      settle(
        outputs.map((output, i): GitResult =>
          exitCodes[i] === 0 && !output.overflowed ? { ok: true, stdout: Buffer.concat(output.chunks).toString('utf8') } : { ok: false, exitCode: exitCodes[i]! },
        ),
      );
    });
  });
}

/**
 * Command i writes to descriptor `firstPipe + i` (and holds no other pipe, so
 * a daemon it leaves behind cannot keep another command's pipe open); its
 * error output is dropped, as execFile's was. The exit codes come last, on
 * the shell's own output, in command order.
 */
function shellScript(commands: readonly (readonly string[])[], firstPipe: number): string {
  const pipes = commands.map((_, i) => firstPipe + i);
  const closeAll = pipes.map((fd) => `${fd}>&-`).join(' ');
  return [
    // TERM from the timeout; INT and HUP from a terminal: commands started with `&` ignore INT, so the
    // shell passes each on, or a Ctrl-C would leave a stuck git running after prompt-build is gone.
    `trap 'kill ${commands.map((_, i) => `$p${i}`).join(' ')} 2>/dev/null; exit 143' TERM INT HUP`,
    ...commands.map((args, i) => `git ${args.map(shellQuote).join(' ')} >&${pipes[i]} 2>/dev/null ${closeAll} & p${i}=$!`),
    ...commands.map((_, i) => `wait $p${i}; e${i}=$?`),
    `echo ${commands.map((_, i) => `$e${i}`).join(' ')}`,
  ].join('\n');
}

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
