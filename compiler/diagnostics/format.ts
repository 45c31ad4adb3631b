/**
 * Printing diagnostics: the human format (editors link `file:line:col`), JSON
 * for tools, and GitHub workflow annotations.
 */
import { createRequire } from 'node:module';
import type pc from 'picocolors';
import type { Diagnostic } from './diagnostics.js';
import { excerptWindow, terminalSafe } from './terminal-safe.js';

export type ReporterName = 'human' | 'json' | 'github';
export const REPORTERS: readonly ReporterName[] = ['human', 'json', 'github'];

/**
 * Colours on: whether to use them is the caller's decision (a flag, NO_COLOR,
 * a terminal), not picocolors' own guess. Loaded only then: importing a
 * CommonJS module costs 5 ms, a third of what a no-change build does.
 */
export function colors(): ReturnType<typeof pc.createColors> {
  return (createRequire(import.meta.url)('picocolors') as typeof pc).createColors(true);
}

export interface FormatOptions {
  color?: boolean;
  /** Print brief diagnostics whole too (`--verbose`). */
  verbose?: boolean;
}

/** Whether `d` prints as its first line only (see `Diagnostic.brief`). */
export function printsBrief(d: Diagnostic, { verbose = false }: FormatOptions = {}): boolean {
  return d.brief === true && d.severity !== 'error' && !verbose;
}

/** `file:line:col: error rule/id: message`, then the excerpt with a caret and the note (a brief one: the first line only). */
export function formatHuman(d: Diagnostic, options: FormatOptions = {}): string {
  const c = options.color ? colors() : noColor;
  const sev = d.severity === 'error' ? c.red('error') : d.severity === 'warning' ? c.yellow('warning') : c.cyan('info');
  const lines = [`${c.bold(`${terminalSafe(d.file)}:${d.line}:${d.column}`)}: ${sev} ${c.dim(terminalSafe(d.rule))}: ${terminalSafe(d.message)}`];
  if (printsBrief(d, options)) return lines[0]!;
  if (d.excerpt !== undefined) {
    const gutter = String(d.line);
    const { text, caret } = excerptWindow(d.excerpt, d.column);
    lines.push(`  ${c.dim(`${gutter} |`)} ${text}`);
    lines.push(`  ${' '.repeat(gutter.length)} ${c.dim('|')} ${' '.repeat(caret)}${c.red('^')}`);
  }
  if (d.note !== undefined) lines.push(`  ${c.cyan('note')}: ${terminalSafe(d.note)}`);
  return lines.join('\n');
}

export function formatJson(ok: boolean, diagnostics: readonly Diagnostic[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      ok,
      diagnostics: diagnostics.map(({ rule, severity, file, line, column, message, note }) =>
        note === undefined ? { rule, severity, file, line, column, message } : { rule, severity, file, line, column, message, note },
      ),
      ...extra,
    },
    null,
    2,
  );
}

/** GitHub workflow command: `::error file=…,line=…,col=…,title=rule::message`. */
export function formatGithub(d: Diagnostic): string {
  const kind = d.severity === 'info' ? 'notice' : d.severity;
  const props = `file=${escapeProperty(d.file)},line=${d.line},col=${d.column},title=${escapeProperty(d.rule)}`;
  return `::${kind} ${props}::${escapeData(d.note ? `${d.message} (${d.note})` : d.message)}`;
}

/** GitHub's own escapes for `%`, CR and LF, then any other unsafe character made visible: a log is a terminal too. */
export function escapeData(s: string): string {
  return terminalSafe(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const identity = (s: string): string => s;
const noColor = { red: identity, yellow: identity, bold: identity, dim: identity, cyan: identity };
