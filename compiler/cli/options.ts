/**
 * The option table: every command and flag of `prompt-build`, as data. Both
 * parsers read it — the quick one for ordinary command lines (args.ts) and
 * yargs for help and usage errors (yargs-parser.ts) — so they cannot drift.
 */
import { REPORTERS } from '../diagnostics/format.js';
import { BUILD_TARGETS, type BuildTarget } from '../core/options.js';

export interface OptionSpec {
  type: 'string' | 'boolean' | 'array';
  describe?: string;
  default?: string | boolean;
  choices?: readonly string[];
  /** Checks and converts a value; throws an Error whose message is the usage error. */
  coerce?: (value: unknown) => unknown;
}

export interface CommandSpec {
  describe: string;
  /** Positionals in order; `?` marks an optional one, `...` a last one taking any number. */
  positionals: readonly string[];
  options: Readonly<Record<string, OptionSpec>>;
}

/** A switch, off unless given. */
function flag(describe: string): OptionSpec {
  return { type: 'boolean', default: false, describe };
}

const RAW = 'print texts exactly as they are (by default control, bidi and invisible characters are shown as escapes such as \\e and \\r)';

/** A limit flag: a whole number above zero, given once. Anything else is a usage error, never a guard turned off by NaN. */
function positiveInteger(flag: string): (value: unknown) => number | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--${flag} takes a whole number above 0, not '${String(value)}'`);
    return n;
  };
}

/** `--targets js,python`: a comma-separated list of known runtimes, at least one. */
function targetList(value: unknown): BuildTarget[] | undefined {
  if (value === undefined) return undefined;
  const items = String(value).split(',').map((item) => item.trim()).filter((item) => item !== '');
  const unknown = items.find((item) => !(BUILD_TARGETS as readonly string[]).includes(item));
  if (items.length === 0 || unknown !== undefined) {
    throw new Error(`--targets takes a comma-separated list of ${BUILD_TARGETS.join(', ')}, not '${String(value)}'`);
  }
  return [...new Set(items as BuildTarget[])].sort();
}

/** `--port`: a port number, 0 for any free one. */
function portNumber(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n > 65535) throw new Error(`--port takes a port number from 0 to 65535, not '${String(value)}'`);
  return n;
}

/** `watch --serve`'s port when none is given. */
export const DEFAULT_PORT = 4873;

export const DIFF_FORMATS = ['text', 'markdown', 'json'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** `--no-plugins`: for the commands that run the config's remark plugins (build, check, lint). */
const PLUGINS: OptionSpec = { type: 'boolean', default: true, describe: 'run the config’s remark plugins over the sources (--no-plugins skips them)' };

/** Flags every command takes. `root`'s default is the working directory, filled in by the parser. */
export const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  root: { type: 'string', describe: 'project root holding prompts/ and agents/ (default: the working directory)' },
  config: { type: 'string', describe: 'config file (default: the first prompt-build.config.{ts,mts,js,mjs,json} at the root)' },
  out: { type: 'string', describe: 'bundle directory (default: <root>/dist)' },
  reporter: { type: 'string', choices: REPORTERS, default: 'human', describe: 'diagnostics format' },
  cache: { type: 'boolean', default: true, describe: 'use the persistent parse cache (--no-cache bypasses it)' },
  color: { type: 'boolean', describe: 'colour the output (default: on for a terminal; NO_COLOR, FORCE_COLOR)' },
  'max-include-depth': { type: 'string', coerce: positiveInteger('max-include-depth'), describe: 'nested include levels allowed (default 5)' },
  'max-include-bytes': { type: 'string', coerce: positiveInteger('max-include-bytes'), describe: 'largest includable file (default 1 MiB)' },
  'max-expanded-bytes': { type: 'string', coerce: positiveInteger('max-expanded-bytes'), describe: 'largest text with its includes expanded (default: --max-include-bytes)' },
  'force-out': flag('write into a non-empty --out directory that is not a bundle (nothing in it is deleted)'),
  'keep-comments': { type: 'boolean', describe: 'keep block-level HTML comments in files that do not say (--no-keep-comments strips them; default: the config, else strip)' },
  model: { type: 'array', describe: 'model ids to check cache minimums against' },
  'cache-facts': { type: 'string', describe: 'JSON file of cache facts (model minimums) used before the built-in ones' },
  targets: { type: 'string', coerce: targetList, describe: 'runtimes to build for, comma-separated: js, python (default: js,python)' },
  'exact-tokens': flag("count Claude models' tokens with Anthropic's count_tokens (ANTHROPIC_API_KEY; estimates when offline)"),
  verbose: flag('print every diagnostic whole: the one-line ones (a value read as quoted, an agent file skipped) with their excerpt and note'),
};

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  build: { describe: 'compile prompts/ and agents/ into the bundle (dist/)', positionals: [], options: { plugins: PLUGINS } },
  watch: {
    describe: 'rebuild on change, only what depends on the changed file',
    positionals: [],
    options: {
      serve: flag('serve the report of the working tree on 127.0.0.1, reloaded after every rebuild'),
      port: { type: 'string', coerce: portNumber, describe: `port for --serve (default ${DEFAULT_PORT}; 0 picks a free one)` },
    },
  },
  check: {
    describe: 'build in memory; fail on diagnostics or a stale dist/',
    positionals: [],
    options: {
      'allow-static-prefix-change': { type: 'array', describe: 'profiles whose static prefix hash may change (`*` for all); when given, any other change fails' },
      baseline: { type: 'string', describe: 'bundle or manifest.json the static prefix hashes are compared with (default: the --out directory)' },
      'allow-missing-dist': flag('pass when the out directory does not exist (for projects that do not commit the bundle)'),
      plugins: PLUGINS,
    },
  },
  lint: {
    describe: 'build in memory and report the diagnostics with the built-in rules’ and the plugins’ findings; writes nothing',
    positionals: [],
    options: { plugins: PLUGINS },
  },
  render: {
    describe: 'assemble a final prompt through the runtime and print it with the boundary shown',
    positionals: [],
    options: {
      profile: { type: 'string', describe: 'profile to assemble (default: default)' },
      agent: { type: 'string', describe: 'use this agent as the system prompt' },
      coordinator: flag('coordinator mode'),
      proactive: flag('proactive mode'),
      simple: flag('simple mode'),
      'custom-system-prompt': { type: 'string', describe: 'use this text in place of the default prompt (an override, coordinator or agent prompt still wins)' },
      'append-system-prompt': { type: 'string', describe: 'add this text after whichever system prompt is used (ignored with --override-system-prompt)' },
      'override-system-prompt': { type: 'string', describe: 'use exactly this text as the system prompt: it wins over everything, --append-system-prompt included' },
      context: { type: 'string', describe: 'JSON file with values for dynamic inputs' },
      'context-parts': { type: 'string', describe: "run-time context to add, comma-separated: git, instructions, date; 'none' for none (default: all three)" },
      cwd: { type: 'string', describe: 'working directory the context providers look at' },
      bundle: { type: 'string', describe: 'bundle to load (default: the --out directory)' },
      json: flag('print the texts, the provider blocks, the context parts and the cache verdict as JSON'),
      raw: flag(RAW),
      'show-stripped': flag('mark where the comment policy removed HTML comments (with --json: list them per part)'),
    },
  },
  inspect: {
    describe: 'list each profile’s sections with sizes and token estimates',
    positionals: ['bundle?'],
    options: { json: flag('print the profiles, sections and cache table as JSON') },
  },
  diff: {
    describe: 'compare two bundles: sections added, removed, changed; static prefix hashes',
    positionals: ['old', 'new'],
    options: {
      format: { type: 'string', choices: DIFF_FORMATS, default: 'text', describe: 'text (unified diffs), markdown (a pull-request comment) or json' },
      json: flag('the same as --format json'),
      raw: flag(`with --format text: ${RAW}`),
      'fail-on-static-change': flag('exit 1 when a profile’s static prefix hash changed (a global prompt-cache bust)'),
    },
  },
  lsp: {
    describe: 'run the language server on stdin and stdout, for an editor (the workspace folder is the project root)',
    positionals: [],
    options: { stdio: flag('talk over stdin and stdout (the only transport; editors pass it)') },
  },
  usage: {
    describe: 'read usage logs (jsonlUsageSink’s JSONL, or an OpenTelemetry JSON export of its spans): per profile, static prefix and model, the hit rate, tokens, cost, misses by likely cause and the TTL advisor',
    positionals: ['logs...'],
    options: {
      format: { type: 'string', choices: DIFF_FORMATS, default: 'text', describe: 'text, markdown (a pull-request comment or a weekly note) or json' },
      json: flag('the same as --format json'),
      bundle: { type: 'array', describe: 'bundles (directories or manifest.json) whose prefixes the logs name: their sizes against each model’s minimum, the sections behind a change (default: the --out directory, when it holds a bundle)' },
    },
  },
  report: {
    describe: 'write one self-contained HTML page of a bundle (default: the --out directory); given OLD NEW, with their diff',
    positionals: ['bundles...'],
    options: {
      'out-file': { type: 'string', describe: 'HTML file to write (default: prompt-build-report.html; - for stdout)' },
      usage: { type: 'array', describe: 'usage logs (JSONL or an OpenTelemetry JSON export): adds a usage view, what `prompt-build usage` reports of them, against the bundles’ prefixes' },
    },
  },
};

/** The command a bare `prompt-build` runs. */
export const DEFAULT_COMMAND = 'build';
