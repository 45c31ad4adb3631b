/**
 * Parsing a template with Handlebars itself, turning its errors into a
 * one-line message and a 1-based position. `Handlebars.parse` already applies
 * whitespace control (`~`) and standalone-line stripping, so the AST it
 * returns is exactly what `Handlebars.compile` would compile.
 */
import Handlebars from 'handlebars';
import type { Program } from './ast.js';

export interface TemplateError {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export type ParseResult = { ok: true; ast: Program } | { ok: false; error: TemplateError };

/**
 * Deepest block nesting parsed (`{{else if}}` chains count, as they nest in
 * the AST). Handlebars' parser and every walk over its AST recurse per
 * level: 5,000 nested `{{#if}}` overflowed the stack after 12 s.
 */
export const MAX_TEMPLATE_NESTING = 100;

/**
 * Most tags (`{{…}}`, comments included) one template may hold. Each print
 * becomes a few hundred bytes of inlined JavaScript, the fast path's speed:
 * 150,000 of them made a 43 MB module in 4.5 s. A hand-written template
 * holds hundreds.
 */
export const MAX_TEMPLATE_TAGS = 20_000;

/**
 * Most path segments (`a.b.c` is three) in one template: each is a lookup
 * of the generated code, inlined — 19,000 prints of 26-part paths made
 * 140 MB of modules.
 */
export const MAX_PATH_SEGMENTS = 40_000;

export function parseTemplate(source: string): ParseResult {
  const problem = structureProblem(source);
  if (problem !== null) return { ok: false, error: problem };
  try {
    const ast = Handlebars.parse(source) as unknown as Program;
    const heavy = pathsOverLimit(ast);
    return heavy === null ? { ok: true, ast } : { ok: false, error: heavy };
  } catch (error) {
    return { ok: false, error: templateError(error) };
  }
}

/**
 * Where (1-based) a template first holds more than `MAX_TEMPLATE_TAGS` tags
 * or nests blocks deeper than `MAX_TEMPLATE_NESTING`, read off the tags
 * alone — `{{#…}}` and `{{^…}}` open, `{{else if …}}` nests once more until
 * its block closes, `{{/…}}` closes, comments skipped — or null.
 */
function structureProblem(source: string): TemplateError | null {
  const levels: number[] = []; // per open block, the levels its close ends (1 + its else-ifs)
  let depth = 0;
  let tags = 0;
  const at1 = (at: number, message: string): TemplateError => {
    const before = source.slice(0, at);
    return { message, line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
  };
  for (let at = source.indexOf('{{'); at !== -1; at = source.indexOf('{{', at + 2)) {
    if (++tags > MAX_TEMPLATE_TAGS) return at1(at, `more than ${MAX_TEMPLATE_TAGS.toLocaleString('en-US')} tags in one template`);
    let i = at + 2;
    if (source[i] === '~') i++;
    const c = source[i];
    if (c === '!') {
      const end = source.startsWith('!--', i) ? source.indexOf('--}}', i + 3) : source.indexOf('}}', i);
      if (end === -1) return null;
      at = end;
      continue;
    }
    let opened = false;
    if (c === '#' || (c === '^' && !/^\^\s*~?\}\}/.test(source.slice(i, i + 4)))) {
      levels.push(1);
      opened = true;
    } else if (c === '/') depth -= levels.pop() ?? 0;
    else if (/^else\s+[^\s}~]/.test(source.slice(i, i + 16)) && levels.length > 0) {
      levels[levels.length - 1]!++;
      opened = true;
    }
    if (opened && ++depth > MAX_TEMPLATE_NESTING) return at1(at, `blocks nested more than ${MAX_TEMPLATE_NESTING} deep (else-if chains count)`);
  }
  return null;
}

