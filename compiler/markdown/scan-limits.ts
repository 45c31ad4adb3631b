/**
 * Shapes of Markdown that micromark takes more than linear time or memory
 * on, estimated from the lines before a part is tokenized: a part that would
 * go past a limit is not tokenized, and the file gets a diagnostic instead of
 * a build that runs for minutes (issue 12: any input the default limits
 * accept builds in under 5 s and 1 GiB).
 *
 * The estimates read the lines alone, without following code spans or HTML,
 * and err on the high side for the shapes that are costly; fenced code is
 * left out (its content is never inline Markdown). Each limit is far beyond
 * what a prompt holds by hand.
 */

/** What went over, and where (a body offset: the start of the line). */
export interface ScanLimit {
  kind: 'nesting' | 'lazy-lines' | 'inline-markup' | 'long-block';
  at: number;
}

/** Deepest list nesting the scanner tokenizes; markdown-it's `maxNesting` is 100 too. */
export const MAX_LIST_NESTING = 100;

/**
 * Work allowed for lazy continuation lines in one body, in lines scanned
 * back: micromark re-reads a quoted or listed paragraph for each line that
 * continues it without its `>` or indent (20,000 after one `> ` line: 7 s).
 * About a second here: one paragraph of 7,700 lazy lines.
 */
export const MAX_LAZY_WORK = 30_000_000;

/**
 * Work allowed for emphasis delimiters in one body, in the squares of their
 * counts per paragraph: micromark splices its event list once per matched
 * pair, so n delimiters in a paragraph cost n² (64,000 `*a*` pairs: 17 s).
 * About a second here: one paragraph of 26,000 `*` or `_` runs.
 */
export const MAX_EMPHASIS_WORK = 700_000_000;

/**
 * Link and image openers (`[`) and `<` allowed in one body: each holds about
 * a kilobyte of micromark's state until its paragraph ends (a million `[` in
 * one paragraph: 1.1 GB).
 */
export const MAX_OPENERS = 200_000;

/**
 * Lines one part may hold, each weighted by the containers it is in (a `>`
 * or a list item adds one): micromark holds about 4 KB of events a line until
 * the part ends (500,000 lines of one paragraph: 9.7 s and 2 GB; a quote
 * costs twice as much a line, three nested quotes three times).
 */
export const MAX_BLOCK_LINES = 100_000;

/**
 * The same weighted lines in all of a body's parts of more than
 * `SMALL_PART_LINES` together: their time adds up. As many as one part may
 * hold, so that a body is never tokenized for longer than its longest
 * allowed part (five paragraphs of 90,000 lines under a limit of 200,000:
 * 6 s before the third was refused).
 */
export const MAX_BODY_BLOCK_LINES = MAX_BLOCK_LINES;
const SMALL_PART_LINES = 1000;

/** Work done so far in one body, carried from part to part. */
export interface ScanWork {
  lazy: number;
  emphasis: number;
  openers: number;
  /** Weighted lines of the large parts. */
  lines: number;
}

export function startWork(): ScanWork {
  return { lazy: 0, emphasis: 0, openers: 0, lines: 0 };
}

