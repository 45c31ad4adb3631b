/**
 * The parser: argv in, a typed command out. Pure — it runs nothing, prints
 * nothing, so it is tested without spawning a process. An ordinary command
 * line is read by `node:util`'s parser straight from the option table
 * (options.ts); help, and anything the quick reading cannot take as it is,
 * go to yargs, loaded only then: importing yargs costs more than a build
 * that finds nothing changed.
 */
import { parseArgs as parseWithNode } from 'node:util';
import type { ReporterName } from '../diagnostics/format.js';
import { colorByDefault } from './color.js';
import { COMMANDS, COMMON_OPTIONS, DEFAULT_COMMAND, DEFAULT_PORT, type DiffFormat, type OptionSpec } from './options.js';
import type { BuildTarget } from '../core/options.js';

export { DEFAULT_PORT, DIFF_FORMATS, type DiffFormat } from './options.js';

export interface CommonOptions {
  root: string;
  /** Config file named with `--config`; undefined: look for one at the root. */
  config: string | undefined;
  out: string | undefined;
  reporter: ReporterName;
  cache: boolean;
  color: boolean;
  maxIncludeDepth: number | undefined;
  maxIncludeBytes: number | undefined;
  maxExpandedBytes: number | undefined;
  /** Undefined when not given: the config decides. */
  keepComments: boolean | undefined;
  models: string[] | undefined;
  forceOut: boolean;
  /** JSON file of cache facts searched before the built-in ones. */
  cacheFacts: string | undefined;
  targets: BuildTarget[] | undefined;
  /** Count Claude tokens with Anthropic's count_tokens endpoint. */
  exactTokens: boolean;
  /** Print one-line diagnostics whole (excerpt and note). */
  verbose: boolean;
}

/** `check`'s flags as parsed; `checkBundle` takes them as a `CheckPolicy` (a baseline read, not a path). */
export interface CheckFlags {
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
  /** `--context-parts`: which run-time context to add, as written (checked by the command). */
  contextParts: string | undefined;
  cwd: string | undefined;
  bundle: string | undefined;
  json: boolean;
  /** Print the texts exactly; by default what a terminal would act on is shown escaped. */
  raw: boolean;
  /** Mark where comments were removed from each part. */
  showStripped: boolean;
}

export type Command =
  | { name: 'build'; options: CommonOptions; plugins: boolean }
  | { name: 'watch'; options: CommonOptions; serve: { port: number } | null }
  | { name: 'check'; options: CommonOptions; policy: CheckFlags; plugins: boolean }
  | { name: 'lint'; options: CommonOptions; plugins: boolean }
  | { name: 'render'; options: CommonOptions; render: RenderOptions }
  | { name: 'inspect'; options: CommonOptions; bundle: string | undefined; json: boolean }
  | { name: 'diff'; options: CommonOptions; old: string; new: string; format: DiffFormat; failOnStaticChange: boolean; raw: boolean }
  | { name: 'report'; options: CommonOptions; bundles: string[]; outFile: string | undefined; usageLogs: string[] | undefined }
  | { name: 'usage'; options: CommonOptions; logs: string[]; format: DiffFormat; bundles: string[] | undefined }
  | { name: 'lsp'; options: CommonOptions };

export type ParseOutcome =
  | { kind: 'command'; command: Command }
  | { kind: 'usage-error'; message: string; help: string }
  | { kind: 'output'; text: string };

export async function parseArgs(argv: readonly string[], cwd = process.cwd()): Promise<ParseOutcome> {
  const quick = quickParse(argv);
  if (quick !== null) {
    try {
      return { kind: 'command', command: toCommand(quick.name, quick.values, quick.positionals, cwd) };
    } catch {
      // a value its option refuses: yargs words the usage error, with the help
    }
  }
  const { parseWithYargs } = await import('./yargs-parser.js');
  return parseWithYargs(argv, cwd);
}

/** Option values by flag name (as in the table), positionals after the command name. */
export type ParsedValues = Record<string, unknown>;

/**
 * The typed command from parsed values: defaults filled in, every value
 * checked by its option's `coerce` (which throws on a bad one).
 */
