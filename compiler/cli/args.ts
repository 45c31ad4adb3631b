/**
 * The option table and the parser: argv in, a typed command out. Pure — it
 * runs nothing, prints nothing, so it is tested without spawning a process.
 */
import { createRequire } from 'node:module';
import yargs, { type Argv } from 'yargs';
import { colorByDefault } from './color.js';
import { withHint } from './unknown-argument.js';
import { REPORTERS, type ReporterName } from '../diagnostics-format.js';

export interface CommonOptions {
  root: string;
  out: string | undefined;
  reporter: ReporterName;
  cache: boolean;
  color: boolean;
  maxIncludeDepth: number | undefined;
  maxIncludeBytes: number | undefined;
  keepComments: boolean;
  models: string[] | undefined;
  forceOut: boolean;
}

export interface CheckPolicy {
  /** Profiles whose static prefix hash may change; `*` allows all. Others changing fail the check. */
  allowStaticPrefixChange: string[] | undefined;
  /** Bundle (directory or manifest.json) whose static prefix hashes the policy compares with; default: the out directory. */
  baseline: string | undefined;
  /** A missing out directory passes (for projects that do not commit the bundle); by default it fails. */
  allowMissingDist: boolean;
}

export interface RenderOptions {
  profile: string | undefined;
  agent: string | undefined;
  coordinator: boolean;
  proactive: boolean;
  simple: boolean;
  customSystemPrompt: string | undefined;
  appendSystemPrompt: string | undefined;
  overrideSystemPrompt: string | undefined;
  context: string | undefined;
  cwd: string | undefined;
  bundle: string | undefined;
  json: boolean;
}

export type Command =
  | { name: 'build'; options: CommonOptions }
  | { name: 'watch'; options: CommonOptions; serve: { port: number } | null }
  | { name: 'check'; options: CommonOptions; policy: CheckPolicy }
  | { name: 'render'; options: CommonOptions; render: RenderOptions }
  | { name: 'inspect'; options: CommonOptions; bundle: string | undefined; json: boolean }
  | { name: 'diff'; options: CommonOptions; old: string; new: string; format: DiffFormat; failOnStaticChange: boolean }
  | { name: 'report'; options: CommonOptions; bundles: string[]; outFile: string | undefined };

export const DIFF_FORMATS = ['text', 'markdown', 'json'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

export type ParseOutcome =
  | { kind: 'command'; command: Command }
  | { kind: 'usage-error'; message: string; help: string }
  | { kind: 'output'; text: string };

/** From package.json (two levels above `compiler/cli/` and `lib/cli/`). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export async function parseArgs(argv: readonly string[], cwd = process.cwd()): Promise<ParseOutcome> {
  let command: Command | undefined;
  let failure: string | undefined;
  let output = '';
  const parser = common(yargs([...argv]), cwd)
    .scriptName('prompt-build')
    .command(['build', '$0'], 'compile prompts/ and agents/ into the bundle (dist/)', {}, (a) => {
      command = { name: 'build', options: toCommon(a, cwd) };
    })
    .command(
      'watch',
      'rebuild on change, only what depends on the changed file',
      (y) =>
        y
          .option('serve', { type: 'boolean', default: false, describe: 'serve the report of the working tree on 127.0.0.1, reloaded after every rebuild' })
          .option('port', { type: 'string', requiresArg: true, coerce: portNumber, describe: `port for --serve (default ${DEFAULT_PORT}; 0 picks a free one)` }),
      (a) => {
        command = { name: 'watch', options: toCommon(a, cwd), serve: a.serve ? { port: (a.port as number | undefined) ?? DEFAULT_PORT } : null };
      },
    )
    .command(
      'check',
      'build in memory; fail on diagnostics or a stale dist/',
      (y) =>
        y
          .option('allow-static-prefix-change', {
            type: 'string',
            array: true,
            describe: 'profiles whose static prefix hash may change (`*` for all); when given, any other change fails',
          })
          .option('baseline', {
            type: 'string',
            describe: 'bundle or manifest.json the static prefix hashes are compared with (default: the --out directory)',
          })
          .option('allow-missing-dist', {
            type: 'boolean',
            default: false,
            describe: 'pass when the out directory does not exist (for projects that do not commit the bundle)',
          }),
      (a) => {
        const allowed = a['allow-static-prefix-change'] as string[] | undefined;
        const policy = { allowStaticPrefixChange: allowed, baseline: a.baseline, allowMissingDist: a['allow-missing-dist'] };
        command = { name: 'check', options: toCommon(a, cwd), policy };
      },
    )
    .command(
      'render',
      'assemble a final prompt through the runtime and print it with the boundary shown',
      (y) =>
        y
          .option('profile', { type: 'string', describe: 'profile to assemble (default: default)' })
          .option('agent', { type: 'string', describe: 'use this agent as the system prompt' })
          .option('coordinator', { type: 'boolean', default: false, describe: 'coordinator mode' })
          .option('proactive', { type: 'boolean', default: false, describe: 'proactive mode' })
          .option('simple', { type: 'boolean', default: false, describe: 'simple mode' })
          .option('custom-system-prompt', { type: 'string' })
          .option('append-system-prompt', { type: 'string' })
          .option('override-system-prompt', { type: 'string' })
          .option('context', { type: 'string', describe: 'JSON file with values for dynamic inputs' })
          .option('cwd', { type: 'string', describe: 'working directory the context providers look at' })
          .option('bundle', { type: 'string', describe: 'bundle to load (default: the --out directory)' })
          .option('json', { type: 'boolean', default: false }),
      (a) => {
        command = {
          name: 'render',
          options: toCommon(a, cwd),
          render: {
            profile: a.profile,
            agent: a.agent,
            coordinator: a.coordinator,
            proactive: a.proactive,
            simple: a.simple,
            customSystemPrompt: a['custom-system-prompt'],
            appendSystemPrompt: a['append-system-prompt'],
            overrideSystemPrompt: a['override-system-prompt'],
            context: a.context,
            cwd: a.cwd,
            bundle: a.bundle,
            json: a.json,
          },
        };
      },
    )
    .command(
      'inspect [bundle]',
      'list each profile’s sections with sizes and token estimates',
      (y) => y.positional('bundle', { type: 'string' }).option('json', { type: 'boolean', default: false }),
      (a) => {
        command = { name: 'inspect', options: toCommon(a, cwd), bundle: a.bundle, json: a.json };
      },
    )
    .command(
      'diff <old> <new>',
      'compare two bundles: sections added, removed, changed; static prefix hashes',
      (y) =>
        y
          .positional('old', { type: 'string', demandOption: true })
          .positional('new', { type: 'string', demandOption: true })
          .option('format', { choices: DIFF_FORMATS, default: 'text' as DiffFormat, describe: 'text (unified diffs), markdown (a pull-request comment) or json' })
          .option('json', { type: 'boolean', default: false, describe: 'the same as --format json' })
          .option('fail-on-static-change', { type: 'boolean', default: false, describe: 'exit 1 when a profile’s static prefix hash changed (a global prompt-cache bust)' }),
      (a) => {
        const format = a.json ? 'json' : (a.format as DiffFormat);
        command = { name: 'diff', options: toCommon(a, cwd), old: a.old, new: a.new, format, failOnStaticChange: a['fail-on-static-change'] };
      },
    )
    .command(
      'report [bundles..]',
      'write one self-contained HTML page of a bundle (default: the --out directory); given OLD NEW, with their diff',
      (y) =>
        y
          .positional('bundles', { type: 'string', array: true, describe: 'bundle directories or manifest.json files: [NEW] or OLD NEW' })
          .option('out-file', { type: 'string', requiresArg: true, describe: `HTML file to write (default: prompt-build-report.html; - for stdout)` }),
      (a) => {
        command = { name: 'report', options: toCommon(a, cwd), bundles: (a.bundles as string[] | undefined) ?? [], outFile: a['out-file'] };
      },
    )
    .strict()
    .recommendCommands()
    .help()
    .version('version', 'print the version', VERSION)
    .exitProcess(false)
    .fail((message, error) => {
      failure = message || error?.message || 'invalid arguments';
    });
  await parser.parseAsync([...argv], {}, (_err, _argv, text) => {
    output = text;
  });
  // Help is rendered only now: asking yargs for it before parsing swallows the command.
  if (failure !== undefined) {
    const help = await parser.getHelp();
    return { kind: 'usage-error', message: withHint(failure, argv, namesInHelp(help)), help };
  }
  if (command) return { kind: 'command', command };
  return { kind: 'output', text: output };
}

/** The commands and options the help text for the failed command line lists: what a mistyped name is compared with. */
function namesInHelp(help: string): { commands: string[]; options: string[] } {
  const commands = [...help.matchAll(/^ {2}prompt-build ([a-z]+)/gm)].map((m) => m[1]!);
  const options = [...help.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1]!);
  return { commands: [...new Set(commands)], options: [...new Set(options)] };
}

