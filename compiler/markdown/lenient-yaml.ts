/**
 * Claude Code's second reading of frontmatter that strict YAML refuses:
 * values such as `description: Triggers on: 'x'` or `` hint: `npm test` ``
 * are quoted and parsed again. prompt-build accepts what that loader
 * accepts, and says which line it had to quote and how to write it.
 *
 * Only the line the parser stops at is quoted, one at a time, so a value
 * that parses (`tools: [Read, Grep]`) keeps its meaning. Where the second
 * reading stops too, that place and the reason are the answer: the strict
 * parser's first complaint is often a line this reading has already taken.
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

/** Where the second reading stops, in the YAML source as written. */
export interface LenientStop {
  offset: number;
  /** Why, in plain words: the stopping line's own problem, not the strict parser's wording when there is a plainer one. */
  reason: string;
  /**
   * The key whose value the stopping line seems to go on with, written
   * without indentation (`description: … Examples:` then `<example>` at
   * the margin); `line` is 0-based in the YAML source.
   */
  continues?: { key: string; line: number };
}

export type LenientResult = { ok: true; value: unknown; quoted: QuotedLine[] } | { ok: false; quoted: QuotedLine[]; stop: LenientStop };

export type StrictParse = (source: string) => { ok: true; value: unknown } | { ok: false; offset: number; message: string };

const TOP_LEVEL_PAIR = /^([A-Za-z_][\w.-]*):[ \t]+(\S.*?)[ \t]*$/;
/** A value that is one quoted scalar, a comment at most after it. */
const QUOTED_WHOLE = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')(?:[ \t]+#.*)?$/;
/** A line that starts a top-level key, whatever follows. */
const TOP_LEVEL_KEY = /^([A-Za-z_][\w.-]*):(?:[ \t]|$)/;

/** Lines quoted at most: each try parses the whole frontmatter again, and a real file needs one or two. */
const MAX_QUOTED = 16;

/** Bytes parsed again at most, all tries together: a 700 KB frontmatter quoted 16 times took 9 s. */
const MAX_REPARSED_BYTES = 1024 * 1024;

export function parseLeniently(source: string, parse: StrictParse): LenientResult {
  const written = source.split('\n');
  const lines = [...written];
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  const quoted: QuotedLine[] = [];
  const attempts = Math.min(lines.length, MAX_QUOTED, Math.floor(MAX_REPARSED_BYTES / Math.max(1, source.length)));
  let first: { offset: number; message: string } | undefined;
  for (let attempt = 0; ; attempt++) {
    const result = parse(lines.join('\n'));
    if (result.ok) return { ok: true, value: result.value, quoted };
    first ??= result;
    const { line, column } = lineAt(lines, result.offset);
    // The offset is in the text with earlier lines quoted: the same line and column of the source as written.
    const offset = starts[line]! + Math.min(column, written[line]!.length);
    const stop = (reason: string): LenientResult => ({ ok: false, quoted, stop: { offset, reason, ...continuation(lines, line) } });
    // Out of tries, the reading did not stop anywhere in particular: the strict parser's complaint is the answer.
    if (attempt >= attempts) return { ok: false, quoted, stop: { offset: first.offset, reason: first.message } };
    const pair = TOP_LEVEL_PAIR.exec(lines[line] ?? '');
    // Only a plain one-line value can be quoted; anything else is a YAML error as it stands.
    if (!pair) return stop(atMargin(lines[line]!) && !TOP_LEVEL_KEY.test(lines[line]!) ? `'${shortLine(lines[line]!)}' is not a 'key: value' line` : result.message);
    const [, key, value] = pair as unknown as [string, string, string];
    if (quoted.some((q) => q.key === key)) return stop(result.message);
    // A value in quotes stays as written; one that only starts with a quote (`"Use this…" Examples: …`) is quoted whole, quote and all.
    if (QUOTED_WHOLE.test(value)) return stop(result.message);
    // `[a, b` is a list missing its bracket, not prose: that stays an error.
    if (/^[[{]/.test(value) && !value.includes(value[0] === '[' ? ']' : '}')) return stop(`'${key}' opens a ${value[0] === '[' ? 'list' : 'mapping'} it never closes`);
    const valueAt = lines[line]!.indexOf(value, key.length + 1);
    const { column: at, reason } = offendingCharacter(value);
    quoted.push({ offset: starts[line]! + valueAt + at, key, value, reason });
    lines[line] = `${key}: ${JSON.stringify(value)}`;
  }
}

/** 0-based line and column of an offset. */
function lineAt(lines: readonly string[], offset: number): { line: number; column: number } {
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const next = at + lines[i]!.length + 1;
    if (offset < next) return { line: i, column: offset - at };
    at = next;
  }
  return { line: lines.length - 1, column: lines.at(-1)!.length };
}

/**
 * The key a line at the margin that is not `key: value` goes on with: the
 * nearest top-level key above it whose value is plain text on its own line
 * (a block scalar or a nested mapping would be indented below it).
 */
function continuation(lines: readonly string[], line: number): Pick<LenientStop, 'continues'> {
  const text = lines[line] ?? '';
  if (!atMargin(text) || TOP_LEVEL_KEY.test(text)) return {};
  for (let i = line - 1; i >= 0; i--) {
    const above = lines[i]!;
    const key = TOP_LEVEL_KEY.exec(above);
    if (key) return TOP_LEVEL_PAIR.test(above) ? { continues: { key: key[1]!, line: i } } : {};
  }
  return {};
}

/** A line of text at the left margin: not indented, not blank, not a comment. */
function atMargin(line: string): boolean {
  return /^[^\s#]/.test(line);
}

/** A line as a message shows it: its first 40 characters. */
function shortLine(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > 40 ? `${trimmed.slice(0, 39)}…` : trimmed;
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
  '"': 'a quoted value must end where its quotes close',
  "'": 'a quoted value must end where its quotes close',
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
