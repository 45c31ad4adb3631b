/**
 * Finds what the compiler must act on in a Markdown body: include directives,
 * block-level HTML comments and template expressions — and only where they
 * count (text nodes; never code, HTML, link destinations or autolinks).
 *
 * The result holds offsets into the body, never re-serialised Markdown: the
 * compiler splices the body by these offsets so every other byte survives.
 * Most files need no Markdown parsing at all: a body with no include
 * candidate, no `{{` and no `<!--` has nothing to find, and parsing is the
 * whole cost of a build (see `mayHoldFinds`). Of the others, only the blocks
 * that may hold something are tokenized, and only where their prose is is
 * kept (prose.ts).
 */
import { blockCuts } from './block-cuts.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { lineIndexOf } from '../core/line-index.js';
import { markdownParser, proseOf, type Range } from './prose.js';
import { limitPassed, MAX_LIST_NESTING, startWork, type ScanLimit, type ScanWork } from './scan-limits.js';

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
  /** Offsets of `{{` in text nodes (template expressions in prose); in a dynamic section's body, all of them. */
  templates: number[];
  /**
   * The first part that was too costly to tokenize (lists nested too deep,
   * too many lazy lines, too much inline markup: scan-limits.ts), left out.
   * A diagnostic.
   */
  limit?: ScanLimit;
}

/** Most bytes of neighbouring parts tokenized in one run (see `scanBody`). */
const MAX_RUN_BYTES = 1024;

const CANDIDATE_PREFIX = /^(\.{1,2}\/|~\/|\/)/;

const EMPTY_SCAN: Scan = Object.freeze({ directives: [], comments: [], templates: [] }) as Scan;

/**
 * A token is an include candidate when its path starts with `./ ../ ~/ /` or
 * ends in an allowed extension (docs/authoring.md#which-words-are-includes); `@username`, `@types/node` stay text.
 */
function isCandidate(pathText: string, extensions: readonly string[]): boolean {
  if (CANDIDATE_PREFIX.test(pathText)) return true;
  const lower = pathText.toLowerCase();
  return extensions.some((ext) => lower.endsWith(ext));
}

const AT_WORD = /@(\S+)/g;

/**
 * Cheap pre-check: can a part of a body hold anything `scanBody` reports? It
 * must never say no where tokenizing would find something, so it looks at
 * every `@`: a text node may start right after code or a link, and end
 * before the rest of the word (`@a.md*note*`).
 */
function mayHoldFinds(text: string, extensions: readonly string[], proseTemplates: boolean): boolean {
  if ((proseTemplates && text.includes('{{')) || text.includes('<!--')) return true;
  for (const match of text.matchAll(AT_WORD)) {
    const word = match[1]!;
    if (CANDIDATE_PREFIX.test(word)) return true;
    const lower = word.toLowerCase();
    if (extensions.some((ext) => lower.includes(ext))) return true;
  }
  return false;
}

/**
 * `proseTemplates: false` is for a dynamic section, whose whole body is a
 * template: all its `{{` are reported, code or not, without tokenizing (the
 * list only matters if such a file is included into a static section).
 *
 * The body is cut where its parts tokenize alone (block-cuts.ts), and only
 * the parts that may hold something are tokenized. `everywhere` tokenizes the
 * whole body at once instead: the answer the tests hold that shortcut to.
 */
export function scanBody(body: string, extensions: readonly string[], { proseTemplates = true, everywhere = false } = {}): Scan {
  const scan: Scan = { directives: [], comments: [], templates: [] };
  if (everywhere) {
    scanPart(body, 0, body.length, extensions, proseTemplates, scan, markdownParser());
  } else if (mayHoldFinds(body, extensions, proseTemplates)) {
    const parser = markdownParser();
    const work = startWork();
    // Neighbouring parts that both need tokenizing go to the tokenizer together (the body between any
    // two cuts tokenizes as it does in the whole), up to 1 KB a run: a part costs a tokenizer's start,
    // and runs of 16 KB cost more than their parts (micromark's splices grow with a run's events).
    let run: [number, number] | null = null;
    const flush = (): void => {
      if (run !== null) scanPart(body, run[0], run[1], extensions, proseTemplates, scan, parser, work);
      run = null;
    };
    let from = 0;
    for (const to of [...blockCuts(body), body.length]) {
      const mayHold = mayHoldFinds(body.slice(from, to), extensions, proseTemplates);
      const plain = mayHold ? plainLine(body, from, to) : undefined;
      if (!mayHold || plain) {
        flush();
        if (plain) scanText(body, plain.start, plain.end, extensions, proseTemplates, scan);
      } else if (run !== null && to - run[0] <= MAX_RUN_BYTES) run[1] = to;
      else {
        flush();
        run = [from, to];
      }
      from = to;
    }
    flush();
  }
  if (!proseTemplates) scan.templates = allIndexes(body, '{{');
  return scan.directives.length + scan.comments.length + scan.templates.length === 0 && scan.limit === undefined ? EMPTY_SCAN : scan;
}

