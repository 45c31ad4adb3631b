/**
 * Claude Code's second reading of frontmatter that strict YAML refuses:
 * values such as `description: Triggers on: 'x'` or `` hint: `npm test` ``
 * are quoted and parsed again. prompt-build accepts what that loader
 * accepts, and says which line it had to quote and how to write it.
 *
 * Only the line the parser stops at is quoted, one at a time, so a value
 * that parses (`tools: [Read, Grep]`) keeps its meaning.
 */

/** A line read as if its value were quoted. */
export interface QuotedLine {
  /** Offset in the YAML source of the character that needs the quotes. */
  offset: number;
  key: string;
  value: string;
  /** What stops strict YAML, in plain words. */
  reason: string;
}

export type StrictParse = (source: string) => { ok: true; value: unknown } | { ok: false; offset: number };

const TOP_LEVEL_PAIR = /^([A-Za-z_][\w.-]*):[ \t]+(\S.*?)[ \t]*$/;

/** Lines quoted at most: each try parses the whole frontmatter again, and a real file needs one or two. */
const MAX_QUOTED = 16;

/** Bytes parsed again at most, all tries together: a 700 KB frontmatter quoted 16 times took 9 s. */
const MAX_REPARSED_BYTES = 1024 * 1024;

export function parseLeniently(source: string, parse: StrictParse): { value: unknown; quoted: QuotedLine[] } | null {
  const lines = source.split('\n');
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  const quoted: QuotedLine[] = [];
  const attempts = Math.min(lines.length, MAX_QUOTED, Math.floor(MAX_REPARSED_BYTES / Math.max(1, source.length)));
  for (let attempt = 0; attempt <= attempts; attempt++) {
    const result = parse(lines.join('\n'));
    if (result.ok) return { value: result.value, quoted };
    const line = lineAt(lines, result.offset);
    const pair = TOP_LEVEL_PAIR.exec(lines[line] ?? '');
    // Only a plain one-line value can be quoted; anything else is a YAML error as it stands.
    if (!pair || quoted.some((q) => q.key === pair[1]) || /^["']/.test(pair[2]!)) return null;
    const [, key, value] = pair as unknown as [string, string, string];
    // `[a, b` is a list missing its bracket, not prose: that stays an error.
    if (/^[[{]/.test(value) && !value.includes(value[0] === '[' ? ']' : '}')) return null;
    const valueAt = lines[line]!.indexOf(value, key.length + 1);
    const { column, reason } = offendingCharacter(value);
    quoted.push({ offset: starts[line]! + valueAt + column, key, value, reason });
    lines[line] = `${key}: ${JSON.stringify(value)}`;
  }
  return null;
}

function lineAt(lines: readonly string[], offset: number): number {
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    at += lines[i]!.length + 1;
    if (offset < at) return i;
  }
  return lines.length - 1;
}

const STARTS: Readonly<Record<string, string>> = {
  '@': "'@' cannot start a plain YAML value",
  '`': 'a backtick cannot start a plain YAML value',
  '%': "'%' cannot start a plain YAML value",
  '*': "'*' at the start of a value reads as an alias",
  '&': "'&' at the start of a value reads as an anchor",
  '!': "'!' at the start of a value reads as a tag",
  '|': "'|' at the start of a value begins a block scalar",
  '>': "'>' at the start of a value begins a block scalar",
  '{': "'{' at the start of a value begins a mapping",
  '[': "'[' at the start of a value begins a list",
};

function offendingCharacter(value: string): { column: number; reason: string } {
  const first = STARTS[value[0]!];
  if (first) return { column: 0, reason: first };
  const colon = value.indexOf(': ');
  if (colon !== -1) return { column: colon, reason: "': ' inside a plain value reads as a nested mapping" };
  const hash = value.indexOf(' #');
  if (hash !== -1) return { column: hash + 1, reason: "' #' starts a YAML comment" };
  return { column: 0, reason: 'strict YAML cannot read this value unquoted' };
}
