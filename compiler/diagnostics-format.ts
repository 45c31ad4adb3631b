/**
 * Printing diagnostics: the human format (editors link `file:line:col`), JSON
 * for tools, and GitHub workflow annotations.
 */
import pc from 'picocolors';
import type { Diagnostic } from './diagnostics.js';

export type ReporterName = 'human' | 'json' | 'github';
export const REPORTERS: readonly ReporterName[] = ['human', 'json', 'github'];

export interface FormatOptions {
  color?: boolean;
}

/** `file:line:col: error rule/id: message`, then the excerpt with a caret. */
export function formatHuman(d: Diagnostic, { color = false }: FormatOptions = {}): string {
  const c = color ? pc : noColor;
  const sev = d.severity === 'error' ? c.red('error') : c.yellow('warning');
  const lines = [`${c.bold(`${d.file}:${d.line}:${d.column}`)}: ${sev} ${c.dim(d.rule)}: ${d.message}`];
  if (d.excerpt !== undefined) {
    const gutter = String(d.line);
    const visible = d.excerpt.replace(/\t/g, ' ');
    lines.push(`  ${c.dim(`${gutter} |`)} ${visible}`);
    lines.push(`  ${' '.repeat(gutter.length)} ${c.dim('|')} ${' '.repeat(Math.max(0, d.column - 1))}${c.red('^')}`);
  }
  if (d.note !== undefined) lines.push(`  ${c.cyan('note')}: ${d.note}`);
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
  const kind = d.severity === 'error' ? 'error' : 'warning';
  const props = `file=${escapeProperty(d.file)},line=${d.line},col=${d.column},title=${escapeProperty(d.rule)}`;
  return `::${kind} ${props}::${escapeData(d.note ? `${d.message} (${d.note})` : d.message)}`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const identity = (s: string): string => s;
const noColor = { red: identity, yellow: identity, bold: identity, dim: identity, cyan: identity };
