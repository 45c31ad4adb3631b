/**
 * Build options with their defaults. Every limit the include guards apply is
 * here, so tests and users can tighten or loosen them in one place.
 */
import os from 'node:os';
import path from 'node:path';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { dayNumber, TODAY_ENV } from '../cache-facts/facts-age.js';
import type { RuleLevel } from '../diagnostics/rule-levels.js';
import { DEFAULT_SOURCE_DIRS, sourceDirsProblem, type SourceDirs } from './source-dirs.js';

export interface IncludeLimits {
  /** Lower-case extensions (with the dot) that may be included. */
  extensions: readonly string[];
  /** Nested include levels allowed below a source (docs/authoring.md#cycles-and-depth). */
  maxDepth: number;
  /** Largest file, in bytes, that may be read as a source or include. */
  maxBytes: number;
  /**
   * Largest text, in UTF-8 bytes, that one section or agent may expand to
   * with its includes (docs/authoring.md#expanded-size): includes fan out exponentially. Default:
   * `maxBytes`.
   */
  maxExpandedBytes?: number;
  /** Remove block-level HTML comments from compiled text (docs/authoring.md#comments). */
  stripComments: boolean;
}

/** A runtime a bundle is built for: `js` (always there: the manifest's thunks) and `python` (a `.py` module per dynamic section). */
/** What to do with block-level HTML comments (`<!-- … -->`). */
export type CommentPolicy = 'keep' | 'strip';

export type BuildTarget = 'js' | 'python';
export const BUILD_TARGETS: readonly BuildTarget[] = ['js', 'python'];

export interface BuildOptions extends IncludeLimits {
  /** Project root (absolute). */
  root: string;
  /** Where below the root the sources are (default `prompts/` and `agents/`). */
  sourceDirs: SourceDirs;
  /** Bundle directory (absolute). */
  outDir: string;
  /** Home directory, for `@~/` includes (refused in compile mode unless inside the root). */
  homeDir: string;
  /** Persistent per-file cache directory, or null to bypass it. */
  cacheDir: string | null;
  /** Model ids whose minimum cacheable prefix every profile's static prefix is checked against. */
  models: readonly string[];
  /** Cache facts to use before the built-in ones (`CACHE_FACTS`): added models, corrected figures. */
  cacheFacts: readonly CacheFact[];
  /**
   * Parse files in worker threads when there are at least this many to parse. A parse thread loads its modules
   * anew, and every parse it makes is copied back; on two cores it also shares the second with the counting thread
   * and the artifact writer. By default, then, threads parse only where there are more than two cores, from 2,000
   * files: on this project's 2-core machine a cold 10,000-file build took 1.8–1.9 s more processor time with a parse
   * thread than without, and was slower (10.2 s against 8.9 s, and 8.5 s against 7.9 s, medians of four and three);
   * at 1,000 files it was 0.18 s slower.
   */
  parallelThreshold: number;
  /** Write into a non-empty `outDir` that is not a bundle; nothing already there is deleted either way. */
  forceOut: boolean;
  /** How long a write waits for another build holding the out directory's lock, in ms. */
  lockTimeoutMs: number;
  /** Globs (picomatch, relative to the agents folder) of files there that are not agents. */
  agentIgnore: readonly string[];
  /** The tools agents may name, or null to keep `tools:` as written. */
  knownTools: readonly string[] | null;
  /** Severity per rule id, over each rule's own. */
  ruleLevels: Readonly<Record<string, RuleLevel>>;
  /** Build-time constants for `{{const.NAME}}`. */
  constants: Readonly<Record<string, string>>;
  /** Runtimes to emit for (default both); with `python`, a template it cannot express is a build error. */
  targets: readonly BuildTarget[];
  /** Count Claude models' texts with Anthropic's count_tokens (`ANTHROPIC_API_KEY`), estimating what it cannot count. */
  exactTokens: boolean;
  /** remark plugins run over each source's tree by `lint`, `check` and `build` (docs/lint.md#plugins); none by default, and then no tree is built. */
  plugins: readonly PromptPlugin[];
  /**
   * The day (YYYY-MM-DD) the cache facts' age is judged on; default `PROMPT_BUILD_TODAY`, else the real date
   * at build time. Never written to the bundle: only the facts' own date is.
   */
  today?: string;
}

