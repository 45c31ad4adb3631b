/**
 * Stage 5, link: the compiled sources checked as one project — names claimed
 * twice or differing only by case (`name-checks.ts`, asked by the compiler's
 * `Entries`, which keeps the claims up to date), each profile against the
 * sections there are (`profile-checks.ts`) — and the project's rule levels
 * applied, once: they decide whether anything is emitted.
 */
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { applyRuleLevels, type RuleLevel } from '../diagnostics/rule-levels.js';
import type { LinkedProfile } from './linked-profile.js';
import { checkProfiles, type ProfileCheckCache } from './profile-checks.js';

export interface LinkInput {
  /** Every source's own diagnostics and the name checks', in path order. */
  diagnostics: readonly Diagnostic[];
  profiles: readonly LinkedProfile[];
  /** Every section name there is, asked for only by the note on an unknown one. */
  sectionNamesKnown: () => string[];
}

export function link(input: LinkInput, ruleLevels: Readonly<Record<string, RuleLevel>>, checked: ProfileCheckCache): Diagnostic[] {
  return applyRuleLevels([...input.diagnostics, ...checkProfiles(input.profiles, input.sectionNamesKnown, checked)], ruleLevels);
}
