/** What every command does the same way: options → build options, diagnostics → output. */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './usage-error.js';
import type { CommonOptions } from './args.js';
import { parseCacheFacts } from '../cache-facts/cache-facts-file.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { DEFAULT_MODELS, type BuildOptions } from '../build/config.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { formatGithub, formatHuman, formatJson } from '../diagnostics/format.js';
import type { Io } from './io.js';

export function toBuildOptions(o: CommonOptions): Partial<BuildOptions> & { root: string } {
  const root = path.resolve(o.root);
  requireProject(root);
  return {
    root,
    outDir: path.resolve(root, o.out ?? 'dist'),
    ...(o.cache ? {} : { cacheDir: null }),
    ...(o.maxIncludeDepth === undefined ? {} : { maxDepth: o.maxIncludeDepth }),
    ...(o.maxIncludeBytes === undefined ? {} : { maxBytes: o.maxIncludeBytes }),
    ...(o.maxExpandedBytes === undefined ? {} : { maxExpandedBytes: o.maxExpandedBytes }),
    ...(o.keepComments ? { stripComments: false } : {}),
    ...(o.models === undefined ? {} : { models: o.models }),
    ...(o.forceOut ? { forceOut: true } : {}),
    ...(o.cacheFacts === undefined ? {} : { cacheFacts: readCacheFacts(path.resolve(o.cacheFacts)) }),
    ...(o.exactTokens ? { exactTokens: true } : {}),
  };
}

/** The models and cache facts the options give, defaults filled in; needs no project (render reads only a bundle). */
export function cacheSettings(o: CommonOptions): { models: readonly string[]; cacheFacts: readonly CacheFact[] } {
  return {
    models: o.models ?? DEFAULT_MODELS,
    cacheFacts: o.cacheFacts === undefined ? [] : readCacheFacts(path.resolve(o.cacheFacts)),
  };
}

function readCacheFacts(file: string): CacheFact[] {
  try {
    return parseCacheFacts(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`--cache-facts ${file}: ${reason}`);
  }
}

/** A root that does not exist, or holds neither `prompts/` nor `agents/`, is a wrong argument, not an empty project. */
function requireProject(root: string): void {
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--root ${root}: no such directory`);
  if (!['prompts', 'agents'].some((dir) => fs.statSync(path.join(root, dir), { throwIfNoEntry: false })?.isDirectory())) {
    throw new UsageError(`--root ${root}: nothing to build (no prompts/ or agents/ directory)`);
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
      for (const d of diagnostics) io.err(`${formatHuman(d, { color: o.color })}\n`);
      if (diagnostics.length > 0) io.err(summary(diagnostics));
  }
}

function summary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
