/**
 * What the boundary is worth, per configured model: whether a static prefix
 * is cached at all, and what it costs per request on a cold cache (written)
 * against a warm one (read), from the price multipliers in the cache facts.
 * Costs are in base-price input tokens, so they hold whatever the price.
 */
import { resolveCacheFact } from './cache-fact-lookup.js';
import type { CacheFact } from './cache-facts.js';

/**
 * Whether a prefix of `tokens` (counted to within `error`, a fraction) is
 * cached by a provider that caches from `minimum`: the one verdict build,
 * check, inspect, render and the report give. An estimate whose low end is
 * below the minimum may not be cached, though its middle reaches it.
 */
export type PrefixVerdict = 'cached' | 'not-cached' | 'may-not-be-cached';

export function prefixVerdict(tokens: number, error: number, minimum: number): PrefixVerdict {
  if (Math.floor(tokens * (1 - error)) >= minimum) return 'cached';
  return error === 0 || tokens < minimum ? 'not-cached' : 'may-not-be-cached';
}

export interface PrefixEconomics {
  model: string;
  /** The facts' family, or null when the model has none. */
  family: string | null;
  staticTokens: number;
  minimumTokens: number | null;
  /** The count reaches the minimum (what the costs assume); null: not known (no facts). */
  cached: boolean | null;
  /** `prefixVerdict`, the count's error taken into account; null: not known (no facts). */
  verdict: PrefixVerdict | null;
  /** The prefix sent uncached: its tokens at the base input price. */
  uncached: number;
  /** The first request: the prefix written to the cache (default TTL), or uncached when it is not cached. */
  cold: number;
  /** A later request while the cache lives: the prefix read from it, or uncached. */
  warm: number;
}

/** `count`: the static prefix's tokens, with the count's error when it is an estimate (a bare number is taken as exact). */
export function prefixEconomics(model: string, count: number | { tokens: number; error: number }, extra: readonly CacheFact[] = []): PrefixEconomics {
  const { tokens: staticTokens, error } = typeof count === 'number' ? { tokens: count, error: 0 } : count;
  const fact = resolveCacheFact(model, extra)?.fact;
  if (!fact) return { model, family: null, staticTokens, minimumTokens: null, cached: null, verdict: null, uncached: staticTokens, cold: staticTokens, warm: staticTokens };
  const cached = staticTokens >= fact.minimumTokens;
  const write = fact.writeMultiplier[fact.ttls[0] ?? 'automatic'] ?? 1;
  // Automatic caching keeps whole steps past the minimum (OpenAI: 1,024 tokens, then 128 at a time); the rest is sent uncached.
  const step = fact.prefixIncrement;
  const kept = !cached ? 0 : step ? fact.minimumTokens + Math.floor((staticTokens - fact.minimumTokens) / step) * step : staticTokens;
  const rest = staticTokens - kept;
  return {
    model,
    family: fact.family,
    staticTokens,
    minimumTokens: fact.minimumTokens,
    cached,
    verdict: prefixVerdict(staticTokens, error, fact.minimumTokens),
    uncached: staticTokens,
    cold: Math.round(kept * write) + rest,
    warm: Math.round(kept * fact.readMultiplier) + rest,
  };
}
