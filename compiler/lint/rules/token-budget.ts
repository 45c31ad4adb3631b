/**
 * `section/token-budget` (docs/lint.md#token-budgets): `maxTokens:` in
 * a section's or a profile's frontmatter, exceeded by its text for a
 * configured model — a section's own text (a dynamic one's template), a
 * profile's sections together — counted as the bundle counts it, by each
 * model's own counter.
 */
import type { Frontmatter, Source } from '../../markdown/source.js';
import { FieldReader, fieldPosition } from '../../definitions/frontmatter-fields.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostics.js';
import type { SectionEntry, TokenCount } from '../../runtime/manifest.js';
import { counterNamesFor } from '../../tokens/counter-names.js';
import type { LintInput } from '../project.js';

export function tokenBudgets(input: LintInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { manifest, project, models } = input;
  const budgetOf = (source: Source): number | undefined => {
    if (!hasBudget(source.data)) return undefined;
    const f = new FieldReader(source, source.data);
    const budget = f.number('maxTokens', (n) => Number.isSafeInteger(n) && n > 0, 'a whole number above 0');
    out.push(...f.diagnostics);
    return budget;
  };
  // Each section's entry by its source, as emitted (a section in no profile is not emitted, so not counted).
  const entries = new Map<string, SectionEntry>();
  for (const profile of Object.values(manifest?.profiles ?? {})) for (const entry of profile.sections) entries.set(entry.source, entry);
  const over = (source: Source, what: string, counts: (counter: string | null) => TokenCount | null, budget: number): void => {
    for (const [i, model] of models.entries()) {
      const count = counterNamesFor(model).map(counts).find((c) => c !== null) ?? (i === 0 ? counts(null) : null);
      if (count === null || count.tokens <= budget) continue;
      const size = `${count.method === 'exact' ? '' : '~'}${count.tokens}`;
      out.push(
        diagnostic('section/token-budget', source.rel, fieldPosition(source, 'maxTokens'), `${what} is ${size} tokens for ${model}, over its maxTokens: ${budget}`, {
          note: `shorten it, or raise \`maxTokens:\` if the budget no longer holds${count.method === 'exact' ? '' : ' (the count is an estimate; --exact-tokens counts Claude models exactly)'}`,
        }),
      );
    }
  };
  for (const { def } of project.sections) {
    const source = project.source(def.source);
    const budget = source && budgetOf(source);
    const entry = entries.get(def.source);
    if (!source || budget === undefined || !entry) continue;
    over(source, `section '${def.name}'`, (counter) => (counter === null ? { tokens: entry.tokens, method: 'estimate' } : (entry.tokenCounts?.[counter] ?? null)), budget);
  }
  for (const { def, source } of project.profiles) {
    const budget = budgetOf(source);
    const profile = manifest?.profiles[def.name];
    if (budget === undefined || !profile) continue;
    over(source, `profile '${def.name}'`, (counter) => sum(profile.sections.map((s) => (counter === null ? { tokens: s.tokens, method: 'estimate' } : (s.tokenCounts?.[counter] ?? null)))), budget);
  }
  return out;
}

function hasBudget(data: Frontmatter): boolean {
  return Object.hasOwn(data, 'maxTokens');
}

/** Counts added up; exact only when each is; null when one is missing. */
function sum(counts: ReadonlyArray<TokenCount | null>): TokenCount | null {
  if (counts.some((c) => c === null)) return null;
  const all = counts as TokenCount[];
  return { tokens: all.reduce((n, c) => n + c.tokens, 0), method: all.every((c) => c.method === 'exact') ? 'exact' : 'estimate' };
}