/** Where (in source order) the template's path segments pass `MAX_PATH_SEGMENTS`, or null: one walk over the AST with a stack of its own. */
function pathsOverLimit(ast: Program): TemplateError | null {
  let segments = 0;
  const pending: unknown[] = [ast];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    // Pushed last to first, so that they are taken first to last.
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) pending.push(node[i]);
      continue;
    }
    const record = node as { type?: unknown; parts?: unknown; loc?: { start: { line: number; column: number } } };
    if (record.type === 'PathExpression' && Array.isArray(record.parts)) {
      segments += Math.max(1, record.parts.length);
      if (segments > MAX_PATH_SEGMENTS && record.loc) {
        const message = `more than ${MAX_PATH_SEGMENTS.toLocaleString('en-US')} path segments in one template`;
        return { message, line: record.loc.start.line, column: record.loc.start.column + 1 };
      }
    }
    const children = Object.entries(record).filter(([key, value]) => key !== 'loc' && typeof value === 'object');
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]![1]);
  }
  return null;
}

/** Parses, or throws an Error whose message carries the position: for callers that were promised a valid template. */
export function parseOrThrow(source: string): Program {
  const result = parseTemplate(source);
  if (!result.ok) {
    const { message, line, column } = result.error;
    throw new Error(`invalid Handlebars template (${line}:${column}): ${message}`);
  }
  return result.ast;
}

/**
 * The position of an error thrown while parsing or compiling a template.
 * Handlebars throws two kinds: its own `Exception`, which carries the node's
 * `lineNumber` and 0-based `column`; and the generated Jison parser's plain
 * `Error`, whose only position is in its multi-line message. For the latter
 * the shared lexer still holds the location of the token it stopped at (the
 * parse is synchronous, so nothing has reset it yet).
 */
export function templateError(error: unknown): TemplateError {
  if (!(error instanceof Error)) return { message: String(error), line: 1, column: 1 };
  const exception = error as Error & { lineNumber?: unknown; column?: unknown };
  if (typeof exception.lineNumber === 'number' && typeof exception.column === 'number') {
    // Exception messages end with " - line:column"; the position is reported separately.
    const message = error.message.replace(/ - \d+:\d+$/, '');
    return { message, line: exception.lineNumber, column: exception.column + 1 };
  }
  const location = lexerLocation();
  if (error.message.startsWith('Lexical error') && location) {
    // The unrecognised text starts where the last recognised token ended.
    return { message: 'unrecognised text', line: location.last_line, column: location.last_column + 1 };
  }
  if (error.message.startsWith('Parse error') && location) {
    return { message: parseErrorMessage(error.message), line: location.first_line, column: location.first_column + 1 };
  }
  return { message: error.message.split('\n')[0] ?? error.message, line: 1, column: 1 };
}

interface JisonLocation {
  first_line: number;
  last_line: number;
  first_column: number;
  last_column: number;
}

function lexerLocation(): JisonLocation | undefined {
  const parser = (Handlebars as unknown as { Parser?: { lexer?: { yylloc?: JisonLocation } } }).Parser;
  return parser?.lexer?.yylloc;
}

/** "Parse error on line 3:\n<excerpt>\n---^\nExpecting 'A', 'B', got 'EOF'" → one readable line without the excerpt. */
function parseErrorMessage(message: string): string {
  const last = message.split('\n').at(-1) ?? message;
  const found = /^Expecting (.*), got '(.*)'$/.exec(last);
  if (!found) return last;
  const [, expected = '', got = ''] = found;
  const tokens = expected.split(', ').map((token) => tokenName(token.replace(/^'|'$/g, '')));
  // A long list of what could have come is noise; a short one is the fix.
  const hint = tokens.length <= 3 ? `, expecting ${tokens.join(' or ')}` : '';
  return `unexpected ${tokenName(got)}${hint}`;
}

/** The parser's token names, as an author would recognise them. */
const TOKENS: Record<string, string> = {
  EOF: 'end of template',
  INVALID: 'invalid text',
  CLOSE: '}}',
  CLOSE_UNESCAPED: '}}}',
  OPEN_ENDBLOCK: '{{/…}}',
  INVERSE: '{{else}}',
  OPEN_INVERSE_CHAIN: '{{else …}}',
  OPEN_SEXPR: '(',
  CLOSE_SEXPR: ')',
  EQUALS: '=',
  ID: 'a name',
};

function tokenName(token: string): string {
  return TOKENS[token] ?? token;
}
