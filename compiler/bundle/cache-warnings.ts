/**
 * The build's cache warnings (docs/caching-and-tokens.md#cache-warnings): a profile's static prefix below the
 * minimum a configured model caches, and a configured model with no known
 * facts. The facts are data (cache-facts.ts); this only compares.
 */
import { prefixVerdict } from '../cache-facts/cache-economics.js';
import { factlessModel, resolveCacheFact, type ResolvedCacheFact } from '../cache-facts/cache-fact-lookup.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import type { ProfileDef } from '../definitions/definitions.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import type { ProfileEntry } from '../runtime/manifest.js';
import type { TokenCounter, TokenCounting } from '../tokens/token-counters.js';

export interface ConfiguredModel {
  model: string;
  resolved: ResolvedCacheFact | undefined;
}

export function resolveModels(models: readonly string[], extra: readonly CacheFact[] = []): ConfiguredModel[] {
  return [...new Set(models)].map((model) => ({ model, resolved: resolveCacheFact(model, extra) }));
}

/**
 * Every profile with a static prefix is checked, static-only ones too: all of
 * such a profile is its prefix. Each model against its own counter's count:
 * an exact count below the minimum is stated as such; an estimate warns when
 * its error band (the held-out error of the estimator) reaches below it.
 */
export function cacheWarnings(def: ProfileDef, entry: ProfileEntry, models: readonly ConfiguredModel[], tokens: TokenCounting): Diagnostic[] {
  if (!def.cacheWarning || entry.boundaryIndex === 0) return [];
  return models.flatMap(({ model, resolved }) => {
    if (!resolved) return [];
    const counter = tokens.forModel(model) ?? tokens.primary;
    const count = entry.staticTokenCounts?.[counter.name] ?? { tokens: entry.staticTokens, method: 'estimate' as const };
    const minimum = resolved.fact.minimumTokens;
    const error = count.method === 'exact' ? 0 : counter.error;
    const judged = prefixVerdict(count.tokens, error, minimum);
    if (judged === 'cached') return [];
    const low = Math.floor(count.tokens * (1 - error));
    const exact = count.method === 'exact';
    const size = exact ? `${count.tokens}` : `~${count.tokens}`;
    const how = exact ? `exact, ${counter.name}` : `estimated by ${counter.name}, ±${(error * 100).toFixed(0)} %: ${low}–${Math.ceil(count.tokens * (1 + error))}`;
    const verdict = judged === 'not-cached' ? 'below' : 'which may be below';
    return [
      diagnostic(
        'cache/prefix-below-minimum',
        def.source,
        { line: 1, column: 1 },
        `profile '${def.name}' has a static prefix of ${size} tokens, ${verdict} the ${minimum}-token minimum ${model} models cache (${how}): it ${exact ? 'is not' : 'may not be'} cached`,
        { severity: 'warning', note: belowMinimumNote(resolved, exact ? null : counter) },
      ),
    ];
  });
}

function belowMinimumNote({ fact, via }: ResolvedCacheFact, estimate: TokenCounter | null): string {
  const facts = `${fact.family}${via ? ", Anthropic's figure" : ''}`;
  const disputed = fact.documentedMinimumTokens === undefined ? '' : ` (documented: ${fact.documentedMinimumTokens}; ${fact.note ?? ''})`;
  return (
    `below the minimum the provider silently does not cache the prefix [${facts}${disputed}]; ` +
    'tool definitions sent before the system prompt count toward it' +
    (estimate === null ? '' : `; the count is an estimate (${estimate.errorSource})${estimate.name.startsWith('claude') ? "; --exact-tokens counts with Anthropic's count_tokens" : ''}`)
  );
}

/** Once per model, not per profile: the model is the project's setting, not a profile's. */
export function unknownModelWarnings(models: readonly ConfiguredModel[], profiles: readonly ProfileDef[]): Diagnostic[] {
  // Shown on the first profile file: the warning has no file of its own until a config file exists.
  const first = profiles.reduce<ProfileDef | undefined>((a, b) => (a === undefined || b.source < a.source ? b : a), undefined);
  if (!first) return [];
  return models
    .filter(({ resolved }) => !resolved)
    .map(({ model }) => {
      const named = factlessModel(model);
      const why = named ? ` (${named.family}: ${named.why})` : '';
      return diagnostic(
        'cache/unknown-model',
        first.source,
        { line: 1, column: 1 },
        `no cache facts for model '${model}'${why}: no profile's static prefix is checked against its minimum cacheable length`,
        {
          severity: 'warning',
          note:
            'known: Claude ids (dated, -latest, Bedrock and Vertex spellings too), Amazon Nova on Bedrock, gpt-4o, gpt-4.1, gpt-5…, gpt-6…, o1/o3/o4, ' +
            'gemini-2.5-flash/pro, gemini-3.x, gemini-4-argon; add facts with --cache-facts FILE.json (the cacheFacts build option)',
        },
      );
    });
}
