/** The project's severity per rule (config `rules`), laid over each rule's own, as ESLint does. */
import type { Diagnostic } from './diagnostics.js';

/** How a rule's findings are reported, as ESLint words it: `off` drops them. */
export type RuleLevel = 'off' | 'warning' | 'error';

export function applyRuleLevels(diagnostics: readonly Diagnostic[], levels: Readonly<Record<string, RuleLevel>>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const level = Object.hasOwn(levels, d.rule) ? levels[d.rule] : undefined;
    if (level === undefined) out.push(d);
    else if (level !== 'off') out.push(level === d.severity ? d : { ...d, severity: level });
  }
  return out;
}
