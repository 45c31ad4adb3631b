/**
 * Diagnostics are data: every user error the build can find becomes one of
 * these, collected across all files, sorted, and printed at the edge. Broken
 * invariants of the tool itself are thrown as `InternalError` instead.
 */

export const RULES = [
  'source/unreadable',
  'frontmatter/invalid-yaml',
  'frontmatter/lenient-yaml',
  'frontmatter/invalid-field',
  'include/missing',
  'include/cycle',
  'include/depth',
  'include/extension',
  'include/binary',
  'include/encoding',
  'include/not-a-file',
  'include/too-large',
  'include/too-large-expanded',
  'include/outside-root',
  'section/duplicate-name',
  'section/case-collision',
  'section/static-template',
  'section/uncached-without-reason',
  'section/undeclared-input',
  'section/invalid-name',
  'section/boundary-marker',
  'section/unused',
  'section/context-channel',
  'source/too-large',
  'source/binary',
  'source/encoding',
  'source/not-a-file',
  'source/outside-root',
  'source/nesting-too-deep',
  'source/too-many-lazy-lines',
  'source/block-too-long',
  'source/too-much-markup',
  'source/control-character',
  'source/bidi-control',
  'template/syntax',
  'template/unknown-helper',
  'template/helper-form',
  'template/helper-arity',
  'template/partial',
  'template/decorator',
  'template/python-unsupported',
  'profile/unknown-section',
  'profile/duplicate-section',
  'profile/static-after-dynamic',
  'profile/empty',
  'profile/invalid-name',
  'agent/missing-field',
  'agent/duplicate-name',
  'agent/case-collision',
  'agent/invalid-field',
  'agent/name-style',
  'agent/unknown-tool',
  'agent/skipped',
  'agent/boundary-marker',
  'claude/unknown-field',
  'claude/invalid-field',
  'claude/invalid-name',
  'claude/description-truncated',
  'claude/invalid-glob',
  'claude/skipped',
  'claude/duplicate-name',
  'cache/prefix-below-minimum',
  'output/write-failed',
  'cache/unknown-model',
  'cache/facts-outdated',
  'const/unknown',
  'const/joins-braces',
  'config/syntax',
  'config/load-failed',
  'config/unknown-key',
  'config/invalid-value',
  'tokens/exact-unavailable',
  'plugin/load-failed',
  'plugin/threw',
  'static/volatile-value',
  'static/leftover-interpolation',
  'markup/unbalanced-tag',
  'template/unused-input',
  'section/token-budget',
  'profile/small-static-share',
] as const;

export type RuleId = (typeof RULES)[number];
/**
 * A rule of a project's remark plugin (docs/lint.md#plugins): the message's
 * source (or the plugin's name) and its rule id, `remark-lint/no-empty-url`.
 */
export type PluginRuleId = `${string}/${string}`;
/** `info`: something the build did that a user may not expect (a file skipped), not a problem. */
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  rule: RuleId | PluginRuleId;
  severity: Severity;
  /** Root-relative POSIX path (or absolute when outside the root). */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  message: string;
  /** The source line at `line`, for the excerpt; absent when there is no text. */
  excerpt?: string;
  /** Extra help shown under the frame. */
  note?: string;
  /**
   * One line when printed for a person, unless they ask for detail
   * (`--verbose`): for what a project may hold by the dozen and the build
   * deals with itself (a value read as quoted, an agent file skipped). The
   * excerpt and note stay in the data (`--reporter json`). An error is
   * always printed whole.
   */
  brief?: true;
}

export class InternalError extends Error {
  override name = 'InternalError';
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Deterministic order: file, line, column, rule, message. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compare(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      compare(a.rule, b.rule) ||
      compare(a.message, b.message),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A position in a text, as the diagnostics need it. */
export interface Position {
  line: number;
  column: number;
  excerpt: string;
}

/** 1-based line/column of a UTF-16 offset in `text`, plus that line's text. */
export function positionAt(text: string, offset: number): Position {
  const clamped = Math.max(0, Math.min(offset, text.length));
  const lineStart = text.lastIndexOf('\n', clamped - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < lineStart; i = text.indexOf('\n', i + 1)) line++;
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd === -1) lineEnd = text.length;
  return { line, column: clamped - lineStart + 1, excerpt: text.slice(lineStart, lineEnd) };
}

/** The excerpt of a 1-based line of `text` (empty when out of range). */
export function lineText(text: string, line: number): string {
  return text.split('\n')[line - 1] ?? '';
}

export function diagnostic(
  rule: RuleId,
  file: string,
  at: Position | { line: number; column: number; excerpt?: string },
  message: string,
  extra: { severity?: Severity; note?: string; brief?: true } = {},
): Diagnostic {
  const d: Diagnostic = {
    rule,
    severity: extra.severity ?? 'error',
    file,
    line: at.line,
    column: at.column,
    message,
  };
  if (at.excerpt !== undefined) d.excerpt = at.excerpt;
  if (extra.note !== undefined) d.note = extra.note;
  if (extra.brief) d.brief = true;
  return d;
}
