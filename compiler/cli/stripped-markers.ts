/**
 * The marker lines `render --show-stripped` prints for removed comments:
 * inside a part's text where the comment was, or under its heading when the
 * place is not in the text (a dynamic section's template) or not known.
 */
import { terminalSafe } from '../diagnostics/terminal-safe.js';
import type { StrippedComment } from '../runtime/manifest.js';
import { plural } from './shared.js';
import type { PartStripped } from './stripped-parts.js';

type Style = (s: string) => string;

export function strippedMarker(comment: StrippedComment, from = ''): string {
  return `⟪stripped${from}: HTML comment, ${comment.bytes} bytes, ${terminalSafe(comment.file)}:${comment.line}⟫`;
}

/** The lines to print under a part's heading, before its text: none when the markers go in the text. */
export function headingMarkers(stripped: PartStripped | null, style: Style): string[] {
  if (stripped === null || stripped.in === 'text') return [];
  if (stripped.in === 'template') {
    // The template's offsets say nothing of where its output moved them: the comments are named, not placed.
    return stripped.at.map((comment) => style(strippedMarker(comment, ' from the template, before it rendered')));
  }
  if (stripped.in === 'unrecorded') {
    const what = `${plural(stripped.comments, 'HTML comment')}, ${stripped.bytes} bytes`;
    return [style(`⟪stripped: ${what}; this bundle does not record where (rebuild it to see)⟫`)];
  }
  return [style('⟪stripped?: several texts read like this one, not all with the same HTML comments removed; where is not shown (inspect --json lists each)⟫')];
}

/**
 * `text` with a marker line at each place a comment was removed (`at`:
 * UTF-8 byte offsets into `text`, in order). A marker gets a line of its
 * own: at a line start it goes before that line; inside a line (a fragment
 * whose last line was spliced into its includer's) the line is broken there.
 * `show` is applied to the text's pieces (made safe for a terminal), never to the markers.
 */
export function markText(text: string, at: readonly StrippedComment[], style: Style, show: Style = (s) => s): string {
  const pieces: string[] = [];
  let index = 0;
  let bytes = 0;
  let copied = 0;
  for (let i = 0; i < at.length; ) {
    const { offset } = at[i]!;
    while (bytes < offset && index < text.length) {
      const code = text.codePointAt(index)!;
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      index += code >= 0x10000 ? 2 : 1;
    }
    const markers: string[] = [];
    for (; i < at.length && at[i]!.offset === offset; i++) markers.push(style(strippedMarker(at[i]!)));
    const block = markers.join('\n');
    pieces.push(show(text.slice(copied, index)));
    copied = index;
    const atEnd = index === text.length;
    if (index === 0 || text[index - 1] === '\n') pieces.push(atEnd ? block : `${block}\n`);
    else pieces.push(atEnd || text[index] === '\n' ? `\n${block}` : `\n${block}\n`);
  }
  pieces.push(show(text.slice(copied)));
  return pieces.join('');
}
