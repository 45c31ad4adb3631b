/** Build-time constants in a text: `{{const.NAME}}`, found in a body and reported when unknown. */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { closest } from '../diagnostics/did-you-mean.js';
import type { Source } from '../markdown/source.js';
import { lineIndexOf } from '../core/line-index.js';

const CONSTANT_REFERENCE = /\{\{\s*const\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Every `{{const.NAME}}` outside the comments being removed, by body offset. */
export function constantReferences(body: string, removed: ReadonlyArray<{ start: number; end: number }>): Map<number, { name: string; end: number }> {
  const found = new Map<number, { name: string; end: number }>();
  if (!body.includes('const.')) return found;
  for (const match of body.matchAll(CONSTANT_REFERENCE)) {
    const start = match.index;
    if (removed.some((r) => start >= r.start && start < r.end)) continue;
    found.set(start, { name: match[1]!, end: start + match[0].length });
  }
  return found;
}

/**
 * A value may not hold `{{` (the config refuses it), but it may start or end
 * with `{`: next to a `{` in the text around its reference, the two would
 * form a `{{` nobody wrote — a template in a dynamic section, a bypass of
 * the static sections' check. `body[start - 1] + value + body[end]` holds
 * such a `{{` exactly when one spans the value's edges (an empty value's two
 * neighbours included).
 */
export function joinedBraces(source: Source, start: number, end: number, name: string, value: string): Diagnostic | null {
  const body = source.body;
  if (!`${body[start - 1] ?? ''}${value}${body[end] ?? ''}`.includes('{{')) return null;
  return diagnostic('const/joins-braces', source.rel, lineIndexOf(source).positionAt(source.bodyOffset + start), `the value of '${name}' and the '{' next to its reference would form '{{'`, {
    note: 'put a space between them, or change the constant so it does not start or end with `{`',
  });
}

export function unknownConstant(source: Source, offset: number, name: string, constants: Readonly<Record<string, string>>): Diagnostic {
  const known = Object.keys(constants);
  const near = closest(name, known);
  const note = near ? `did you mean '${near}'?` : known.length === 0 ? 'the project defines no constants (config `constants`)' : `known constants: ${known.sort().join(', ')}`;
  return diagnostic('const/unknown', source.rel, lineIndexOf(source).positionAt(source.bodyOffset + offset), `no build-time constant '${name}'`, { note });
}
