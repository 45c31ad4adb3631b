/**
 * A remark plugin's messages (vfile messages) as the build's diagnostics
 * (docs/lint.md#plugins): the file and position it names, the line as
 * excerpt, the rule as `source/rule-id` — `remark-lint/no-empty-url` — and
 * a severity from the message's `fatal`: true an error, false a warning,
 * unset an info, as unified's own reporters read it.
 */
import { lineText, type Diagnostic, type Severity } from '../diagnostics/diagnostics.js';

/** What is read of a vfile message: the fields every unified message has, typed here without depending on vfile. */
export interface PluginMessage {
  reason: string;
  line?: number | null;
  column?: number | null;
  fatal?: boolean | null;
  ruleId?: string | null;
  source?: string | null;
  note?: string | null;
  url?: string | null;
}

/** `plugin`: the name of the plugin that gave the message, for what the message does not say itself. */
export function messageDiagnostic(message: PluginMessage, source: { rel: string; text: string }, plugin: string): Diagnostic {
  const line = positive(message.line) ?? 1;
  const namespace = idPart(message.source) ?? idPart(plugin) ?? 'plugin';
  const rule = idPart(message.ruleId) ?? 'message';
  const notes = [message.note?.trim() || undefined, message.url ? `see ${message.url}` : undefined].filter((n): n is string => n !== undefined);
  const d: Diagnostic = {
    rule: `${namespace}/${rule}`,
    severity: severityOf(message.fatal),
    file: source.rel,
    line,
    column: positive(message.column) ?? 1,
    message: String(message.reason).split('\n')[0]!,
    excerpt: lineText(source.text, line),
  };
  if (notes.length > 0) d.note = notes.join('; ');
  return d;
}

function severityOf(fatal: boolean | null | undefined): Severity {
  if (fatal === true) return 'error';
  return fatal === false ? 'warning' : 'info';
}

function positive(n: number | null | undefined): number | undefined {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * A part of a rule id as written, or undefined when it is none: not a string,
 * or not a word of the characters rule ids are made of — a plugin's text
 * reaches the terminal, and an escape sequence in it must not.
 */
function idPart(value: string | null | undefined): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return /^[\w@.:/-]+$/.test(trimmed) ? trimmed : undefined;
}
