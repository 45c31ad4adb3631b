/**
 * Where a file's code is: fenced and indented code blocks and code spans,
 * read from micromark's events as markdown/prose.ts reads prose. What a
 * prompt shows as code (a shell `${HOME}`, a dated example, a half of an
 * XML snippet) is quoted, not written: the built-in rules skip it.
 */
import { postprocess, preprocess } from 'micromark';
import { markdownParser, type Range } from '../markdown/prose.js';
import { withInPlaceEdits } from '../markdown/micromark-edits.js';
import type { Source } from '../markdown/source.js';

const CODE: ReadonlySet<string> = new Set(['codeFenced', 'codeIndented', 'codeText']);

/** The code ranges of a source's body, as offsets into its text, in order. */
export function codeRanges(source: Pick<Source, 'body' | 'bodyOffset'>): Range[] {
  const parser = markdownParser();
  const events = withInPlaceEdits(() => postprocess(parser.document().write(preprocess()(source.body, undefined, true))));
  const ranges: Range[] = [];
  let open: unknown = null;
  for (const [kind, token] of events) {
    if (open === null && kind === 'enter' && CODE.has(token.type)) {
      open = token;
      ranges.push({ start: source.bodyOffset + token.start.offset, end: source.bodyOffset + token.end.offset });
    } else if (kind === 'exit' && token === open) {
      open = null;
    }
  }
  return ranges;
}

/** Whether `offset` is in one of the sorted `ranges`. */
export function inRanges(ranges: readonly Range[], offset: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = ranges[mid]!;
    if (offset < range.start) hi = mid - 1;
    else if (offset >= range.end) lo = mid + 1;
    else return true;
  }
  return false;
}
