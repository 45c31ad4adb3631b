/**
 * The @include resolver (SPEC §3): one set of guards, two modes.
 *
 * - compile mode (`expandIncludes`): a directive is replaced in place by the
 *   included body; everything must resolve inside the project root.
 * - context mode (`collectContextFiles`): each included file becomes its own
 *   entry placed before its includer, for instruction files read at run time.
 *
 * Both share path resolution, the extension/binary/size guards (through
 * `readTextFile`), and the cycle and depth guards on the chain of files being
 * expanded. A diamond (two files including a third) is not a cycle.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SourceMapSegment } from './runtime/manifest.js';
import type { IncludeLimits } from './config.js';
import { diagnostic, positionAt, type Diagnostic, type RuleId } from './diagnostics.js';
import type { Directive, Range } from './scan.js';
import { makeSource, parseSource, rawFile, problemToDiagnostic, readTextFile, type ReadFailure, type Source } from './source.js';
import { describeTextProblem } from './text-check.js';

/** How the compile-mode resolver reaches files: the build caches and shares loads. */
export interface IncludeHost {
  /** Real path of the project root. */
  root: string;
  homeDir: string;
  limits: IncludeLimits;
  /** Loads (and caches) a source by real absolute path. */
  load(file: string): Promise<Source | ReadFailure>;
}

export interface TemplateHit {
  file: string;
  offset: number;
}

/** A source-map segment that also knows the UTF-16 offset in its file's text where it starts. */
export interface TextSegment extends SourceMapSegment {
  offset: number;
}

export interface Expansion {
  text: string;
  /** Where each range of `text` (UTF-16 offsets) comes from. */
  segments: TextSegment[];
  /** Root-relative paths of every file included, transitively (sorted). */
  dependencies: string[];
  /** Absolute paths whose appearance or change can change this expansion (includes, even missing ones). */
  watched: string[];
  /** Direct include edges found on the way: includer → included (root-relative). */
  edges: Array<[string, string]>;
  /** `{{` found in prose of any expanded file (offsets in that file's text). */
  templates: TemplateHit[];
  diagnostics: Diagnostic[];
}

/** Compile mode: the source's body with every directive replaced and comments removed. */
export async function expandIncludes(source: Source, host: IncludeHost): Promise<Expansion> {
  const state: ExpansionState = { host, dependencies: new Set(), watched: new Set(), edges: [], templates: [], diagnostics: [] };
  const { text, segments } = await expandSource(source, [source], state);
  return {
    text,
    segments,
    dependencies: [...state.dependencies].sort(),
    watched: [...state.watched].sort(),
    edges: state.edges,
    templates: state.templates,
    diagnostics: state.diagnostics,
  };
}

interface ExpansionState {
  host: IncludeHost;
  dependencies: Set<string>;
  watched: Set<string>;
  edges: Array<[string, string]>;
  templates: TemplateHit[];
  diagnostics: Diagnostic[];
}

interface Piece {
  text: string;
  segments: TextSegment[];
}

type Edit = { kind: 'include'; directive: Directive } | { kind: 'delete'; range: Range };

async function expandSource(source: Source, chain: readonly Source[], state: ExpansionState): Promise<Piece> {
  const { scan, bodyOffset } = source;
  for (const offset of scan.templates) state.templates.push({ file: source.rel, offset: bodyOffset + offset });
  const edits: Edit[] = [
    ...scan.directives.map((directive): Edit => ({ kind: 'include', directive })),
    ...(state.host.limits.stripComments ? scan.comments.map((range): Edit => ({ kind: 'delete', range })) : []),
  ].sort((a, b) => editStart(a) - editStart(b));

  const includes = await Promise.all(
    edits.map((edit) => (edit.kind === 'include' ? includeOne(source, edit.directive, chain, state) : null)),
  );

  const out = new PieceBuilder(chain.length > 1 ? chain.map((s) => s.rel) : []);
  let cursor = 0;
  edits.forEach((edit, i) => {
    const start = editStart(edit);
    out.copy(source, cursor, start);
    if (edit.kind === 'include') {
      const included = includes[i];
      if (included) out.append(included);
      else out.copy(source, edit.directive.start, edit.directive.end);
      cursor = edit.directive.end;
    } else {
      cursor = edit.range.end;
    }
  });
  out.copy(source, cursor, source.body.length);
  return out.finish();
}

