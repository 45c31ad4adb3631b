/**
 * Cost facts per configured model, for the report and `diff`: the minimum
 * cacheable prefix and the cache price multipliers, from the sourced cache
 * facts (cache-facts/) — a cache write at the default TTL.
 */
import { resolveCacheFact } from '../cache-facts/cache-fact-lookup.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import type { CostFacts } from './cost.js';

/** `extra`: the project's own fact rows (`cacheFacts`, `--cache-facts`), which win over the built-in ones, as in the build. */
export function costFactsFor(model: string, extra: readonly CacheFact[] = []): CostFacts {
  const fact = resolveCacheFact(model, extra)?.fact;
  const ttl = fact?.ttls[0] ?? 'automatic';
  return {
    model,
    family: fact?.family ?? null,
    minimumTokens: fact?.minimumTokens ?? null,
    readMultiplier: fact?.readMultiplier ?? null,
    writeMultiplier: fact ? (fact.writeMultiplier[ttl] ?? fact.writeMultiplier.automatic ?? 1) : null,
    source: fact ? `${fact.source} (read ${fact.read})` : null,
  };
}
