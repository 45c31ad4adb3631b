/**
 * Reading typed fields out of parsed frontmatter, with positions: a field
 * error points at the line of its key (or list item), not at line 1.
 */
import { diagnostic, lineText, type Diagnostic, type RuleId, type Severity } from '../diagnostics/diagnostics.js';
import type { Source } from '../markdown/source.js';

export type FieldSource = Pick<Source, 'rel' | 'text' | 'bodyOffset'>;

/** Position of `key:` in the frontmatter (1-based), or line 1 when not written. */
export function fieldPosition(source: FieldSource, key: string): { line: number; column: number; excerpt: string } {
  const lines = source.text.slice(0, source.bodyOffset).split('\n');
  const keyPattern = new RegExp(`^(\\s*)${escapeRegExp(key)}\\s*:`);
  for (let i = 0; i < lines.length; i++) {
    const match = keyPattern.exec(lines[i]!);
    if (match) return { line: i + 1, column: (match[1]?.length ?? 0) + 1, excerpt: lines[i]! };
  }
  return { line: 1, column: 1, excerpt: lineText(source.text, 1) };
}

/** Position of a list item `value` written under `key` (block or flow list), else of the key. */
export function itemPosition(source: FieldSource, key: string, value: string): { line: number; column: number; excerpt: string } {
  const keyAt = fieldPosition(source, key);
  const lines = source.text.slice(0, source.bodyOffset).split('\n');
  for (let i = keyAt.line - 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (i > keyAt.line - 1 && /^\S/.test(line)) break; // next top-level key
    const column = findWord(line, value, i === keyAt.line - 1 ? keyAt.column + key.length : 0);
    if (column !== -1) return { line: i + 1, column: column + 1, excerpt: line };
  }
  return keyAt;
}

function findWord(line: string, word: string, from: number): number {
  const match = new RegExp(`(^|[\\s\\[,'"-])(${escapeRegExp(word)})(?=$|[\\s\\],'"#])`).exec(line.slice(from));
  return match ? from + match.index + (match[1]?.length ?? 0) : -1;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Collects field diagnostics while reading one file's frontmatter. */
export class FieldReader {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly source: FieldSource,
    private readonly data: Record<string, unknown>,
  ) {}

  report(rule: RuleId, key: string, message: string, note?: string, severity: Severity = 'error'): void {
    this.diagnostics.push(diagnostic(rule, this.source.rel, fieldPosition(this.source, key), message, { severity, ...(note === undefined ? {} : { note }) }));
  }

  reportItem(rule: RuleId, key: string, item: string, message: string, note?: string, severity: Severity = 'error'): void {
    const at = itemPosition(this.source, key, item);
    this.diagnostics.push(diagnostic(rule, this.source.rel, at, message, { severity, ...(note === undefined ? {} : { note }) }));
  }

  has(key: string): boolean {
    return this.data[key] !== undefined && this.data[key] !== null;
  }

  string(key: string, rule: RuleId = 'frontmatter/invalid-field'): string | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    this.report(rule, key, `'${key}' must be a string`);
    return undefined;
  }

  /**
   * A string exactly as written, for names: YAML reads `0x1F`, `1e3`, `true`
   * or `null` as other types, and turning those back into text would not give
   * what was written (`0x1F` → `31`). Present but not a string is an error.
   */
  exactString(key: string, rule: RuleId): string | undefined {
    if (!Object.hasOwn(this.data, key)) return undefined;
    const value = this.data[key];
    if (typeof value === 'string') return value;
    const written = writtenValue(this.source, key);
    const note = written === '' || (typeof value === 'object' && value !== null) ? undefined : `quote it: ${key}: "${written}"`;
    this.report(rule, key, `'${key}' must be a string; YAML reads ${written === '' ? 'it' : `'${written}'`} as ${typeName(value)}`, note);
    return undefined;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], rule: RuleId = 'frontmatter/invalid-field'): T | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.report(rule, key, `'${key}' must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
    return undefined;
  }

  boolean(key: string, rule: RuleId = 'frontmatter/invalid-field'): boolean | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    this.report(rule, key, `'${key}' must be true or false`);
    return undefined;
  }

  number(key: string, check: (n: number) => boolean, expected: string, rule: RuleId = 'frontmatter/invalid-field'): number | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && check(value)) return value;
    this.report(rule, key, `'${key}' must be ${expected} (got ${JSON.stringify(value)})`);
    return undefined;
  }

  /** A YAML list of strings; with `commaSeparated`, also `"a, b"` (as many agent files write it). */
  stringList(key: string, { commaSeparated = false, rule = 'frontmatter/invalid-field' as RuleId } = {}): string[] | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (commaSeparated && typeof value === 'string') {
      return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    }
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    this.report(rule, key, `'${key}' must be a list of strings${commaSeparated ? ' or a comma-separated string' : ''}`);
    return undefined;
  }
}

/** What follows `key:` on its line, comment left out. */
function writtenValue(source: FieldSource, key: string): string {
  const { excerpt } = fieldPosition(source, key);
  const colon = excerpt.indexOf(':');
  return colon === -1 ? '' : excerpt.slice(colon + 1).replace(/\s+#.*$/, '').trim();
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}