function editStart(edit: Edit): number {
  return edit.kind === 'include' ? edit.directive.start : edit.range.start;
}

/** Resolves, guards, loads and expands one directive; null when refused (a diagnostic says why). */
async function includeOne(
  includer: Source,
  directive: Directive,
  chain: readonly Source[],
  state: ExpansionState,
): Promise<Piece | null> {
  const { host } = state;
  const report = (rule: RuleId, message: string, note?: string): null => {
    const at = positionAt(includer.text, includer.bodyOffset + directive.start);
    state.diagnostics.push(diagnostic(rule, includer.rel, at, message, note === undefined ? {} : { note }));
    return null;
  };

  const resolved = await resolveCompileTarget(directive.path, includer.path, host, state.watched);
  if (!resolved.ok) return report(resolved.rule, resolved.message, resolved.note);
  const target = resolved.file;
  const targetRel = relativeToRoot(host.root, target);

  const cycleStart = chain.findIndex((s) => s.path === target);
  if (cycleStart !== -1) {
    const cycle = [...chain.slice(cycleStart).map((s) => s.rel), targetRel].join(' → ');
    return report('include/cycle', `include cycle: ${cycle}`);
  }
  if (chain.length > host.limits.maxDepth) {
    const route = [...chain.map((s) => s.rel), targetRel].join(' → ');
    return report(
      'include/depth',
      `includes nest deeper than ${host.limits.maxDepth} levels: ${route}`,
      'flatten the chain, or raise the limit (--max-include-depth)',
    );
  }

  state.edges.push([includer.rel, targetRel]);
  state.dependencies.add(targetRel);
  const loaded = await host.load(target);
  if ('kind' in loaded) return report(...failureDiagnostic(loaded, directive.path, host.limits));
  for (const problem of loaded.problems) state.diagnostics.push(problemToDiagnostic(loaded, problem));

  const piece = await expandSource(loaded, [...chain, loaded], state);
  return dropFinalNewline(piece);
}

type Resolved = { ok: true; file: string } | { ok: false; rule: RuleId; message: string; note?: string };

/** Compile-mode path resolution: extension guard, then confinement to the root before and after realpath. */
async function resolveCompileTarget(written: string, includer: string, host: IncludeHost, watched: Set<string>): Promise<Resolved> {
  const extensionProblem = checkExtension(written, host.limits.extensions);
  if (extensionProblem) return { ok: false, rule: 'include/extension', message: extensionProblem };
  const lexical = resolveWritten(written, includer, host.homeDir);
  watched.add(lexical);
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
  watched.add(real);
  return { ok: true, file: real };
}

function failureDiagnostic(failure: ReadFailure, written: string, limits: IncludeLimits): [RuleId, string] {
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

export function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!(rel === '..' || rel.startsWith(`..${path.sep}`)) && !path.isAbsolute(rel));
}

/** Root-relative POSIX path, or the absolute path for a file outside the root. */
export function relativeToRoot(root: string, file: string): string {
  return isInside(root, file) ? path.relative(root, file).split(path.sep).join('/') : file;
}

function dropFinalNewline(piece: Piece): Piece {
  if (!piece.text.endsWith('\n')) return piece;
  const text = piece.text.slice(0, -1);
  const segments = piece.segments
    .map((s) => (s.end > text.length ? { ...s, end: text.length } : s))
    .filter((s) => s.end > s.start);
  return { text, segments };
}

/** Concatenates slices of sources and included pieces while keeping the source map. */
class PieceBuilder {
  private parts: string[] = [];
  private segments: TextSegment[] = [];
  private length = 0;

