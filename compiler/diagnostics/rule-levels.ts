/** The project's severity per rule (config `rules`), laid over each rule's own, as ESLint does. */
import type { RuleLevel } from '../config/define-config.js';
import type { Diagnostic } from './diagnostics.js';

export function applyRuleLevels(diagnostics: readonly Diagnostic[], levels: Readonly<Record<string, RuleLevel>>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const level = Object.hasOwn(levels, d.rule) ? levels[d.rule] : undefined;
    if (level === undefined) out.push(d);
    else if (level !== 'off') out.push(level === d.severity ? d : { ...d, severity: level });
  }
  return out;
}
