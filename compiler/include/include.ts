/**
 * The @include resolver (docs/authoring.md#includes): one set of guards, two modes.
 *
 * - compile mode (`expandIncludes`, expand.ts): a directive is replaced in
 *   place by the included body; everything must resolve inside the project root.
 * - instructions mode (`collectInstructionFiles`): each included file becomes its own
 *   entry placed before its includer, for instruction files read at run time.
 *
 * Both share path resolution, the extension/binary/size guards (through
 * `readTextFile`), and the cycle and depth guards on the chain of files being
 * expanded. A diamond (two files including a third) is not a cycle.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { IncludeLimits } from '../core/options.js';
import { diagnostic, type Diagnostic, type RuleId } from '../diagnostics/diagnostics.js';
import { lineIndexOf } from '../core/line-index.js';
import { scanLimitDiagnostic, type Directive, type Range } from '../markdown/scan.js';
import { makeSource, parseSource, rawFile, problemToDiagnostic, readTextFile, type ReadFailure, type Source } from '../markdown/source.js';
import { describeTextProblem } from '../markdown/text-check.js';
import { isInside } from '../core/paths.js';

/** How the compile-mode resolver reaches files: the build caches and shares loads. */
export interface IncludeHost {
  /** Real path of the project root. */
  root: string;
  homeDir: string;
  limits: IncludeLimits;
  /** Build-time constants for `{{const.NAME}}`. */
  constants: Readonly<Record<string, string>>;
  /** Loads (and caches) a source by real absolute path. */
  load(file: string): Promise<Source | ReadFailure>;
}

export type Resolved = { ok: true; file: string } | { ok: false; rule: RuleId; message: string; note?: string };

/**
 * Compile-mode path resolution: extension guard, then confinement to the root
 * before and after realpath. Adds to `watched` the paths whose appearance or
 * change can change the answer.
 */
export function resolveCompileTarget(written: string, includer: string, host: IncludeHost, watched: string[]): Resolved {
  const extensionProblem = checkExtension(written, host.limits.extensions);
  if (extensionProblem) return { ok: false, rule: 'include/extension', message: extensionProblem };
  const lexical = resolveWritten(written, includer, host.homeDir);
  watched.push(lexical);
  const outside = {
    ok: false as const,
    rule: 'include/outside-root' as const,
    message: `'${written}' resolves outside the project root`,
    note: 'builds must be reproducible from the repository alone: move the file into the project',
  };
  if (!isInside(host.root, lexical)) return outside;
  let real: string;
  try {
    // One realpath(3) call, blocking: a large build resolves thousands of includes.
    real = fsSync.realpathSync.native(lexical);
  } catch {
    return { ok: false, rule: 'include/missing', message: `included file not found: '${written}'` };
  }
  if (!isInside(host.root, real)) return { ...outside, message: `'${written}' leads outside the project root through a symlink` };
  watched.push(real);
  return { ok: true, file: real };
}

export function failureDiagnostic(failure: ReadFailure, written: string, limits: IncludeLimits): [RuleId, string] {
  switch (failure.kind) {
    case 'missing':
      return ['include/missing', `included file not found: '${written}'`];
    case 'not-a-file':
      return ['include/not-a-file', `'${written}' is ${failure.what}, not a regular file`];
    case 'outside-root':
      return ['include/outside-root', `'${written}' leads outside the project root through a symlink`];
    case 'too-large':
      return ['include/too-large', `'${written}' is ${failure.bytes} bytes, over the ${limits.maxBytes}-byte limit`];
    case 'text': {
      const binary = failure.problem.kind === 'binary' || failure.problem.kind === 'nul';
      return [binary ? 'include/binary' : 'include/encoding', `'${written}' ${describeTextProblem(failure.problem)}`];
    }
    case 'unreadable':
      return ['include/missing', `'${written}' cannot be read: ${failure.message}`];
  }
}

