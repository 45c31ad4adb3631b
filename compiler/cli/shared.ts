/** What every command does the same way: options → build options, diagnostics → output. */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './usage-error.js';
import type { CommonOptions } from './args.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { DEFAULT_MODELS, type BuildOptions } from '../core/options.js';
import { DEFAULT_SOURCE_DIRS, sourceDirList, type SourceDirs } from '../core/source-dirs.js';
import { findConfigFile } from '../config/find-config.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { formatGithub, formatHuman, formatJson, printsBrief } from '../diagnostics/format.js';
import { FileRefused, readRegularFileSync } from '../runtime/read-regular-file.js';
import type { Io } from './io.js';

/** The config file had errors: its diagnostics, printed like a build's, exit 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics[0]?.message ?? 'config error');
  }
}

/**
 * The build options a command runs with: defaults, then the config file,
 * then the flags (flag > file > default). Every config diagnostic is an
 * error (there are no config warnings): they throw `ConfigError`.
 */
export async function toBuildOptions(o: CommonOptions, { plugins = false }: { plugins?: boolean } = {}): Promise<Partial<BuildOptions> & { root: string }> {
  const root = path.resolve(o.root);
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root ${root}: no such directory`);
  const fromConfig = await configOptions(root, o, plugins);
  requireProject(root, fromConfig.sourceDirs ?? DEFAULT_SOURCE_DIRS);
  return { outDir: path.join(root, 'dist'), ...fromConfig, root, ...(await flagOptions(root, o)) };
}

/** `plugins`: load the config's plugins (build, check and lint run them unless `--no-plugins`). */
async function configOptions(root: string, o: CommonOptions, plugins = false): Promise<Partial<BuildOptions>> {
  // A project without a config file (most) loads none of the config code.
  if (o.config === undefined && findConfigFile(root) === null) return {};
  const { readProjectConfig } = await import('../config/project-config.js');
  const { options, diagnostics } = await readProjectConfig(root, { ...(o.config === undefined ? {} : { explicit: o.config }), plugins });
  if (diagnostics.length > 0) throw new ConfigError(diagnostics);
  return options;
}

async function flagOptions(root: string, o: CommonOptions): Promise<Partial<BuildOptions>> {
  return {
    ...(o.out === undefined ? {} : { outDir: path.resolve(root, o.out) }),
    ...(o.cache ? {} : { cacheDir: null }),
    ...(o.maxIncludeDepth === undefined ? {} : { maxDepth: o.maxIncludeDepth }),
    ...(o.maxIncludeBytes === undefined ? {} : { maxBytes: o.maxIncludeBytes }),
    ...(o.maxExpandedBytes === undefined ? {} : { maxExpandedBytes: o.maxExpandedBytes }),
    ...(o.keepComments === undefined ? {} : { stripComments: !o.keepComments }),
    ...(o.models === undefined ? {} : { models: o.models }),
    ...(o.forceOut ? { forceOut: true } : {}),
    ...(o.cacheFacts === undefined ? {} : { cacheFacts: await readCacheFacts(path.resolve(o.cacheFacts)) }),
    ...(o.targets === undefined ? {} : { targets: o.targets }),
    ...(o.exactTokens ? { exactTokens: true } : {}),
  };
}

/**
 * The models and cache facts the options give, defaults filled in. Render
 * reads only a bundle: it needs no project, but reads the root's config when
 * there is one.
 */
/**
 * What the commands that read a bundle take from the config, as `build` reads
 * it (flags first): the models and cache facts to judge a prefix by, and the
 * out directory the bundle is in.
 */
export async function cacheSettings(o: CommonOptions): Promise<{ models: readonly string[]; cacheFacts: readonly CacheFact[]; outDir: string }> {
  const root = path.resolve(o.root);
  const fromConfig = fs.statSync(root, { throwIfNoEntry: false })?.isDirectory() ? await configOptions(root, o) : {};
  const flags = await flagOptions(root, o);
  return {
    models: flags.models ?? fromConfig.models ?? DEFAULT_MODELS,
    cacheFacts: flags.cacheFacts ?? fromConfig.cacheFacts ?? [],
    outDir: flags.outDir ?? fromConfig.outDir ?? path.join(root, 'dist'),
  };
}

/** The cache-fact code is loaded only for `--cache-facts`: every build goes through here. Read as a regular file only: a FIFO would block. */
async function readCacheFacts(file: string): Promise<CacheFact[]> {
  const { parseCacheFacts } = await import('../cache-facts/cache-facts-file.js');
  try {
    return parseCacheFacts(readArgumentFile(file), file);
  } catch (error) {
    const reason = error instanceof FileRefused && error.kind === 'missing' ? 'no such file' : (error as Error).message;
    throw new UsageError(`--cache-facts ${file}: ${reason}`);
  }
}

/** What a file named by an option may be at most: far above any context or cache-fact file. */
const MAX_ARGUMENT_FILE_BYTES = 64 * 1024 * 1024;

/** A file named by an option (`--cache-facts`, `--context`), as text: a link is followed, but only to a regular file (`FileRefused` otherwise). */
export function readArgumentFile(file: string): string {
  return readRegularFileSync(file, MAX_ARGUMENT_FILE_BYTES).toString('utf8');
}

/** A root that holds neither source folder is a wrong argument, not an empty project. */
function requireProject(root: string, dirs: SourceDirs): void {
  if (!sourceDirList(dirs).some((dir) => fs.statSync(path.join(root, dir), { throwIfNoEntry: false })?.isDirectory())) {
    throw new UsageError(`--root ${root}: nothing to build (no ${dirs.prompts}/ or ${dirs.agents}/ directory)`);
  }
}

/** Prints diagnostics in the chosen format; json carries `extra` fields in the same object. */
export function report(io: Io, o: CommonOptions, ok: boolean, diagnostics: readonly Diagnostic[], extra: Record<string, unknown> = {}): void {
  switch (o.reporter) {
    case 'json':
      io.out(formatJson(ok, diagnostics, extra));
      return;
    case 'github':
      for (const d of diagnostics) io.out(formatGithub(d));
      return;
    case 'human':
      // A blank line after each diagnostic printed whole; the one-line ones stand together.
      for (const d of diagnostics) io.err(printsBrief(d, o) ? formatHuman(d, o) : `${formatHuman(d, o)}\n`);
      if (diagnostics.length > 0) io.err(summary(diagnostics));
  }
}

function summary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
