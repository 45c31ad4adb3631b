/**
 * Compiles one section or agent source into its final text: includes
 * expanded, comments removed, then checked as what it is — a static text must
 * hold no template expression, a dynamic one must be a valid template reading
 * only declared inputs.
 */
import { boundaryMarkerDiagnostics } from './boundary-marker.js';
import { printedAppendedContext } from './context-channel.js';
import { diagnostic, type Diagnostic, type Position } from '../diagnostics/diagnostics.js';
import type { DynamicSectionDef, SectionDef } from './definitions.js';
import { expandIncludes, ownCommentPolicy, type Expansion, type TextPolicy, type TextSegment } from '../include/expand.js';
import type { IncludeHost } from '../include/include.js';
import { LineIndex, lineIndexOf } from '../core/line-index.js';
import type { Source } from '../markdown/source.js';
import type { Program } from '../template/ast.js';
import { analyzeTemplate, validateTemplate } from '../template/index.js';

export interface CompiledText {
  text: string;
  segments: TextSegment[];
  /** Root-relative paths included, transitively. */
  dependencies: string[];
  /** Absolute paths whose change can change this output (the source itself included). */
  watched: string[];
  edges: Array<[string, string]>;
  /** Block-level HTML comments the comment policy removed, their UTF-8 bytes, and where each was. */
  stripped: Expansion['stripped'];
  diagnostics: Diagnostic[];
  /**
   * A dynamic section's template as its analysis parsed it, for code
   * generation (emit.ts): parsing a large template is not free, and once is
   * enough. Absent for static texts and for templates that do not parse.
   */
  template?: Program;
}

/** Looks up a loaded source by root-relative path, for positioning diagnostics in included files. */
export type SourceLookup = (rel: string) => Pick<Source, 'text'> | undefined;

export async function compileSection(def: SectionDef, source: Source, host: IncludeHost, lookup: SourceLookup): Promise<CompiledText> {
  const verbatim = def.kind === 'static' && def.verbatim;
  const expansion = await expandIncludes(source, host, verbatim ? { verbatim } : textPolicy(source, host, false));
  const compiled = toCompiled(source, expansion);
  // Over the expanded-size limit there is no text to check (a diagnostic says so).
  if (expansion.tooLarge) return compiled;
  compiled.diagnostics.push(...boundaryMarkerDiagnostics('section/boundary-marker', compiled, lookup));
  if (def.kind === 'static') {
    // Loops, not spreads: a text may hold more diagnostics than a call takes arguments.
    if (!def.verbatim) for (const d of staticTemplateDiagnostics(def, expansion, lookup)) compiled.diagnostics.push(d);
  } else {
    for (const d of templateDiagnostics(def, compiled, lookup)) compiled.diagnostics.push(d);
  }
  return compiled;
}

export async function compileAgent(source: Source, host: IncludeHost, lookup: SourceLookup): Promise<CompiledText> {
  const compiled = toCompiled(source, await expandIncludes(source, host, textPolicy(source, host, true)));
  compiled.diagnostics.push(...boundaryMarkerDiagnostics('agent/boundary-marker', compiled, lookup));
  return compiled;
}

/** A file of a Claude Code project (claude-code.ts): includes, comments and constants as in an agent; Claude Code reads the body as written. */
export async function compileClaudeFile(source: Source, host: IncludeHost): Promise<CompiledText> {
  return toCompiled(source, await expandIncludes(source, host, textPolicy(source, host, false)));
}

/** Comments: the file's own `comments:`, else the project's default. Agents' bodies lose their leading blank lines, as Claude Code trims them. */
function textPolicy(source: Source, host: IncludeHost, agent: boolean): TextPolicy {
  const comments = ownCommentPolicy(source) ?? (host.limits.stripComments ? 'strip' : 'keep');
  return { verbatim: false, comments, trimLeadingBlankLines: agent };
}

function toCompiled(source: Source, expansion: Expansion): CompiledText {
  return {
    text: expansion.text,
    segments: expansion.segments,
    dependencies: expansion.dependencies,
    watched: [source.path, ...expansion.watched],
    edges: expansion.edges,
    stripped: expansion.stripped,
    diagnostics: expansion.diagnostics,
  };
}

