/**
 * Instruction-file discovery (docs/context.md#where-they-are-found): where to look, in priority order (a
 * pure plan), then reading each place through the include resolver in context
 * mode (docs/context.md#includes-in-instruction-files) with one `seen` set, so a file reached twice — through a
 * symlink, an include, or the home directory being an ancestor of the working
 * directory — appears once, at its first (farthest) place.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { IncludeLimits } from '../core/options.js';
import { diagnostic, type Diagnostic, type RuleId } from '../diagnostics/diagnostics.js';
import type { CollectedFile, InstructionCollection } from '../include/include.js';
import { matchesFilesInPlay, readRuleScope } from './rules.js';

export type InstructionKind = 'managed' | 'user' | 'project' | 'local' | 'rules' | 'added' | 'include';

/** A discovered file: where it is, why it is there, and its body (frontmatter and maintainer comments removed). */
export type InstructionFile =
  | { path: string; kind: Exclude<InstructionKind, 'include'>; content: string }
  | { path: string; kind: 'include'; content: string; includedBy: string };

/**
 * The names discovery looks for, relative to each directory (and, for `user`,
 * to the home directory). Null turns a place off, e.g. for AGENTS.md projects
 * that have no dot-folder.
 */
export interface InstructionFileNames {
  instructions: string | null;
  dotInstructions: string | null;
  rulesDir: string | null;
  local: string | null;
  user: string | null;
}

export const DEFAULT_FILE_NAMES: InstructionFileNames = {
  instructions: 'CLAUDE.md',
  dotInstructions: '.claude/CLAUDE.md',
  rulesDir: '.claude/rules',
  local: 'CLAUDE.local.md',
  user: '.claude/CLAUDE.md',
};

/**
 * One place to look. A rules folder's globs are relative to `projectDir`, the
 * directory holding it. `scope` is the folder a file's symlinks may not lead
 * out of: its project directory, the home directory for the user's file.
 */
export type Location = { type: 'file'; path: string; kind: FileKind; scope: string } | { type: 'rules'; dir: string; projectDir: string };

type FileKind = Exclude<InstructionKind, 'include' | 'rules'>;

export interface DiscoveryPlanInput {
  /** Absolute. */
  cwd: string;
  homeDir: string;
  managedPath: string | null;
  /** Absolute. */
  additionalDirectories: readonly string[];
  /** Skip auto-discovery; added directories are still read. */
  bare: boolean;
  names: InstructionFileNames;
}

/**
 * Far to near (later wins): managed policy file, the user's file, each
 * directory from the filesystem root down to `cwd` (instruction file, the same
 * under the dot-folder, rules folder), the local files of those directories
 * (placed after every project file, so a private file overrides what is
 * checked in), then the added directories.
 */
export function planDiscovery(input: DiscoveryPlanInput): Location[] {
  const { names } = input;
  const file = (dir: string, name: string | null, kind: FileKind): Location[] => {
    if (name === null) return [];
    const at = path.resolve(dir, name);
    // The managed file's folder is the one that holds it (an absolute path may ignore `dir`).
    return [{ type: 'file', path: at, kind, scope: kind === 'managed' ? path.dirname(at) : dir }];
  };
  const rules = (dir: string): Location[] =>
    names.rulesDir === null ? [] : [{ type: 'rules', dir: path.join(dir, names.rulesDir), projectDir: dir }];
  const directory = (dir: string, kind: 'project' | 'added'): Location[] => [
    ...file(dir, names.instructions, kind),
    ...file(dir, names.dotInstructions, kind),
    ...rules(dir),
  ];
  const added = input.additionalDirectories.flatMap((dir) => directory(dir, 'added'));
  if (input.bare) return added;
  const ancestors = ancestorsFromRoot(input.cwd);
  return [
    ...file(input.cwd, input.managedPath, 'managed'),
    ...file(input.homeDir, names.user, 'user'),
    ...ancestors.flatMap((dir) => directory(dir, 'project')),
    ...ancestors.flatMap((dir) => file(dir, names.local, 'local')),
    ...added,
  ];
}

export interface DiscoveryOptions {
  homeDir: string;
  limits: IncludeLimits;
  /** Absolute, or relative to `cwd`. */
  filesInPlay: readonly string[];
  cwd: string;
}

export interface Discovery {
  files: InstructionFile[];
  /** Refused includes, unreadable rules folders, malformed `paths:`: skipped, never silently. */
  warnings: Diagnostic[];
}

/**
 * Which place claims a file depends on order (far to near, one `seen` set), so
 * the result must be that of reading the entries one after another. Doing so
 * costs a few file-system round trips per file in sequence, though, so every
 * entry is first collected at once, each against its own empty `seen` set, and
 * that speculative result is used whenever it provably equals the sequential
 * one; otherwise (a file shared with an earlier entry) the entry is read again.
 */
export async function discoverInstructionFiles(
  locations: readonly Location[],
  options: DiscoveryOptions,
): Promise<Discovery> {
  const result: Discovery = { files: [], warnings: [] };
  const entries = await expandRulesFolders(locations, result.warnings);
  const speculative = entries.map((entry) => collect(entry, new Set(), options));
  for (const attempt of speculative) attempt.catch(() => {}); // awaited in order below; not an unhandled rejection meanwhile
  const seen = new Set<string>();
  for (const [i, entry] of entries.entries()) {
    const { collection, claimed } = await settle(await speculative[i]!, entry, seen, options);
    for (const warning of collection.warnings) result.warnings.push(warning); // a file may hold more than a call takes arguments
    if (entry.kind === 'rules' && !(await ruleApplies(collection, entry.projectDir, options, result.warnings))) continue;
    for (const real of claimed) seen.add(real);
    addFiles(result, collection.files, entry.kind);
  }
  return result;
}