export function toCommand(name: string, raw: ParsedValues, positionals: readonly string[], cwd: string): Command {
  const spec = COMMANDS[name]!;
  const values: ParsedValues = {};
  for (const [flag, option] of Object.entries({ ...COMMON_OPTIONS, ...spec.options })) {
    const value = raw[flag] ?? option.default;
    values[flag] = option.coerce ? option.coerce(value) : value;
  }
  const options: CommonOptions = {
    root: (values.root as string | undefined) ?? cwd,
    config: values.config as string | undefined,
    out: values.out as string | undefined,
    reporter: values.reporter as ReporterName,
    cache: values.cache as boolean,
    color: (values.color as boolean | undefined) ?? colorByDefault(process.env, process.stdout.isTTY),
    maxIncludeDepth: values['max-include-depth'] as number | undefined,
    maxIncludeBytes: values['max-include-bytes'] as number | undefined,
    maxExpandedBytes: values['max-expanded-bytes'] as number | undefined,
    keepComments: values['keep-comments'] as boolean | undefined,
    models: values.model as string[] | undefined,
    forceOut: values['force-out'] as boolean,
    cacheFacts: values['cache-facts'] as string | undefined,
    targets: values.targets as BuildTarget[] | undefined,
    exactTokens: values['exact-tokens'] as boolean,
    verbose: values.verbose as boolean,
  };
  const str = (flag: string) => values[flag] as string | undefined;
  const bool = (flag: string) => values[flag] as boolean;
  switch (name) {
    case 'build':
    case 'lint':
      return { name, options, plugins: bool('plugins') };
    case 'watch':
      return { name, options, serve: bool('serve') ? { port: (values.port as number | undefined) ?? DEFAULT_PORT } : null };
    case 'check':
      return {
        name,
        options,
        policy: {
          allowStaticPrefixChange: values['allow-static-prefix-change'] as string[] | undefined,
          baseline: str('baseline'),
          allowMissingDist: bool('allow-missing-dist'),
        },
        plugins: bool('plugins'),
      };
    case 'render':
      return {
        name,
        options,
        render: {
          profile: str('profile'),
          agent: str('agent'),
          coordinator: bool('coordinator'),
          proactive: bool('proactive'),
          simple: bool('simple'),
          customSystemPrompt: str('custom-system-prompt'),
          appendSystemPrompt: str('append-system-prompt'),
          overrideSystemPrompt: str('override-system-prompt'),
          context: str('context'),
          contextParts: str('context-parts'),
          cwd: str('cwd'),
          bundle: str('bundle'),
          json: bool('json'),
          raw: bool('raw'),
          showStripped: bool('show-stripped'),
        },
      };
    case 'inspect':
      return { name, options, bundle: positionals[0], json: bool('json') };
    case 'diff':
      return { name, options, old: positionals[0]!, new: positionals[1]!, format: bool('json') ? 'json' : (str('format') as DiffFormat), failOnStaticChange: bool('fail-on-static-change'), raw: bool('raw') };
    case 'report':
      return { name, options, bundles: [...positionals], outFile: str('out-file'), usageLogs: values.usage as string[] | undefined };
    case 'usage':
      return { name, options, logs: [...positionals], format: bool('json') ? 'json' : (str('format') as DiffFormat), bundles: values.bundle as string[] | undefined };
    case 'lsp':
      return { name, options };
    default:
      throw new Error(`no command '${name}'`);
  }
}

/**
 * The command line read by `node:util`, or null when it is not an ordinary
 * one: help asked for, an unknown command or flag, a list-valued flag (yargs
 * reads `--model a b` as two values), a positional too many or too few.
 */
function quickParse(argv: readonly string[]): { name: string; values: ParsedValues; positionals: string[] } | null {
  if (argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version')) return null;
  const first = argv[0];
  const named = first !== undefined && !first.startsWith('-') && Object.hasOwn(COMMANDS, first);
  const name = named ? first : DEFAULT_COMMAND;
  const table: Record<string, OptionSpec> = { ...COMMON_OPTIONS, ...COMMANDS[name]!.options };
  const negated: ParsedValues = {};
  const args: string[] = [];
  for (const arg of named ? argv.slice(1) : argv) {
    const flag = arg.startsWith('--no-') ? arg.slice(5) : null;
    if (flag !== null && table[flag]?.type === 'boolean') negated[flag] = false;
    else args.push(arg);
  }
  const lists = Object.entries(table).filter(([, o]) => o.type === 'array').map(([flag]) => `--${flag}`);
  if (args.some((a) => lists.some((list) => a === list || a.startsWith(`${list}=`)))) return null;
  let parsed: ReturnType<typeof parseWithNode>;
  try {
    parsed = parseWithNode({
      args,
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(Object.entries(table).filter(([, o]) => o.type !== 'array').map(([flag, o]) => [flag, { type: o.type as 'string' | 'boolean' }])),
    });
  } catch {
    return null;
  }
  const wanted = COMMANDS[name]!.positionals;
  const required = wanted.filter((p) => !p.endsWith('?') && !p.endsWith('...')).length;
  const most = wanted.at(-1)?.endsWith('...') ? Infinity : wanted.length;
  if (parsed.positionals.length < required || parsed.positionals.length > most) return null;
  const values: ParsedValues = { ...parsed.values, ...negated };
  for (const [flag, o] of Object.entries(table)) if (o.choices && values[flag] !== undefined && !o.choices.includes(values[flag] as string)) return null;
  return { name, values, positionals: parsed.positionals };
}
