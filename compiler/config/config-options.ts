/**
 * A loaded config as build options. Flags are laid over the result by the
 * caller (flag > file > default), so this knows nothing of the command line.
 */
import path from 'node:path';
import type { BuildOptions } from '../core/options.js';
import { parseCacheFacts } from '../cache-facts/cache-facts-file.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { keyPosition, type LoadedConfig } from './load-config.js';
import { readConfigNamedFile } from './read-config-file.js';
import type { ProjectConfig } from './define-config.js';
import { CLAUDE_CODE_DIR_KEYS, DEFAULT_SOURCE_DIRS, normaliseSourceDir, sourceDirsProblem, type SourceDirs } from '../core/source-dirs.js';
import { isInside, realish } from '../core/paths.js';

export function configBuildOptions(root: string, loaded: LoadedConfig): { options: Partial<BuildOptions>; diagnostics: Diagnostic[] } {
  const { config, file } = loaded;
  const diagnostics: Diagnostic[] = [];
  const options: Partial<BuildOptions> = {};
  if (config.out !== undefined) {
    const outDir = path.resolve(root, config.out);
    const problem = outsideRoot(root, outDir);
    if (problem === null) options.outDir = outDir;
    else if (file !== null) {
      const note = 'a folder a checked-in config names must be in the project; give --out on the command line for one elsewhere';
      diagnostics.push(diagnostic('config/invalid-value', relative(root, file), keyPosition(loaded.text, ['out']), `out: ${JSON.stringify(config.out)} ${problem}`, { note }));
    }
  }
  if (config.sources !== undefined) {
    const dirs = sourceDirs(config.sources);
    const problem = sourceDirsProblem(dirs);
    if (problem === null) options.sourceDirs = dirs;
    else if (file !== null) diagnostics.push(diagnostic('config/invalid-value', relative(root, file), keyPosition(loaded.text, ['sources']), `sources: ${problem}`));
  }
  if (config.models !== undefined) options.models = config.models;
  if (config.include?.maxDepth !== undefined) options.maxDepth = config.include.maxDepth;
  if (config.include?.maxBytes !== undefined) options.maxBytes = config.include.maxBytes;
  if (config.include?.maxExpandedBytes !== undefined) options.maxExpandedBytes = config.include.maxExpandedBytes;
  if (config.include?.extensions !== undefined) options.extensions = config.include.extensions.map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase());
  if (config.comments !== undefined) options.stripComments = config.comments === 'strip';
  if (config.agents?.ignore !== undefined) options.agentIgnore = config.agents.ignore;
  if (config.agents?.tools !== undefined) options.knownTools = config.agents.tools;
  if (config.rules !== undefined) options.ruleLevels = config.rules;
  if (config.constants !== undefined) options.constants = config.constants;
  if (config.targets !== undefined) options.targets = [...new Set(['js' as const, ...config.targets])];
  if (config.cacheFacts !== undefined && file !== null) {
    const facts = readFacts(root, config.cacheFacts);
    if (facts.ok) options.cacheFacts = facts.facts;
    else diagnostics.push(diagnostic('config/invalid-value', relative(root, file), keyPosition(loaded.text, ['cacheFacts']), `cacheFacts: ${facts.message}`));
  }
  return { options, diagnostics };
}

/** Validated already (validate-config.ts): each given folder normalises. */
function sourceDirs(given: NonNullable<ProjectConfig['sources']>): SourceDirs {
  const dir = (value: string | undefined, fallback: string): string => {
    const normal = value === undefined ? null : normaliseSourceDir(value);
    return normal?.ok ? normal.dir : fallback;
  };
  const dirs: SourceDirs = { prompts: dir(given.prompts, DEFAULT_SOURCE_DIRS.prompts), agents: dir(given.agents, DEFAULT_SOURCE_DIRS.agents) };
  for (const key of CLAUDE_CODE_DIR_KEYS) {
    const normal = given[key] === undefined ? null : normaliseSourceDir(given[key]);
    if (normal?.ok) dirs[key] = normal.dir;
  }
  return dirs;
}

/** The facts the config gives, or names: a file the project's config names is the project's, so it must be in the root. */
function readFacts(root: string, value: string | readonly unknown[]): { ok: true; facts: CacheFact[] } | { ok: false; message: string } {
  try {
    if (typeof value !== 'string') return { ok: true, facts: parseCacheFacts(JSON.stringify(value), 'config') };
    const file = path.resolve(root, value);
    const read = readConfigNamedFile(file, root, value);
    if (!read.ok) return { ok: false, message: read.message };
    return { ok: true, facts: parseCacheFacts(read.text, file) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * Why a folder the config names is not the project's, or null: outside the
 * root as written, or through a symlink on its way (the deepest part that
 * exists is resolved: the folder itself may not exist yet).
 */
function outsideRoot(root: string, dir: string): string | null {
  if (!isInside(root, dir)) return 'is outside the project root';
  return isInside(realish(root), realish(dir)) ? null : 'leads outside the project root through a symlink';
}

function relative(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}
