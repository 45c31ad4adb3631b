/**
 * Cost facts per configured model: the minimum cacheable prefix from
 * `cache-facts.ts`, and the cache price multipliers, kept here until the
 * cache facts carry them. The one place to rewire when they do.
 */
import { minimumCacheableTokens } from '../cache-facts.js';
import type { CostFacts } from './cost.js';

interface PriceFact {
  family: string;
  readMultiplier: number;
  writeMultiplier: number;
  source: string;
}

/** Longest matching family wins, as in `cache-facts.ts`. */
const PRICE_FACTS: readonly PriceFact[] = [
  { family: 'claude', readMultiplier: 0.1, writeMultiplier: 1.25, source: 'Anthropic prompt caching pricing (5-minute TTL), 2025' },
  { family: 'gpt-4o', readMultiplier: 0.5, writeMultiplier: 1, source: 'OpenAI prompt caching pricing, 2025' },
  { family: 'gpt-4.1', readMultiplier: 0.25, writeMultiplier: 1, source: 'OpenAI prompt caching pricing, 2025' },
  { family: 'gpt-5', readMultiplier: 0.1, writeMultiplier: 1, source: 'OpenAI prompt caching pricing, 2025' },
  { family: 'gemini-2.5', readMultiplier: 0.25, writeMultiplier: 1, source: 'Google Gemini implicit caching pricing, 2025' },
];

export function costFactsFor(model: string): CostFacts {
  const id = model.toLowerCase();
  const minimum = minimumCacheableTokens(model);
  const price = [...PRICE_FACTS].sort((a, b) => b.family.length - a.family.length).find((p) => id.startsWith(p.family));
  return {
    model,
    family: minimum?.family ?? null,
    minimumTokens: minimum?.minimumTokens ?? null,
    readMultiplier: price?.readMultiplier ?? null,
    writeMultiplier: price?.writeMultiplier ?? null,
    source: price?.source ?? null,
  };
}