/** An entry point of discovery: a file location, or one file of a rules folder. */
type Entry = { path: string; kind: FileKind; scope: string } | { path: string; kind: 'rules'; projectDir: string; scope: string };

/** File locations as they are; each rules folder (listed concurrently) replaced by its files. */
async function expandRulesFolders(locations: readonly Location[], warnings: Diagnostic[]): Promise<Entry[]> {
  const listings = await Promise.all(locations.map((l) => (l.type === 'rules' ? listRulesFolder(l.dir) : null)));
  return locations.flatMap((location, i): Entry[] => {
    if (location.type === 'file') return [{ path: location.path, kind: location.kind, scope: location.scope }];
    const listing = listings[i]!;
    if (!listing.ok) {
      warnings.push(listing.warning);
      return [];
    }
    return listing.files.map((file) => ({ path: file, kind: 'rules', projectDir: location.projectDir, scope: location.projectDir }));
  });
}

interface Attempt {
  collection: InstructionCollection;
  /** Real paths the collection added to its `seen` set: what the entry claims when it is used. */
  claimed: Set<string>;
}

async function collect(entry: Entry, seen: Set<string>, options: DiscoveryOptions): Promise<Attempt> {
  // The Markdown reader only when there is an instruction file to read: most directories have none.
  // lstat, not stat: a symlink (even a broken one) is the collector's to judge.
  if (!(await fs.lstat(entry.path).catch(() => null))) return { collection: { files: [], warnings: [] }, claimed: seen };
  const { collectInstructionFiles } = await import('../include/include.js');
  const collection = await collectInstructionFiles(entry.path, { homeDir: options.homeDir, limits: options.limits, seen, scope: entry.scope });
  return { collection, claimed: seen };
}

/**
 * A speculative collection equals the sequential one when it claimed no file
 * already seen: the resolver then never reached a point where the shared set
 * would have stopped it. The one other place `seen` matters is the depth guard
 * (a seen file is skipped before depth is checked), so a depth warning also
 * sends the entry back to be read against the shared set.
 */
async function settle(
  attempt: Attempt,
  entry: Entry,
  seen: ReadonlySet<string>,
  options: DiscoveryOptions,
): Promise<Attempt> {
  const overlaps = [...attempt.claimed].some((real) => seen.has(real));
  const tooDeep = attempt.collection.warnings.some((w) => w.rule === 'include/depth');
  return overlaps || tooDeep ? collect(entry, new Set(seen), options) : attempt;
}

/**
 * A rules file without `paths:` applies everywhere; with them, only when a file
 * in play matches. When it does not apply, neither it nor its includes are
 * used, and a later file may still claim those includes.
 */
async function ruleApplies(
  collection: InstructionCollection,
  projectDir: string,
  options: DiscoveryOptions,
  warnings: Diagnostic[],
): Promise<boolean> {
  const entry = collection.files.at(-1);
  if (entry?.includedBy !== null) return false; // already seen, or unreadable
  const scope = readRuleScope(entry.frontmatter);
  if (scope.kind === 'invalid') {
    warnings.push(fileWarning('frontmatter/invalid-field', entry.path, scope.message));
    return false;
  }
  return scope.kind === 'everywhere' || (await matchesFilesInPlay(scope.globs, projectDir, options.filesInPlay, options.cwd));
}

/** The collection's last file is its entry (it gets the location's kind); the others are its includes. */
function addFiles(result: Discovery, files: readonly CollectedFile[], kind: Exclude<InstructionKind, 'include'>): void {
  for (const file of files) {
    if (file.content.trim() === '') continue;
    result.files.push(
      file.includedBy === null
        ? { path: file.path, kind, content: file.content }
        : { path: file.path, kind: 'include', content: file.content, includedBy: file.includedBy },
    );
  }
}

type RulesListing = { ok: true; files: string[] } | { ok: false; warning: Diagnostic };

/** Every `.md` below the folder, sorted by its POSIX relative path (code-unit order: the same on every machine). */
async function listRulesFolder(dir: string): Promise<RulesListing> {
  let entries: string[];
  try {
    entries = await fs.readdir(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: true, files: [] };
    const message = `rules folder cannot be read: ${(error as Error).message}`;
    return { ok: false, warning: fileWarning('source/unreadable', dir, message) };
  }
  const markdown = entries
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((entry) => entry.toLowerCase().endsWith('.md'));
  return { ok: true, files: markdown.sort(compareCodeUnits).map((entry) => path.join(dir, entry)) };
}

/** A warning about a whole file (or folder): there is no directive to point at. */
function fileWarning(rule: RuleId, file: string, message: string): Diagnostic {
  return diagnostic(rule, file, { line: 1, column: 1 }, message, { severity: 'warning' });
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `/a/b/c` → `/`, `/a`, `/a/b`, `/a/b/c`. */
function ancestorsFromRoot(dir: string): string[] {
  const chain = [dir];
  for (let parent = path.dirname(dir); parent !== chain[0]; parent = path.dirname(parent)) chain.unshift(parent);
  return chain;
}
