/**
 * OpenAI Responses API request fields. OpenAI caches prompt prefixes by
 * itself (from 1,024 tokens, in 128-token steps), so there are no breakpoints
 * to place: the static prefix goes first in `instructions`, and
 * `prompt_cache_key` — derived from the static prefix's hash — routes every
 * request sharing that prefix to the same cache, whatever its tail.
 */
import { ArgumentError, checkOptionalString, checkPrompt, optionsOf } from './arguments.js';
import { renderSystemPrompt, staticPrefixHashOf, type SystemPrompt } from './system-prompt.js';

/** The longest `prompt_cache_key` the API accepts (characters). */
export const PROMPT_CACHE_KEY_MAX_LENGTH = 64;

export interface OpenAIRequestOptions {
  /**
   * The cache key to send instead of the derived one (e.g. one per tenant or
   * shard, to stay under the per-key request rate OpenAI's routing handles).
   */
  promptCacheKey?: string;
}

export interface OpenAIInstructionsRequest {
  instructions: string;
  /** Absent when the prompt's static prefix is not known to come from a bundle (a custom prompt). */
  prompt_cache_key?: string;
}

export function toOpenAIRequest(prompt: SystemPrompt, given?: OpenAIRequestOptions): OpenAIInstructionsRequest {
  checkPrompt('toOpenAIRequest', prompt);
  const options = optionsOf('toOpenAIRequest', given);
  checkOptionalString('toOpenAIRequest', 'options.promptCacheKey', options.promptCacheKey);
  const instructions = renderSystemPrompt(prompt);
  const key = options.promptCacheKey ?? derivedKey(prompt);
  if (key === undefined) return { instructions };
  if (key.length === 0 || key.length > PROMPT_CACHE_KEY_MAX_LENGTH) {
    throw new ArgumentError('toOpenAIRequest', 'options.promptCacheKey', `1 to ${PROMPT_CACHE_KEY_MAX_LENGTH} characters long`, key);
  }
  return { instructions, prompt_cache_key: key };
}

/** `pb-` and 128 bits of the static prefix hash: well within the limit, and no collision in practice. */
function derivedKey(prompt: SystemPrompt): string | undefined {
  const hash = staticPrefixHashOf(prompt);
  return hash === undefined ? undefined : `pb-${hash.slice(0, 32)}`;
}