function staticTemplateDiagnostics(def: SectionDef, expansion: Expansion, lookup: SourceLookup): Diagnostic[] {
  return expansion.templates.map((hit) => {
    const source = lookup(hit.file);
    return diagnostic(
      'section/static-template',
      hit.file,
      lineIndexOf(source ?? { text: '' }).positionAt(hit.offset),
      `template expression in static section '${def.name}'`,
      {
        note:
          'a template in the static prefix would change it per user and break the global prompt cache; ' +
          'make the section `kind: dynamic`, or mark it `verbatim: true` if the braces are meant for the model',
      },
    );
  });
}

function templateDiagnostics(def: DynamicSectionDef, compiled: CompiledText, lookup: SourceLookup): Diagnostic[] {
  const analysis = analyzeTemplate(compiled.text);
  if (analysis.ok) compiled.template = analysis.ast;
  const lines = new LineIndex(compiled.text);
  const locate = (line: number, column: number) => mapPosition(compiled, lines, line, column, lookup);
  if (!analysis.ok) {
    const at = locate(analysis.error.line, analysis.error.column);
    return [diagnostic('template/syntax', at.file, at, analysis.error.message)];
  }
  const unsupported = validateTemplate(analysis.ast).map((problem) => {
    const at = locate(problem.line, problem.column);
    return diagnostic(problem.rule, at.file, at, problem.message, problem.note === undefined ? {} : { note: problem.note });
  });
  const declared = new Set(def.inputs);
  const undeclared = analysis.variables
    // `const` is the constants' namespace: a `{{const.X}}` left in the text is an unknown constant, reported as one.
    .filter((v) => !declared.has(v.name) && v.name !== 'const')
    .map((v) => {
      const at = locate(v.line, v.column);
      return diagnostic('section/undeclared-input', at.file, at, `section '${def.name}' reads '${v.name}', which it does not declare`, {
        note: `add '${v.name}' to \`inputs:\` (or \`optional:\` if it may be absent)`,
      });
    });
  const twice = printedAppendedContext(analysis.ast).map(({ name, line, column }) => {
    const at = locate(line, column);
    return diagnostic('section/context-channel', at.file, at, `section '${def.name}' prints '${name}', which the runtime appends to the system prompt itself`, {
      note: `the model would read it twice; test it (\`{{#if ${name}}}…{{/if}}\`) but leave the text to the system context`,
    });
  });
  return [...unsupported, ...undeclared, ...twice];
}

/** An offset of the compiled text → the file and position it was written at (null past the text). */
export function sourcePositionOf(compiled: Pick<CompiledText, 'segments'>, offset: number, lookup: SourceLookup): ({ file: string; offset: number } & Position) | null {
  const segment = segmentAt(compiled.segments, offset);
  if (!segment) return null;
  const at = segment.offset + (offset - segment.start);
  return { file: segment.file, offset: at, ...lineIndexOf(lookup(segment.file) ?? { text: '' }).positionAt(at) };
}

/** A 1-based line/column of the compiled text → the file and position it was written at. */
function mapPosition(compiled: CompiledText, lines: LineIndex, line: number, column: number, lookup: SourceLookup) {
  const offset = Math.min(lines.startOfLine(line) + column - 1, Math.max(0, compiled.text.length - 1));
  const segment = segmentAt(compiled.segments, offset) ?? compiled.segments.at(-1);
  if (!segment) return { file: '', line, column, excerpt: '' };
  const source = lookup(segment.file) ?? { text: '' };
  return { file: segment.file, ...lineIndexOf(source).positionAt(segment.offset + (offset - segment.start)) };
}

/** The segment holding `offset`: segments are ordered and contiguous, so a binary search finds it. */
function segmentAt(segments: readonly TextSegment[], offset: number): TextSegment | undefined {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segments[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  const segment = segments[lo];
  return segment && offset >= segment.start && offset < segment.end ? segment : undefined;
}
