/**
 * The `prompt-build` command: parse arguments, run one command, set the exit
 * code — 0 ok, 1 diagnostics or stale output, 2 usage error. Exit codes are
 * decided here and nowhere else; commands are loaded only when used.
 */
import { parseArgs, type Command } from './args.js';
import { processIo, type Io } from './io.js';
import { LockTimeoutError } from '../write/lock.js';
import { FileRefused } from '../runtime/read-regular-file.js';
import { OutDirError } from '../write/out-dir.js';
import { OptionError } from '../core/options.js';
import { terminalSafe, terminalSafeLines } from '../diagnostics/terminal-safe.js';
import { UsageError } from './usage-error.js';
import { ConfigError, report } from './shared.js';

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const parsed = await parseArgs(argv);
  if (parsed.kind === 'output') {
    io.out(parsed.text);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    io.err(`${parsed.help}\n\n${parsed.message}`);
    return 2;
  }
  try {
    return await run(parsed.command, io);
  } catch (error) {
    if (error instanceof ConfigError) {
      report(io, parsed.command.options, false, error.diagnostics);
      return 1;
    }
    // Line by line: a message listing several problems keeps its lines; whatever else could act on a terminal is escaped.
    if (error instanceof UsageError || error instanceof OutDirError || error instanceof OptionError) {
      io.err(terminalSafeLines(error.message));
      return 2;
    }
    // A file that stopped being a regular one between a command's check and its read (a log swapped for a FIFO).
    if (error instanceof LockTimeoutError || error instanceof FileRefused) {
      io.err(`prompt-build: ${terminalSafe(error.message)}`);
      return 1;
    }
    // The file system refused (permissions, a file where a directory should be, a full disk):
    // the environment's problem, stated as such, not a crash of the tool.
    if (isSystemError(error)) {
      io.err(`prompt-build: ${terminalSafe(error.message)}`);
      return 1;
    }
    // A user error is a diagnostic; reaching here is a bug in prompt-build itself.
    io.err(`prompt-build: internal error: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error;
}


async function run(command: Command, io: Io): Promise<number> {
  switch (command.name) {
    case 'build':
      return (await import('./commands/build.js')).runBuild(command.options, io, command.plugins);
    case 'watch':
      return (await import('./commands/watch.js')).runWatch(command.options, command.serve, io);
    case 'check':
      return (await import('./commands/check.js')).runCheck(command.options, command.policy, io, command.plugins);
    case 'lint':
      return (await import('./commands/lint.js')).runLint(command.options, io, command.plugins);
    case 'render':
      return (await import('./commands/render.js')).runRender(command.options, command.render, io);
    case 'inspect':
      return (await import('./commands/inspect.js')).runInspect(command.options, command.bundle, command.json, io);
    case 'diff':
      return (await import('./commands/diff.js')).runDiff(command.options, command.old, command.new, { format: command.format, failOnStaticChange: command.failOnStaticChange, raw: command.raw }, io);
    case 'report':
      return (await import('./commands/report.js')).runReport(command.options, command.bundles, command.outFile, io, command.usageLogs);
    case 'usage':
      return (await import('./commands/usage.js')).runUsage(command.options, command.logs, { format: command.format, bundles: command.bundles }, io);
    case 'lsp':
      return (await import('./commands/lsp.js')).runLsp();
  }
}
