/**
 * The built-in rules (docs/lint.md#built-in-rules): checks of what a build
 * compiled that are not errors of the build itself — likely cache busts,
 * leftovers, markup and budgets — run by `lint` and `check`, each with its
 * rule id and default level, levelled by the config's `rules` like every
 * other diagnostic.
 */
import type { Diagnostic, RuleId, Severity } from '../diagnostics/diagnostics.js';
import type { LintInput } from './project.js';
import { ruleContext, type RuleContext } from './rule-context.js';
import { leftoverInterpolations } from './rules/leftover-interpolation.js';
import { smallStaticShares } from './rules/small-static-share.js';
import { tokenBudgets } from './rules/token-budget.js';
import { unbalancedTags } from './rules/unbalanced-tag.js';
import { unusedInputs } from './rules/unused-input.js';
import { volatileValues } from './rules/volatile-value.js';

export interface BuiltInRule {
  id: RuleId;
  /** The severity its findings have unless the config's `rules` says otherwise. */
  level: Severity;
  run: (input: LintInput, context: RuleContext) => Diagnostic[];
}

export const BUILT_IN_RULES: readonly BuiltInRule[] = [
  { id: 'static/volatile-value', level: 'warning', run: volatileValues },
  { id: 'static/leftover-interpolation', level: 'warning', run: leftoverInterpolations },
  { id: 'markup/unbalanced-tag', level: 'warning', run: unbalancedTags },
  { id: 'template/unused-input', level: 'warning', run: unusedInputs },
  { id: 'section/token-budget', level: 'error', run: tokenBudgets },
  { id: 'profile/small-static-share', level: 'info', run: smallStaticShares },
];

/** Every built-in rule's findings, each once (a fragment included by two sections is reported where it is written, once). */
export function runBuiltInRules(input: LintInput, rules: readonly BuiltInRule[] = BUILT_IN_RULES): Diagnostic[] {
  const context = ruleContext(input.project);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    for (const found of rule.run(input, context)) {
      // A rule's own findings carry its level; another rule's (a `maxTokens:` that is no number) keep theirs.
      const d = found.rule === rule.id ? { ...found, severity: rule.level } : found;
      const key = `${d.file}\0${d.line}\0${d.column}\0${d.rule}\0${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}