function common(y: Argv, cwd: string) {
  return y
    .option('root', { type: 'string', default: cwd, describe: 'project root holding prompts/ and agents/', global: true })
    .option('out', { type: 'string', describe: 'bundle directory (default: <root>/dist)', global: true })
    .option('reporter', { choices: REPORTERS, default: 'human' as ReporterName, describe: 'diagnostics format', global: true })
    .option('cache', { type: 'boolean', default: true, describe: 'use the persistent parse cache (--no-cache bypasses it)', global: true })
    .option('color', { type: 'boolean', describe: 'colour the output (default: on for a terminal; NO_COLOR, FORCE_COLOR)', global: true })
    .option('max-include-depth', { type: 'string', coerce: positiveInteger('max-include-depth'), describe: 'nested include levels allowed (default 5)', global: true })
    .option('max-include-bytes', { type: 'string', coerce: positiveInteger('max-include-bytes'), describe: 'largest includable file (default 1 MiB)', global: true })
    .option('force-out', { type: 'boolean', default: false, describe: 'write into a non-empty --out directory that is not a bundle (nothing in it is deleted)', global: true })
    .option('keep-comments', { type: 'boolean', default: false, describe: 'keep block-level HTML comments', global: true })
    .option('model', { type: 'string', array: true, describe: 'model ids to check cache minimums against', global: true });
}

function toCommon(a: Record<string, unknown>, cwd: string): CommonOptions {
  return {
    root: (a.root as string | undefined) ?? cwd,
    out: a.out as string | undefined,
    reporter: a.reporter as ReporterName,
    cache: a.cache as boolean,
    color: (a.color as boolean | undefined) ?? colorByDefault(process.env, process.stdout.isTTY),
    maxIncludeDepth: a['max-include-depth'] as number | undefined,
    maxIncludeBytes: a['max-include-bytes'] as number | undefined,
    keepComments: a['keep-comments'] as boolean,
    models: a.model as string[] | undefined,
    forceOut: a['force-out'] as boolean,
  };
}

/** `watch --serve`'s port when none is given. */
export const DEFAULT_PORT = 4873;

function portNumber(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n > 65535) throw new Error(`--port takes a port number from 0 to 65535, not '${String(value)}'`);
  return n;
}

/** A limit flag: a whole number above zero, given once. Anything else is a usage error, never a guard turned off by NaN. */
function positiveInteger(flag: string): (value: unknown) => number | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--${flag} takes a whole number above 0, not '${String(value)}'`);
    return n;
  };
}
