/**
 * Finds what the compiler must act on in a Markdown body: include directives,
 * block-level HTML comments and template expressions — and only where they
 * count (text nodes; never code, HTML, link destinations or autolinks).
 *
 * The result holds offsets into the body, never re-serialised Markdown: the
 * compiler splices the body by these offsets so every other byte survives.
 * Most files need no Markdown parsing at all: a body with no include
 * candidate, no `{{` and no `<!--` has nothing to find, and parsing is the
 * whole cost of a build (see `needsScan`); the others are tokenized, and
 * only where their prose is is kept (prose.ts).
 */
import { proseOf, type Range } from './prose.js';

export interface Directive {
  /** Body offsets of the token `@path` (end exclusive). */
  start: number;
  end: number;
  /** The path as written after `@`, trailing sentence punctuation removed. */
  path: string;
}

export type { Range };

export interface Scan {
  directives: Directive[];
  /** Ranges to delete so that maintainer comments disappear without leaving blank lines. */
  comments: Range[];
  /** Offsets of `{{` in text nodes (template expressions in prose). */
  templates: number[];
}

const EMPTY_SCAN: Scan = Object.freeze({ directives: [], comments: [], templates: [] }) as Scan;

/**
 * A token is an include candidate when its path starts with `./ ../ ~/ /` or
 * ends in an allowed extension (SPEC §3.3); `@username`, `@types/node` stay text.
 */
function isCandidate(pathText: string, extensions: readonly string[]): boolean {
  if (/^(\.{1,2}\/|~\/|\/)/.test(pathText)) return true;
  const lower = pathText.toLowerCase();
  return extensions.some((ext) => lower.endsWith(ext));
}

/**
 * Cheap pre-check: can `scanBody` find anything in this body that needs
 * tokenizing? `{{` only does when template expressions in prose matter.
 */
function needsScan(body: string, extensions: readonly string[], proseTemplates = true): boolean {
  if ((proseTemplates && body.includes('{{')) || body.includes('<!--')) return true;
  for (const match of body.matchAll(TOKEN_IN_TEXT)) {
    if (isCandidate(trimPath(match[2] ?? ''), extensions)) return true;
  }
  return false;
}

/**
 * `proseTemplates: false` is for a dynamic section, whose whole body is a
 * template: its `{{` then need no tokenizing and are all reported (the list only
 * matters if such a file is included into a static section).
 */
export function scanBody(body: string, extensions: readonly string[], { proseTemplates = true } = {}): Scan {
  if (!needsScan(body, extensions, proseTemplates)) {
    return proseTemplates || !body.includes('{{') ? EMPTY_SCAN : { directives: [], comments: [], templates: allIndexes(body, '{{') };
  }
  const { texts, blockHtml } = proseOf(body);
  const scan: Scan = { directives: [], comments: [], templates: [] };
  for (const { start, end } of texts) scanText(body, start, end, extensions, scan);
  for (const html of blockHtml) if (isPureComment(html.value)) scan.comments.push(commentRemoval(body, html.start, html.end));
  return scan;
}

function allIndexes(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

// `@` at the start of the slice or after whitespace; the path runs to the next whitespace.
const TOKEN_IN_TEXT = /(^|\s)@(\S+)/g;

function scanText(body: string, start: number, end: number, extensions: readonly string[], scan: Scan): void {
  const raw = body.slice(start, end);
  for (const match of raw.matchAll(TOKEN_IN_TEXT)) {
    const at = start + (match.index ?? 0) + (match[1]?.length ?? 0);
    const written = match[2] ?? '';
    const pathText = trimPath(written);
    if (pathText === '' || !isCandidate(pathText, extensions)) continue;
    scan.directives.push({ start: at, end: at + 1 + pathText.length, path: pathText });
  }
  for (const i of allIndexes(raw, '{{')) scan.templates.push(start + i);
}

/** Sentence punctuation after a path (`see @./a.md.`) is not part of it. */
function trimPath(written: string): string {
  return written.replace(/[.,;:!?)\]}'"]+$/, '');
}

function isPureComment(html: string): boolean {
  return /^<!--[\s\S]*?-->$/.test(html.trim()) && html.indexOf('-->') === html.lastIndexOf('-->');
}

/**
 * The range to delete for a block comment: the comment, its line break, and
 * one blank line when the comment stood alone between blank lines, so that
 * `A\n\n<!-- x -->\n\nB` becomes `A\n\nB`.
 */
function commentRemoval(body: string, start: number, end: number): Range {
  let to = end;
  if (body[to] === '\n') to++;
  const blankBefore = start === 0 || body.startsWith('\n\n', start - 2) || (start === 1 && body[0] === '\n');
  if (blankBefore && body[to] === '\n') to++;
  return { start, end: to };
}