/**
 * A remark plugin as the build runs it: a unified attacher with its options,
 * named for the diagnostics it gives (its rule ids when its messages name no
 * source; the plugin that threw). The config's entries become these
 * (config/load-plugins.ts).
 */
export interface PromptPlugin {
  name: string;
  // A unified attacher: `this` is the processor, its arguments the options.
  attacher: (this: never, ...options: never[]) => unknown;
  /** Absent: the attacher is called with none. */
  options?: unknown;
  /** Where the config names it, for a diagnostic about the plugin itself. */
  declaredAt?: { file: string; line: number; column: number; excerpt?: string };
}

export const DEFAULT_LIMITS: IncludeLimits = {
  extensions: ['.md', '.markdown', '.mdx', '.txt', '.text'],
  maxDepth: 5,
  maxBytes: 1024 * 1024,
  stripComments: true,
};

/** A build option out of its range (a limit that is not a whole number above zero…): the caller's mistake. */
export class OptionError extends Error {
  override name = 'OptionError';
}

/** The models checked when none are given: any Claude Sonnet. */
export const DEFAULT_MODELS: readonly string[] = ['claude-sonnet'];

export function resolveBuildOptions(partial: Partial<BuildOptions> & { root: string }): BuildOptions {
  const root = path.resolve(partial.root);
  const options: BuildOptions = {
    ...DEFAULT_LIMITS,
    outDir: path.join(root, 'dist'),
    sourceDirs: DEFAULT_SOURCE_DIRS,
    homeDir: os.homedir(),
    cacheDir: path.join(root, 'node_modules', '.cache', 'prompt-build'),
    models: DEFAULT_MODELS,
    cacheFacts: [],
    parallelThreshold: os.availableParallelism() > 2 ? 2000 : Number.POSITIVE_INFINITY,
    forceOut: false,
    lockTimeoutMs: 30_000,
    agentIgnore: [],
    knownTools: null,
    ruleLevels: {},
    constants: {},
    targets: BUILD_TARGETS,
    exactTokens: false,
    plugins: [],
    ...definedOnly({ today: process.env[TODAY_ENV] || undefined }),
    ...definedOnly(partial),
    root,
  };
  // A NaN or negative limit would turn its guard off without a word.
  for (const key of ['maxDepth', 'maxBytes'] as const) {
    if (!Number.isSafeInteger(options[key]) || options[key] <= 0) throw new OptionError(`${key} must be a whole number above 0, not ${String(options[key])}`);
  }
  const expanded = options.maxExpandedBytes;
  if (expanded !== undefined && (!Number.isSafeInteger(expanded) || expanded <= 0)) throw new OptionError(`maxExpandedBytes must be a whole number above 0, not ${String(expanded)}`);
  const unknownTarget = options.targets.find((target) => !BUILD_TARGETS.includes(target));
  if (unknownTarget !== undefined) throw new OptionError(`targets: unknown target '${String(unknownTarget)}' (known: ${BUILD_TARGETS.join(', ')})`);
  const dirsProblem = sourceDirsProblem(options.sourceDirs);
  if (dirsProblem !== null) throw new OptionError(`sources: ${dirsProblem}`);
  // Only the age check reads it, but a date that is no date would make that check silently pass.
  if (options.today !== undefined && (typeof options.today !== 'string' || dayNumber(options.today) === null)) {
    throw new OptionError(`today must be a date as YYYY-MM-DD (the today option or ${TODAY_ENV}), not ${JSON.stringify(options.today)}`);
  }
  if (!(options.lockTimeoutMs >= 0)) throw new OptionError(`lockTimeoutMs must be 0 or more, not ${String(options.lockTimeoutMs)}`);
  return options;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
