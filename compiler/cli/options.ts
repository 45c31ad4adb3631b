/**
 * The option table: every command and flag of `prompt-build`, as data. Both
 * parsers read it — the quick one for ordinary command lines (args.ts) and
 * yargs for help and usage errors (yargs-parser.ts) — so they cannot drift.
 */
import { REPORTERS } from '../diagnostics/format.js';

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
  /** Positionals in order; `?` marks an optional one. */
  positionals: readonly string[];
  options: Readonly<Record<string, OptionSpec>>;
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

/** Flags every command takes. `root`'s default is the working directory, filled in by the parser. */
export const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  root: { type: 'string', describe: 'project root holding prompts/ and agents/ (default: the working directory)' },
  out: { type: 'string', describe: 'bundle directory (default: <root>/dist)' },
  reporter: { type: 'string', choices: REPORTERS, default: 'human', describe: 'diagnostics format' },
  cache: { type: 'boolean', default: true, describe: 'use the persistent parse cache (--no-cache bypasses it)' },
  color: { type: 'boolean', describe: 'colour the output (default: when stderr is a terminal)' },
  'max-include-depth': { type: 'string', coerce: positiveInteger('max-include-depth'), describe: 'nested include levels allowed (default 5)' },
  'max-include-bytes': { type: 'string', coerce: positiveInteger('max-include-bytes'), describe: 'largest includable file (default 1 MiB)' },
  'max-expanded-bytes': { type: 'string', coerce: positiveInteger('max-expanded-bytes'), describe: 'largest text with its includes expanded (default: --max-include-bytes)' },
  'force-out': { type: 'boolean', default: false, describe: 'write into a non-empty --out directory that is not a bundle (nothing in it is deleted)' },
  'keep-comments': { type: 'boolean', default: false, describe: 'keep block-level HTML comments' },
  model: { type: 'array', describe: 'model ids to check cache minimums against' },
  'cache-facts': { type: 'string', describe: 'JSON file of cache facts (model minimums) used before the built-in ones' },
};

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  build: { describe: 'compile prompts/ and agents/ into the bundle (dist/)', positionals: [], options: {} },
  watch: { describe: 'rebuild on change, only what depends on the changed file', positionals: [], options: {} },
  check: {
    describe: 'build in memory; fail on diagnostics or a stale dist/',
    positionals: [],
    options: {
      'allow-static-prefix-change': { type: 'array', describe: 'profiles whose static prefix hash may change (`*` for all); when given, any other change fails' },
      baseline: { type: 'string', describe: 'bundle or manifest.json the static prefix hashes are compared with (default: the --out directory)' },
      'allow-missing-dist': { type: 'boolean', default: false, describe: 'pass when the out directory does not exist (for projects that do not commit the bundle)' },
    },
  },
  render: {
    describe: 'assemble a final prompt through the runtime and print it with the boundary shown',
    positionals: [],
    options: {
      profile: { type: 'string', describe: 'profile to assemble (default: default)' },
      agent: { type: 'string', describe: 'use this agent as the system prompt' },
      coordinator: { type: 'boolean', default: false, describe: 'coordinator mode' },
      proactive: { type: 'boolean', default: false, describe: 'proactive mode' },
      simple: { type: 'boolean', default: false, describe: 'simple mode' },
      'custom-system-prompt': { type: 'string' },
      'append-system-prompt': { type: 'string' },
      'override-system-prompt': { type: 'string' },
      context: { type: 'string', describe: 'JSON file with values for dynamic inputs' },
      cwd: { type: 'string', describe: 'working directory the context providers look at' },
      bundle: { type: 'string', describe: 'bundle to load (default: the --out directory)' },
      json: { type: 'boolean', default: false },
    },
  },
  inspect: {
    describe: 'list each profile’s sections with sizes and token estimates',
    positionals: ['bundle?'],
    options: { json: { type: 'boolean', default: false } },
  },
  diff: {
    describe: 'compare two bundles: sections added, removed, changed; static prefix hashes',
    positionals: ['old', 'new'],
    options: { json: { type: 'boolean', default: false } },
  },
};

/** The command a bare `prompt-build` runs. */
export const DEFAULT_COMMAND = 'build';
