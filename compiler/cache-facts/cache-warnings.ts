/**
 * The build's cache warnings (SPEC §5): a profile's static prefix below the
 * minimum a configured model caches, and a configured model with no known
 * facts. The facts are data (cache-facts.ts); this only compares.
 */
import { resolveCacheFact, type ResolvedCacheFact } from './cache-fact-lookup.js';
import type { CacheFact } from './cache-facts.js';
import type { ProfileDef } from '../definitions/definitions.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import type { ProfileEntry } from '../runtime/manifest.js';

export interface ConfiguredModel {
  model: string;
  resolved: ResolvedCacheFact | undefined;
}

export function resolveModels(models: readonly string[], extra: readonly CacheFact[] = []): ConfiguredModel[] {
  return [...new Set(models)].map((model) => ({ model, resolved: resolveCacheFact(model, extra) }));
}

/** Every profile with a static prefix is checked, static-only ones too: all of such a profile is its prefix. */
export function cacheWarnings(def: ProfileDef, entry: ProfileEntry, models: readonly ConfiguredModel[]): Diagnostic[] {
  if (!def.cacheWarning || entry.boundaryIndex === 0) return [];
  return models.flatMap(({ model, resolved }) => {
    if (!resolved || entry.staticTokens >= resolved.fact.minimumTokens) return [];
    return [
      diagnostic(
        'cache/prefix-below-minimum',
        def.source,
        { line: 1, column: 1 },
        `profile '${def.name}' has a static prefix of ~${entry.staticTokens} tokens, below the ${resolved.fact.minimumTokens}-token minimum ${model} models cache`,
        { severity: 'warning', note: belowMinimumNote(resolved) },
      ),
    ];
  });
}

function belowMinimumNote({ fact, via }: ResolvedCacheFact): string {
  const facts = `${fact.family}${via ? ", Anthropic's figure" : ''}`;
  const disputed = fact.documentedMinimumTokens === undefined ? '' : ` (documented: ${fact.documentedMinimumTokens}; ${fact.note ?? ''})`;
  return (
    `below the minimum the provider silently does not cache the prefix [${facts}${disputed}]; ` +
    'tool definitions sent before the system prompt count toward it'
  );
}

/** Once per model, not per profile: the model is the project's setting, not a profile's. */
export function unknownModelWarnings(models: readonly ConfiguredModel[], profiles: readonly ProfileDef[]): Diagnostic[] {
  // Shown on the first profile file: the warning has no file of its own until a config file exists.
  const first = profiles.reduce<ProfileDef | undefined>((a, b) => (a === undefined || b.source < a.source ? b : a), undefined);
  if (!first) return [];
  return models
    .filter(({ resolved }) => !resolved)
    .map(({ model }) =>
      diagnostic(
        'cache/unknown-model',
        first.source,
        { line: 1, column: 1 },
        `no cache facts for model '${model}': no profile's static prefix is checked against its minimum cacheable length`,
        {
          severity: 'warning',
          note: 'known: Claude ids (dated, Bedrock and Vertex spellings too), gpt-4o, gpt-4.1, gpt-5…, gemini-2.5-flash/pro; add facts with the cacheFacts build option',
        },
      ),
    );
}
