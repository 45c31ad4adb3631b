/**
 * The name of the counter a model's counts are recorded under, without
 * loading any counter: what `inspect`, `render` and the report need to read a
 * model's own count from a manifest. token-counters.ts names its counters
 * with these same functions.
 */
import { canonicalModelId } from '../cache-facts/cache-fact-lookup.js';
import type { ProfileEntry } from '../runtime/manifest.js';
import { claudeTokenizerFor } from './claude-estimate.js';

export const O200K_COUNTER = 'o200k_base';
export const GEMINI_COUNTER = 'o200k_base-for-gemini';
export const NOVA_COUNTER = 'o200k_base-for-nova';

/** Amazon's own models on Bedrock (Nova…): not Claude, so never a Claude estimate. */
export function isAmazonModel(host: string | null, id: string): boolean {
  return host === 'bedrock' && !id.startsWith('claude');
}

/** The counters a model's count may be recorded under, the preferred first; none for a model of no known provider. */
export function counterNamesFor(model: string): string[] {
  const { host, id } = canonicalModelId(model);
  if (host === 'openai') return [O200K_COUNTER];
  if (host === 'gemini') return [GEMINI_COUNTER];
  if (host === null) return [];
  if (isAmazonModel(host, id)) return [NOVA_COUNTER];
  return [exactClaudeCounter(model), `${claudeTokenizerFor(id)}-estimate`];
}

export function exactClaudeCounter(model: string): string {
  return `anthropic-count-tokens:${model}`;
}

/** A profile's static prefix in a model's own count, or the manifest's `staticTokens` when the bundle has no count of that model's counter. */
export function staticTokensFor(profile: ProfileEntry, model: string): number {
  for (const name of counterNamesFor(model)) {
    const count = profile.staticTokenCounts?.[name];
    if (count) return count.tokens;
  }
  return profile.staticTokens;
}
