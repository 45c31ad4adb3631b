/**
 * Characters a reader cannot see in a prompt's text: control characters
 * (C0 but tab and line feed, DEL, C1), which a terminal acts on instead of
 * showing — `\r\e[K` hides a line from whoever reviews it there — and the
 * bidirectional embedding, override and isolate controls, which reorder
 * how the text around them is shown (what a reviewer reads is not what the
 * model gets). Each kind is one rule, an error by default, that a project
 * whose texts are meant to hold them lowers in its config's `rules`.
 *
 * Checked on the normalised text (CRLF is already LF, so a CR here is a
 * lone one): one native regex pass per file; positions only on a hit. One
 * problem per rule and file, at the first such character, with the count.
 */
import type { Problem } from './source.js';

export const CONTROL_RULE = 'source/control-character';
export const BIDI_RULE = 'source/bidi-control';

/** NUL never gets here: text-check refuses a file holding one. */
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

const C0_NAMES = ['NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'BEL', 'BS', 'HT', 'LF', 'VT', 'FF', 'CR', 'SO', 'SI', 'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC', 'FS', 'GS', 'RS', 'US'];
const BIDI_NAMES: Record<string, string> = {
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/** One kind of invisible character: its rule, how to find it, and how to word a problem at its first place. */
interface Kind {
  rule: typeof CONTROL_RULE | typeof BIDI_RULE;
  pattern: RegExp;
  /** The character found, named, and what it does to whoever reads the text. */
  what: (c: string) => { name: string; effect: string };
  /** Which projects lower the rule: "a project whose texts …". */
  whoseTexts: string;
}

const KINDS: readonly Kind[] = [
  {
    rule: CONTROL_RULE,
    pattern: CONTROL,
    what: (c) => ({ name: `control character ${describe(c)}`, effect: 'a terminal acts on it instead of showing it, so the text a reviewer sees there is not the text the model gets' }),
    whoseTexts: 'are meant to hold control characters',
  },
  {
    rule: BIDI_RULE,
    pattern: BIDI,
    what: (c) => ({ name: `bidirectional control ${codePoint(c)} ${BIDI_NAMES[c]}`, effect: 'it reorders how the text around it is shown, so what a reviewer reads is not what the model gets' }),
    whoseTexts: 'need it',
  },
];

/** The problems of `text` (a whole normalised file: offsets are into it), none for clean text. */
export function invisibleCharacterProblems(text: string): Problem[] {
  const problems: Problem[] = [];
  for (const { rule, pattern, what, whoseTexts } of KINDS) {
    const found = firstAndCount(text, pattern);
    if (!found) continue;
    const { name, effect } = what(text[found.offset]!);
    problems.push({
      rule,
      offset: found.offset,
      message: `${name} in the text${more(found.count)}: ${effect}`,
      note: `remove it; a project whose texts ${whoseTexts} sets rules: { '${rule}': 'warning' } (or 'off') in its config`,
    });
  }
  return problems;
}

function firstAndCount(text: string, pattern: RegExp): { offset: number; count: number } | null {
  pattern.lastIndex = 0;
  const first = pattern.exec(text);
  if (!first) return null;
  let count = 1;
  while (pattern.exec(text)) count++;
  return { offset: first.index, count };
}

function describe(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return `${codePoint(c)} (${C0_NAMES[code]})`;
  if (code === 0x7f) return `${codePoint(c)} (DEL)`;
  return `${codePoint(c)} (a C1 control)`;
}

function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function more(count: number): string {
  return count > 1 ? ` (the first of ${count} in this file)` : '';
}