/**
 * A part that is one line of a paragraph or of a bullet or ordered list item
 * (then blank lines), whose content holds no character CommonMark reads as
 * inline markup, nor one that could start another block: its one text node
 * is the content as written. 95,000 one-line list items with an include
 * each took 3 s to tokenize, in runs or not.
 */
const PLAIN_LINE = / {0,3}(?:(?:[-+*]|\d{1,9}[.)]) {1,4})?([^\s\d#>+*=_`~<\\[\]!&\0-](?:[^\n\r\t\\`<>[\]!&*_~\0]*[^\s\\`<>[\]!&*_~\0])?)(?:\n[ \t]*)*/dy;

/**
 * Where the text node of a plain one-line part is (`PLAIN_LINE`);
 * undefined for any other part, which the tokenizer reads.
 */
function plainLine(body: string, from: number, to: number): Range | undefined {
  PLAIN_LINE.lastIndex = from;
  const match = PLAIN_LINE.exec(body);
  if (match === null || PLAIN_LINE.lastIndex !== to) return undefined;
  const [start, end] = match.indices![1]!;
  return { start, end };
}

/** Tokenizes `body[from, to)` alone and adds what its prose holds, at body offsets. */
function scanPart(
  body: string,
  from: number,
  to: number,
  extensions: readonly string[],
  proseTemplates: boolean,
  scan: Scan,
  parser: ReturnType<typeof markdownParser>,
  work: ScanWork = startWork(),
): void {
  const limit = limitPassed(body, from, to, work);
  if (limit !== null) {
    scan.limit ??= limit;
    return;
  }
  const { texts, blockHtml } = proseOf(body.slice(from, to), parser);
  for (const { start, end } of texts) scanText(body, from + start, from + end, extensions, proseTemplates, scan);
  for (const html of blockHtml) if (isPureComment(html.value)) scan.comments.push(commentRemoval(body, from + html.start, from + html.end));
}

/** The diagnostic of a file with a part too costly to scan, if it has one. */
export function scanLimitDiagnostic(file: { rel: string; text: string; bodyOffset: number; scan: Scan }): Diagnostic | null {
  const { limit } = file.scan;
  if (limit === undefined) return null;
  const at = lineIndexOf(file).positionAt(file.bodyOffset + limit.at);
  const unread = 'so this block is not read for includes and templates';
  switch (limit.kind) {
    case 'nesting':
      return diagnostic('source/nesting-too-deep', file.rel, at, `lists nest deeper than ${MAX_LIST_NESTING} levels here`, {
        note: `the Markdown tokenizer's work on a line grows with the square of its depth, ${unread}; flatten the list`,
      });
    case 'lazy-lines':
      return diagnostic('source/too-many-lazy-lines', file.rel, at, 'too many lazy continuation lines in block quotes or list items, from here on', {
        note:
          `each line that continues a quoted or listed paragraph without its \`>\` or indent makes the Markdown tokenizer re-read the paragraph, ${unread}; ` +
          'start those lines with `>` (or indent them under the item), or break the paragraph with blank lines',
      });
    case 'long-block':
      return diagnostic('source/block-too-long', file.rel, at, 'too many lines in one block (no blank line between them) to read for includes, from here on', {
        note: `the Markdown tokenizer holds every line of a block until it ends (500,000 lines: 2 GB), ${unread}; break it with blank lines, or keep such text in a file no include or comment is in`,
      });
    case 'inline-markup':
      return diagnostic('source/too-much-markup', file.rel, at, 'too many emphasis markers (`*`, `_`) or brackets (`[`, `<`) in this paragraph or file', {
        note: `the Markdown tokenizer's work grows with the square of the emphasis markers in a paragraph, and its memory with the open brackets, ${unread}; break the paragraph with blank lines, or put such text in a fenced code block`,
      });
  }
}

function allIndexes(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

// `@` at the start of the slice or after whitespace; the path runs to the next whitespace.
const TOKEN_IN_TEXT = /(^|\s)@(\S+)/g;

function scanText(body: string, start: number, end: number, extensions: readonly string[], proseTemplates: boolean, scan: Scan): void {
  const raw = body.slice(start, end);
  for (const directive of directivesIn(raw, start, extensions)) scan.directives.push(directive);
  if (proseTemplates) for (const i of allIndexes(raw, '{{')) scan.templates.push(start + i);
}

/**
 * The include directives of one text node, given as its source text (`raw`,
 * escapes and container prefixes as written) and the offset it starts at.
 * The one reading of a text node: the build's scan and the mdast tree
 * (compiler/unified/) both ask it.
 */
export function directivesIn(raw: string, offset: number, extensions: readonly string[]): readonly Directive[] {
  // Most text nodes hold no `@`: they cost no list.
  if (!raw.includes('@')) return NO_DIRECTIVES;
  const found: Directive[] = [];
  for (const match of raw.matchAll(TOKEN_IN_TEXT)) {
    const at = offset + (match.index ?? 0) + (match[1]?.length ?? 0);
    const pathText = trimPath(match[2] ?? '');
    if (pathText === '' || !isCandidate(pathText, extensions)) continue;
    found.push({ start: at, end: at + 1 + pathText.length, path: pathText });
  }
  return found;
}

const NO_DIRECTIVES: readonly Directive[] = Object.freeze([]);

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
