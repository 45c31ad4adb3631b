/**
 * What the boundary is worth, per configured model: whether a static prefix
 * is cached at all, and what it costs per request on a cold cache (written)
 * against a warm one (read), from the price multipliers in the cache facts.
 * Costs are in base-price input tokens, so they hold whatever the price.
 */
import { resolveCacheFact } from './cache-fact-lookup.js';
import type { CacheFact } from './cache-facts.js';

export interface PrefixEconomics {
  model: string;
  /** The facts' family, or null when the model has none. */
  family: string | null;
  staticTokens: number;
  minimumTokens: number | null;
  /** null: not known (no facts). */
  cached: boolean | null;
  /** The prefix sent uncached: its tokens at the base input price. */
  uncached: number;
  /** The first request: the prefix written to the cache (default TTL), or uncached when it is not cached. */
  cold: number;
  /** A later request while the cache lives: the prefix read from it, or uncached. */
  warm: number;
}

export function prefixEconomics(model: string, staticTokens: number, extra: readonly CacheFact[] = []): PrefixEconomics {
  const fact = resolveCacheFact(model, extra)?.fact;
  if (!fact) return { model, family: null, staticTokens, minimumTokens: null, cached: null, uncached: staticTokens, cold: staticTokens, warm: staticTokens };
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
    uncached: staticTokens,
    cold: Math.round(kept * write) + rest,
    warm: Math.round(kept * fact.readMultiplier) + rest,
  };
}
