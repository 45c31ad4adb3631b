/**
 * Text from user files on its way to a terminal. A file name or excerpt may
 * hold ANSI escapes (which can rewrite the screen or the window title),
 * control characters, or invisible and direction-changing characters (which
 * make a path look like another): each is shown as an escape instead.
 */

/** Control characters, DEL, C1 controls; zero-width, bidi controls and the BOM. */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

const NAMED: Record<string, string> = { '\u001b': '\\e', '\n': '\\n', '\r': '\\r', '\u0000': '\\0' };

/** `s` with every unsafe character escaped (`\e`, `\x07`, `\u{200b}`); tabs are kept. */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, escapeChar);
}

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Widest excerpt shown, in characters: a diagnostic stays a few lines, whatever the line it points into. */
export const EXCERPT_WIDTH = 120;

/**
 * The part of a source line to show, made safe, with the caret's place in
 * it. A long line is cut to a window around `column` (1-based), marked `…`
 * where it was cut.
 */
export function excerptWindow(line: string, column: number): { text: string; caret: number } {
  const at = Math.max(0, Math.min(column - 1, line.length));
  let start = 0;
  let end = line.length;
  if (line.length > EXCERPT_WIDTH) {
    start = Math.max(0, Math.min(at - Math.floor(EXCERPT_WIDTH / 2), line.length - EXCERPT_WIDTH));
    end = start + EXCERPT_WIDTH;
  }
  const head = start > 0 ? '…' : '';
  const tail = end < line.length ? '…' : '';
  const show = (s: string) => terminalSafe(s.replace(/\t/g, ' '));
  return { text: head + show(line.slice(start, end)) + tail, caret: head.length + show(line.slice(start, at)).length };
}