const LIST_MARKER = /([-*+]|\d{1,9}[.)])(?:[ \t]+|(?=\n)|$)/y;
const FENCE = / {0,3}(`{3,}|~{3,})/y;

/** The fence a line opens or closes with, if it does: matched in place, no copy of the line. */
function fenceAt(body: string, start: number, end: number): string | undefined {
  FENCE.lastIndex = start;
  const match = FENCE.exec(body);
  return match !== null && FENCE.lastIndex <= end ? match[1] : undefined;
}

/** The first limit `body[from, to)` goes past, with `work` carried over from the parts before; null when it stays within all. */
export function limitPassed(body: string, from: number, to: number, work: ScanWork): ScanLimit | null {
  const deep = deeperThan(body, from, to, MAX_LIST_NESTING);
  if (deep !== null) return { kind: 'nesting', at: deep };
  return costlyLines(body, from, to, work);
}

/**
 * The lazy-line, emphasis and opener work of each line, and its weight
 * toward the block limits. A line opening a
 * quote or list item starts a container paragraph; a later line with
 * neither `>`, a list marker nor indentation continues it lazily and costs
 * the paragraph's lines so far. A paragraph's emphasis runs are squared when
 * it ends (a blank line, a fence, the part's end).
 */
function costlyLines(body: string, from: number, to: number, work: ScanWork): ScanLimit | null {
  let container = 0; // lines of the current container paragraph, 0 outside one
  let runs = 0; // `*` and `_` runs of the current paragraph
  let paragraphStart = from;
  let fence: string | null = null;
  let lines = 0; // weighted lines of this part
  const endParagraph = (): boolean => {
    work.emphasis += runs * runs;
    runs = 0;
    return work.emphasis > MAX_EMPHASIS_WORK;
  };
  for (let start = from; start < to; ) {
    let end = body.indexOf('\n', start);
    if (end === -1 || end > to) end = to;
    const quotes = containersOf(body, start, end);
    lines += 1 + quotes + (quotes === 0 && container > 0 ? 1 : 0); // a line inside a list item weighs one more
    if (lines > MAX_BLOCK_LINES) return { kind: 'long-block', at: start };
    const fenceMark = fenceAt(body, start, end);
    if (fence !== null) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && body.slice(start, end).trim() === fenceMark) fence = null;
      start = end + 1;
      continue;
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      container = 0;
      if (endParagraph()) return { kind: 'inline-markup', at: paragraphStart };
      start = end + 1;
      paragraphStart = start;
      continue;
    }
    let i = start;
    while (i < end && body.charCodeAt(i) === 0x20) i++;
    const c = body.charCodeAt(i);
    if (i === end || (i === end - 1 && c === 0x0d)) {
      container = 0; // blank: the paragraph ends
      if (endParagraph()) return { kind: 'inline-markup', at: paragraphStart };
      paragraphStart = end + 1;
    } else {
      let text = i; // where the line's inline content starts
      if (c === 0x3e) container++; // `>`: the quote goes on (not lazy), or starts
      else if (i - start < 4 && ((LIST_MARKER.lastIndex = i), LIST_MARKER.test(body))) {
        // A new item: a new flow, and a new paragraph (its marker no emphasis).
        container = 1;
        if (endParagraph()) return { kind: 'inline-markup', at: paragraphStart };
        paragraphStart = start;
        text = LIST_MARKER.lastIndex;
      } else if (container > 0 && i === start) {
        work.lazy += container++;
        if (work.lazy > MAX_LAZY_WORK) return { kind: 'lazy-lines', at: start };
      } else if (container > 0) container++;
      runs += delimiterRuns(body, text, end);
      work.openers += openers(body, i, end);
      if (work.openers > MAX_OPENERS) return { kind: 'inline-markup', at: start };
    }
    start = end + 1;
  }
  if (endParagraph()) return { kind: 'inline-markup', at: paragraphStart };
  if (lines > SMALL_PART_LINES && (work.lines += lines) > MAX_BODY_BLOCK_LINES) return { kind: 'long-block', at: from };
  return null;
}

/** The `>` markers starting a line (up to four counted). */
function containersOf(body: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to && count < 4; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x3e) count++;
    else if (c !== 0x20) break;
  }
  return count;
}

function delimiterRuns(body: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = body.charCodeAt(i);
    if ((c === 0x2a || c === 0x5f) && body.charCodeAt(i - 1) !== c) count++; // `*`, `_`: a run starts
  }
  return count;
}

function openers(body: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x5b || c === 0x3c) count++; // `[`, `<`
  }
  return count;
}

/**
 * The offset of the first line of `body[from, to)` where list items nest
 * deeper than `limit`, or null. Nesting is read off indentation as
 * CommonMark reads it for well-formed lists — an item opens at its marker's
 * column and holds the lines indented to its content — without following
 * laziness or code: an estimate that a list as deep as the limit reaches.
 */
function deeperThan(body: string, from: number, to: number, limit: number): number | null {
  const open: number[] = []; // content columns of the open items
  for (let start = from; start < to; ) {
    let end = body.indexOf('\n', start);
    if (end === -1 || end > to) end = to;
    let i = start;
    let column = 0;
    for (; i < end; i++) {
      const c = body.charCodeAt(i);
      if (c === 0x20 || c === 0x3e) column++; // space, `>`
      else if (c === 0x09) column += 4 - (column % 4);
      else break;
    }
    if (i < end) {
      while (open.length > 0 && column < open[open.length - 1]!) open.pop();
      // `- - x` opens two items on one line.
      for (LIST_MARKER.lastIndex = i; i < end && LIST_MARKER.test(body); i = LIST_MARKER.lastIndex) {
        const width = LIST_MARKER.lastIndex - i;
        column += width;
        open.push(column);
        if (open.length > limit) return start;
      }
    }
    start = end + 1;
  }
  return null;
}
