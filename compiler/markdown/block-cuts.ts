/**
 * Where a Markdown body can be cut so that each part, tokenized alone, holds
 * exactly the prose the whole would (same text nodes and block HTML, shifted
 * by the part's offset). The scanner then tokenizes only the parts that hold
 * something to find (scan.ts): an include line in a long prompt costs its
 * paragraph, not the prompt.
 *
 * A cut goes before a bullet list item in column 0 whose content starts as a
 * paragraph (`BULLET_ITEM`: a long list is cut between its items), and
 * before a line that starts in column 0 right after a blank line,
 * the last line before which also started in column 0 (micromark reads the
 * line after an indented code block and its blank lines as if it interrupted
 * a paragraph: `2. x` there is text, not a list). There CommonMark has closed every container (a list item goes on only with
 * indented lines, a block quote only with `>` lines, and laziness only
 * continues a paragraph, which the blank line ended) and every leaf block
 * except two that run across blank lines: fenced code and HTML blocks of
 * types 1–5. This reader follows those two where they open in column 0, and
 * gives up (no cut at all) wherever it could not follow exactly:
 *  - a link reference definition (`]:` anywhere), which reaches across the document;
 *  - a fence or `<` after indentation or a container marker, which may open a
 *    block inside a container;
 *  - HTML of types 1, 3, 4 and 5 (`<script`, `<pre`, `<style`, `<textarea`, `<?`, `<!X`);
 *  - a fence or comment in the lines after a column-0 `<`, which may have
 *    opened HTML of type 6 or 7 (ending at the next blank line, swallowing them);
 *  - a backtick fence whose info string holds a backtick (inline code, not a
 *    fence), and comments written `<!-->` or `<!--->`.
 * test/markdown/block-cuts.test.ts holds the parts to the whole document.
 */

/** A fence or `<` that starts a line after indentation or container markers. */
const OPENER_NOT_IN_COLUMN_0 = /^[ \t>*+\-\d.)]+(?:```|~~~|<)/m;
/** HTML block starts of the kinds that run across blank lines, the comment (type 2) aside. */
const LONG_HTML = /^<(?:[!?]|(?:script|pre|style|textarea)(?:[\s>]|$))/i;
const FENCE_OPENER = /^(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const BLANK = /^[ \t]*$/;

interface Fence {
  char: string;
  length: number;
}

/**
 * A bullet list item in column 0 whose content starts as a paragraph: it
 * starts a top-level block whatever line comes before (a list item ends
 * there, a paragraph is interrupted, which a bullet item that is not empty
 * may do), so a long list is cut between its items. Not when its content may
 * open a block of its own (`- - x`, `- 1.`, `- > q`, `- ***`: an empty item
 * cannot interrupt a paragraph, nor an ordered one that does not start at 1),
 * and not before ordered items or block quote lines, which may continue what
 * is above them.
 */
const BULLET_ITEM = /^[-*+][ \t]+[^\s\-*+_>#`~<=\d]/;

/** Offsets of line starts where `body` may be cut, in order; none when this reader cannot tell. */
export function blockCuts(body: string): number[] {
  if (body.includes(']:') || body.includes('\r') || OPENER_NOT_IN_COLUMN_0.test(body)) return [];
  const cuts: number[] = [];
  let fence: Fence | null = null;
  let inComment = false;
  /** Since the last blank line, a column-0 `<` was seen: HTML of type 6 or 7 may be open. */
  let maybeHtml = false;
  let afterBlank = false;
  /** The last line that was not blank started with a space or a tab. */
  let afterIndented = false;
  for (let start = 0; start < body.length; ) {
    const newline = body.indexOf('\n', start);
    const end = newline === -1 ? body.length : newline;
    const line = body.slice(start, end);
    const blank = BLANK.test(line);
    if (fence) {
      const closer = FENCE_CLOSER.exec(line);
      if (closer && closer[1]![0] === fence.char && closer[1]!.length >= fence.length) fence = null;
    } else if (inComment) {
      inComment = !line.includes('-->');
    } else if (blank) {
      maybeHtml = false;
    } else {
      const first = line[0];
      if (afterBlank && !afterIndented && first !== ' ' && first !== '\t') cuts.push(start);
      else if (start > 0 && !maybeHtml && BULLET_ITEM.test(line)) cuts.push(start);
      if (first === '`' || first === '~') {
        const opener = FENCE_OPENER.exec(line);
        if (opener) {
          if (maybeHtml || (first === '`' && opener[2]!.includes('`'))) return [];
          fence = { char: first, length: opener[1]!.length };
        }
      } else if (first === '<') {
        if (line.startsWith('<!--')) {
          if (maybeHtml || /^<!---?>/.test(line)) return [];
          inComment = line.indexOf('-->', 4) === -1;
        } else if (LONG_HTML.test(line)) {
          return [];
        } else {
          maybeHtml = true;
        }
      }
    }
    afterBlank = blank;
    if (!blank) afterIndented = line[0] === ' ' || line[0] === '\t';
    start = end + 1;
  }
  return cuts;
}