/** Why a written path may not be included at all, or null. */
function checkExtension(written: string, extensions: readonly string[]): string | null {
  const ext = path.posix.extname(written).toLowerCase();
  if (extensions.includes(ext)) return null;
  const allowed = extensions.join(', ');
  return ext === ''
    ? `'${written}' has no file extension; only text files may be included (${allowed})`
    : `'${written}' has extension '${ext}'; only text files may be included (${allowed})`;
}

/** `./a` `../a` `a/b` relative to the includer; `~/a` in the home directory; `/a` absolute. */
function resolveWritten(written: string, includer: string, homeDir: string): string {
  if (written.startsWith('~/')) return path.join(homeDir, written.slice(2));
  if (path.isAbsolute(written)) return path.normalize(written);
  return path.resolve(path.dirname(includer), written);
}

/** Root-relative POSIX path, or the absolute path for a file outside the root. */
export function relativeToRoot(root: string, file: string): string {
  return isInside(root, file) ? path.relative(root, file).split(path.sep).join('/') : file;
}

/** One instruction file found at run time (docs/context.md#includes-in-instruction-files). */
export interface CollectedFile {
  /** Real absolute path. */
  path: string;
  /** Body: frontmatter removed, maintainer comments removed; directives are left as written. */
  content: string;
  frontmatter: Record<string, unknown>;
  /** The file whose directive brought this one in, or null for an entry point. */
  includedBy: string | null;
}

export interface InstructionOptions {
  homeDir: string;
  limits: IncludeLimits;
  /** Real paths already processed in this discovery: a file is added once. */
  seen: Set<string>;
  /**
   * The folder the entry belongs to (its project directory, the home directory
   * for the user's file); a symlink may not lead out of it. Default: the
   * entry's own folder.
   */
  scope?: string;
}

export interface InstructionCollection {
  /** Included files first (depth-first), then the entry itself. */
  files: CollectedFile[];
  /** Refused includes (extension, binary, size, cycle, depth): skipped, reported as warnings. */
  warnings: Diagnostic[];
}

/**
 * The cycle and depth guards, one set for both modes, on the chain of files
 * being expanded (outermost first, named as messages name them): why `next`
 * may not be entered, or null. `cycleStart`: where `next` already stands on
 * the chain, -1 when it does not; the chain is asked for only on a refusal.
 */
export function chainGuard(
  chain: () => readonly string[],
  depth: number,
  cycleStart: number,
  next: string,
  maxDepth: number,
): { rule: 'include/cycle' | 'include/depth'; message: string } | null {
  if (cycleStart >= 0) return { rule: 'include/cycle', message: `include cycle: ${[...chain().slice(cycleStart), next].join(' → ')}` };
  if (depth > maxDepth) return { rule: 'include/depth', message: `includes nest deeper than ${maxDepth} levels: ${[...chain(), next].join(' → ')}` };
  return null;
}

/**
 * Instructions mode: `~/` and absolute paths are allowed (the user asked for them),
 * a missing file is skipped silently, the other guards still hold. A missing
 * entry gives an empty collection.
 *
 * What the user wrote is trusted; a symlink is not: every file is judged by
 * its real path (extension, type, size), and its real path must stay inside
 * its scope (`scopeOf`), so `notes.md -> ~/.ssh/id_rsa`, or a `CLAUDE.md`
 * linking out of its project, is refused with a warning.
 */
export async function collectInstructionFiles(entry: string, options: InstructionOptions): Promise<InstructionCollection> {
  const result: InstructionCollection = { files: [], warnings: [] };
  const file = path.resolve(entry);
  const scope = await realOrSelf(options.scope === undefined ? path.dirname(file) : path.resolve(options.scope));
  await collectInto(file, null, [], scope, options, result);
  return result;
}

/**
 * An include's scope: the includer's when the written path stays inside it,
 * else the home directory when it names a file there (`@~/prefs.md`), else
 * the folder it names (an absolute path, or `..` out of the project).
 */