  constructor(private readonly chain: string[]) {}

  copy(source: Source, from: number, to: number): void {
    if (to <= from) return;
    const text = source.body.slice(from, to);
    this.segments.push({
      start: this.length,
      end: this.length + text.length,
      file: source.rel,
      line: lineOf(source, source.bodyOffset + from),
      chain: this.chain,
      offset: source.bodyOffset + from,
    });
    this.push(text);
  }

  append(piece: Piece): void {
    for (const s of piece.segments) this.segments.push({ ...s, start: s.start + this.length, end: s.end + this.length });
    this.push(piece.text);
  }

  finish(): Piece {
    return { text: this.parts.join(''), segments: this.segments };
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }
}

const lineStarts = new WeakMap<Source, number[]>();

function lineOf(source: Source, offset: number): number {
  let starts = lineStarts.get(source);
  if (!starts) {
    starts = [0];
    for (let i = source.text.indexOf('\n'); i !== -1; i = source.text.indexOf('\n', i + 1)) starts.push(i + 1);
    lineStarts.set(source, starts);
  }
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** One instruction file found at run time (SPEC §3.7 context mode). */
export interface ContextFile {
  /** Real absolute path. */
  path: string;
  /** Body: frontmatter removed, maintainer comments removed; directives are left as written. */
  content: string;
  frontmatter: Record<string, unknown>;
  /** The file whose directive brought this one in, or null for an entry point. */
  includedBy: string | null;
}

export interface ContextOptions {
  homeDir: string;
  limits: IncludeLimits;
  /** Real paths already processed in this discovery: a file is added once. */
  seen: Set<string>;
}

export interface ContextCollection {
  /** Included files first (depth-first), then the entry itself. */
  files: ContextFile[];
  /** Refused includes (extension, binary, size, cycle, depth): skipped, reported as warnings. */
  warnings: Diagnostic[];
}

/**
 * Context mode: `~/` and absolute paths are allowed (the user asked for them),
 * a missing file is skipped silently, the other guards still hold. A missing
 * entry gives an empty collection.
 */
export async function collectContextFiles(entry: string, options: ContextOptions): Promise<ContextCollection> {
  const result: ContextCollection = { files: [], warnings: [] };
  await collectInto(path.resolve(entry), null, [], options, result);
  return result;
}

async function collectInto(
  file: string,
  includedBy: { source: Source; directive: Directive } | null,
  chain: readonly string[],
  options: ContextOptions,
  result: ContextCollection,
): Promise<void> {
  // A refused include is reported at its directive; a refused entry file at its own first line.
  const warn = (rule: RuleId, message: string): void => {
    if (!includedBy) {
      result.warnings.push(diagnostic(rule, file, { line: 1, column: 1 }, message, { severity: 'warning' }));
      return;
    }
    const { source, directive } = includedBy;
    const at = positionAt(source.text, source.bodyOffset + directive.start);
    result.warnings.push(diagnostic(rule, source.rel, at, message, { severity: 'warning' }));
  };
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch {
    return; // missing: skipped silently in context mode
  }
  if (chain.includes(real)) {
    warn('include/cycle', `include cycle: ${[...chain, real].join(' → ')}`);
    return;
  }
  if (options.seen.has(real)) return;
  if (chain.length > options.limits.maxDepth) {
    warn('include/depth', `includes nest deeper than ${options.limits.maxDepth} levels: ${[...chain, real].join(' → ')}`);
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
  for (const directive of source.scan.directives) {
    const problem = checkExtension(directive.path, options.limits.extensions);
    if (problem) {
      const at = positionAt(source.text, source.bodyOffset + directive.start);
      result.warnings.push(diagnostic('include/extension', real, at, problem, { severity: 'warning' }));
      continue;
    }
    const target = resolveWritten(directive.path, real, options.homeDir);
    await collectInto(target, { source, directive }, [...chain, real], options, result);
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
