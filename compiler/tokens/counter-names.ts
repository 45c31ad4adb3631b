/**
 * The name of the counter a model's counts are recorded under, without
 * loading any counter: what `inspect`, `render` and the report need to read a
 * model's own count from a manifest. token-counters.ts names its counters
 * with these same functions.
 */
import { canonicalModelId } from '../cache-facts/cache-fact-lookup.js';
import type { ProfileEntry } from '../runtime/manifest.js';
import { CLAUDE_CALIBRATION } from './claude-coefficients.js';
import { claudeTokenizerFor } from './claude-estimate.js';

/** The error assumed of a count no calibration backs (o200k_base standing in for another tokenizer). */
export const UNCALIBRATED_ERROR = 0.3;

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
  return staticCountFor(profile, model).tokens;
}

/** A count and how far off it may be (a fraction; 0 for an exact count). */
export interface StaticCount {
  tokens: number;
  error: number;
}

/** `staticTokensFor` with the count's error: what judging a prefix against a minimum needs. */
export function staticCountFor(profile: ProfileEntry, model: string): StaticCount {
  for (const name of counterNamesFor(model)) {
    const count = profile.staticTokenCounts?.[name];
    if (count) return { tokens: count.tokens, error: count.method === 'exact' ? 0 : estimateErrorFor(model) };
  }
  return { tokens: profile.staticTokens, error: estimateErrorFor(model) };
}

/** How far an estimate for `model` may be off, as its counter says (token-counters.ts builds its counters from the same figures). */
export function estimateErrorFor(model: string): number {
  const { host, id } = canonicalModelId(model);
  if (host === 'openai') return 0;
  if (host === null || host === 'gemini' || isAmazonModel(host, id)) return UNCALIBRATED_ERROR;
  return CLAUDE_CALIBRATION.models[claudeTokenizerFor(id)].heldOut.p90Error;
}