async function scopeOf(target: string, includerScope: string, homeDir: string): Promise<string> {
  if (isInside(includerScope, target)) return includerScope;
  const home = await realOrSelf(homeDir);
  if (isInside(homeDir, target) || isInside(home, target)) return home;
  return realOrSelf(path.dirname(target));
}

async function realOrSelf(dir: string): Promise<string> {
  return fs.realpath(dir).catch(() => dir);
}

async function collectInto(
  file: string,
  includedBy: { source: Source; directive: Directive } | null,
  chain: readonly string[],
  scope: string,
  options: InstructionOptions,
  result: InstructionCollection,
): Promise<void> {
  // A refused include is reported at its directive; a refused entry file at its own first line.
  const warn = (rule: RuleId, message: string): void => {
    if (!includedBy) {
      result.warnings.push(diagnostic(rule, file, { line: 1, column: 1 }, message, { severity: 'warning' }));
      return;
    }
    const { source, directive } = includedBy;
    const at = lineIndexOf(source).positionAt(source.bodyOffset + directive.start);
    result.warnings.push(diagnostic(rule, source.rel, at, message, { severity: 'warning' }));
  };
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch {
    return; // missing: skipped silently in instructions mode
  }
  const written = includedBy?.directive.path ?? file;
  if (!isInside(scope, real)) {
    warn('include/outside-root', `'${written}' leads outside ${scope} through a symlink`);
    return;
  }
  if (real !== file) {
    // The written name passed the extension guard; the file read is the one the link names.
    const ext = path.extname(real).toLowerCase();
    if (!options.limits.extensions.includes(ext)) {
      const what = ext === '' ? 'a file with no extension' : `a '${ext}' file`;
      warn('include/extension', `'${written}' links to ${what}; only text files may be included (${options.limits.extensions.join(', ')})`);
      return;
    }
  }
  const onChain = chain.indexOf(real);
  // Read once: a file reached again (a diamond) is not a cycle, unless it is still being expanded.
  if (onChain < 0 && options.seen.has(real)) return;
  const refused = chainGuard(() => chain, chain.length, onChain, real, options.limits.maxDepth);
  if (refused) {
    warn(refused.rule, refused.message);
    return;
  }
  const read = await readTextFile(real, options.limits.maxBytes);
  if (!read.ok) {
    if (read.failure.kind !== 'missing') warn(...failureDiagnostic(read.failure, includedBy?.directive.path ?? real, options.limits));
    return;
  }
  options.seen.add(real);
  const raw = rawFile(real, real, read.bytes);
  const source = makeSource(raw, parseSource(raw.text, options.limits.extensions));
  for (const problem of source.problems) result.warnings.push({ ...problemToDiagnostic(source, problem), severity: 'warning' });
  const tooDeep = scanLimitDiagnostic(source);
  if (tooDeep) result.warnings.push({ ...tooDeep, severity: 'warning' });
  for (const directive of source.scan.directives) {
    const problem = checkExtension(directive.path, options.limits.extensions);
    if (problem) {
      const at = lineIndexOf(source).positionAt(source.bodyOffset + directive.start);
      result.warnings.push(diagnostic('include/extension', real, at, problem, { severity: 'warning' }));
      continue;
    }
    const target = resolveWritten(directive.path, real, options.homeDir);
    const targetScope = await scopeOf(target, scope, options.homeDir);
    await collectInto(target, { source, directive }, [...chain, real], targetScope, options, result);
  }
  const comments = options.limits.stripComments ? source.scan.comments : [];
  result.files.push({
    path: real,
    content: deleteRanges(source.body, comments),
    frontmatter: source.data,
    includedBy: includedBy?.source.path ?? null,
  });
}

function deleteRanges(text: string, ranges: readonly Range[]): string {
  let out = '';
  let cursor = 0;
  for (const range of ranges) {
    out += text.slice(cursor, range.start);
    cursor = range.end;
  }
  return out + text.slice(cursor);
}
