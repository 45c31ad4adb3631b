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

/**
 * A multi-line text made safe line by line: its line breaks kept, every
 * other unsafe character escaped. For prompt text a command prints.
 */
export function terminalSafeLines(s: string): string {
  return s.split('\n').map(terminalSafe).join('\n');
}

/** What JSON.stringify leaves unescaped that a terminal may act on or hide: DEL, C1, invisible and bidi characters, line separators. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * JSON for a terminal: `JSON.stringify`, with those characters written as
 * `\uXXXX` — valid JSON that parses to exactly the same data (outside
 * strings JSON holds none of them).
 */
export function terminalSafeJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
