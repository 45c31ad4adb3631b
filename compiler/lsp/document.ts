/**
 * One open file read the way the build reads it — its role by its place in
 * the layout, its frontmatter, the `@include` directives and `{{…}}` in its
 * body — with offsets into the editor's text, for the features that answer
 * about a place in it (definition, hover, completion, links).
 */
import path from 'node:path';
import type { BuildOptions } from '../core/options.js';
import { sourceDirList } from '../core/source-dirs.js';
import { claudePlaceOf, roleOf, type SourceRole } from '../definitions/definitions.js';
import type { ClaudeKind } from '../definitions/claude-code-fields.js';
import { itemPosition } from '../definitions/frontmatter-fields.js';
import { resolveCompileTarget } from '../include/include.js';
import { parseSource, type ParsedSource } from '../markdown/source.js';

export interface IncludeAt {
  /** Offsets into the text of the token `@path` (end exclusive). */
  start: number;
  end: number;
  written: string;
  /** The file it names (real path), or why it does not resolve. */
  target: { ok: true; file: string } | { ok: false; message: string };
}

export interface NamedItem {
  /** Offsets into the text of the name as written in the frontmatter list. */
  start: number;
  end: number;
  name: string;
}

export interface PromptDocument {
  file: string;
  /** Root-relative POSIX path. */
  rel: string;
  role: SourceRole;
  /** A Claude Code file's kind (skill, command…), for its fields. */
  claudeKind?: ClaudeKind;
  text: string;
  parsed: ParsedSource;
  includes: IncludeAt[];
  /** A profile's `sections:` items, where written. */
  sectionItems: NamedItem[];
}

/**
 * Reads `text` as the file `file` of the project; null for a file outside the prompt set: one under neither source
 * folder that no source includes (`included`: the root-relative paths the last build's sources reached).
 */
export function readDocument(file: string, text: string, options: BuildOptions, included: ReadonlySet<string> = new Set()): PromptDocument | null {
  const rel = path.relative(options.root, file).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel) || !options.extensions.includes(path.extname(rel).toLowerCase())) return null;
  if (!sourceDirList(options.sourceDirs).some((dir) => rel.startsWith(`${dir}/`)) && !included.has(rel)) return null;
  const role = roleOf(rel, options.sourceDirs);
  // Offsets below are into the text as the build normalises it; an editor's CRLF text is read with LF line ends.
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const parsed = parseSource(normalised, options.extensions);
  const host = { root: options.root, homeDir: options.homeDir, limits: options, constants: options.constants, load: () => Promise.reject(new Error('not loaded here')) };
  const includes = parsed.scan.directives.map((d): IncludeAt => {
    const resolved = resolveCompileTarget(d.path, file, host, []);
    return {
      start: parsed.bodyOffset + d.start,
      end: parsed.bodyOffset + d.end,
      written: d.path,
      target: resolved.ok ? { ok: true, file: resolved.file } : { ok: false, message: resolved.message },
    };
  });
  const source = { rel, text: normalised, bodyOffset: parsed.bodyOffset };
  const listed = role === 'profile' && Array.isArray(parsed.data.sections) ? parsed.data.sections.filter((s): s is string => typeof s === 'string') : [];
  const sectionItems = listed.flatMap((name): NamedItem[] => {
    const at = itemPosition(source, 'sections', name);
    const start = offsetOf(normalised, at.line, at.column);
    return normalised.slice(start, start + name.length) === name ? [{ start, end: start + name.length, name }] : [];
  });
  const claude = role === 'claude' ? claudePlaceOf(rel, options.sourceDirs) : null;
  return { file, rel, role, ...(claude ? { claudeKind: claude.kind } : {}), text: normalised, parsed, includes, sectionItems };
}

/** The offset of a 1-based line and column. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** The 0-based line and character of an offset (the protocol's position). */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, character: offset - start };
}

/** Whether `offset` falls in the frontmatter (between the opening and closing `---`). */
export function inFrontmatter(doc: PromptDocument, offset: number): boolean {
  return doc.text.startsWith('---') && offset < doc.parsed.bodyOffset;
}

/** The `{{…}}` expression around `offset`, if any: its inner text, trimmed. */
export function mustacheAt(text: string, offset: number): string | null {
  const open = text.lastIndexOf('{{', offset);
  if (open < 0) return null;
  const close = text.indexOf('}}', open);
  if (close < 0 || close + 2 < offset || text.lastIndexOf('}}', offset - 1) > open) return null;
  return text.slice(open + 2, close).replace(/^[#/^~!>&]*\s*|~$/g, '').trim();
}
