/**
 * What one request's system prompt costs, cold against warm, from cache
 * facts given as input (so the facts can come from wherever the project
 * keeps them). Costs are in input tokens at the model's base input price:
 * a cache read costs `readMultiplier` of a token, a cache write
 * `writeMultiplier`. The dynamic tail is counted at base price (cached per
 * session at best), from its template size: rendered sizes vary.
 */

export interface CostFacts {
  /** Model id as configured. */
  model: string;
  /** Family the facts are for; null when none is known. */
  family: string | null;
  /** Below this many tokens the provider does not cache the prefix at all. */
  minimumTokens: number | null;
  /** Price of a cached token read, relative to a base input token. */
  readMultiplier: number | null;
  /** Price of a token written to the cache, relative to a base input token. */
  writeMultiplier: number | null;
  /** Where the multipliers come from (provider page and date). */
  source: string | null;
}

export interface RequestCost {
  /** The static prefix is long enough for the provider to cache it. */
  cacheable: boolean;
  /** No caching at all: every token at base price. */
  uncached: number;
  /** First request: the static prefix written to the cache. */
  cold: number;
  /** Every later request: the static prefix read from the cache. */
  warm: number;
  /** Over 1,000 warm requests, what the cached static prefix saves against no caching. */
  savedPer1000: number;
}

/** null when the facts lack what a price needs (unknown model, or no multipliers). */
export function requestCost(staticTokens: number, dynamicTokens: number, facts: CostFacts): RequestCost | null {
  if (facts.minimumTokens === null || facts.readMultiplier === null || facts.writeMultiplier === null) return null;
  const uncached = staticTokens + dynamicTokens;
  const cacheable = staticTokens >= facts.minimumTokens;
  if (!cacheable) return { cacheable, uncached, cold: uncached, warm: uncached, savedPer1000: 0 };
  const cold = staticTokens * facts.writeMultiplier + dynamicTokens;
  const warm = staticTokens * facts.readMultiplier + dynamicTokens;
  return { cacheable, uncached, cold, warm, savedPer1000: (uncached - warm) * 1000 };
}
