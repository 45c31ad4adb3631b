/**
 * OpenAI Responses API request fields, in one of two shapes by model.
 *
 * Before GPT-5.6, OpenAI caches prompt prefixes by itself (from 1,024 tokens,
 * in 128-token steps): the static prefix goes first in `instructions`, and
 * `prompt_cache_key` — derived from the static prefix's hash — routes every
 * request sharing that prefix to the same cache, whatever its tail.
 *
 * GPT-5.6 and later match a cached prefix exactly at a breakpoint, with no
 * 128-token fallback, and OpenAI's own (implicit) breakpoint sits near the
 * newest message: a stable prefix followed by a changing tail would never be
 * read back. So for those models the prompt goes in a developer message of
 * `input_text` blocks — the static prefix, then the tail — each ending in an
 * explicit `prompt_cache_breakpoint` (the API takes none on the top-level
 * `instructions`). `prompt_cache_options.mode` stays `implicit` unless asked:
 * OpenAI then keeps its managed breakpoint for the growing conversation and
 * writes ours too (up to three explicit ones); `explicit` turns its own off.
 * Cache writes on these models cost 1.25× the input price (the cache facts
 * row of the GPT-5.6 family names its source). The request fields are the
 * `openai` SDK's own declarations, checked in test/types/providers.types.ts.
 */
import { ArgumentError, checkOneOf, checkOptionalString, optionsOf } from './arguments.js';
import { breakpointSides } from './prompt-sides.js';
import { checkSystemPrompt, renderSystemPrompt, staticPrefixHashOf, type SystemPrompt } from './system-prompt.js';

/** The longest `prompt_cache_key` the API accepts (characters). */
export const PROMPT_CACHE_KEY_MAX_LENGTH = 64;

export type OpenAICacheMode = 'implicit' | 'explicit';
export type OpenAICacheRetention = 'in_memory' | '24h';

export interface OpenAIRequestOptions {
  /**
   * The cache key to send instead of the derived one (e.g. one per tenant or
   * shard, to stay under the per-key request rate OpenAI's routing handles).
   */
  promptCacheKey?: string;
  /**
   * The model the request is for: GPT-5.6 and later get explicit breakpoints
   * (`input`); any other model, or none, the `instructions` form.
   */
  model?: string;
  /** GPT-5.6 and later: `prompt_cache_options.mode`; `implicit` (OpenAI's default) when absent. */
  cacheMode?: OpenAICacheMode;
  /**
   * Models before GPT-5.6: `prompt_cache_retention` (GPT-5.5 takes only `24h`).
   * Later models replace it with `prompt_cache_options.ttl`, and refuse both together.
   */
  promptCacheRetention?: OpenAICacheRetention;
}

export interface OpenAIInstructionsRequest {
  instructions: string;
  /** Absent when the prompt's static prefix is not known to come from a bundle (a custom prompt). */
  prompt_cache_key?: string;
  prompt_cache_retention?: OpenAICacheRetention;
}

export interface OpenAIInputText {
  type: 'input_text';
  text: string;
  prompt_cache_breakpoint?: { mode: 'explicit' };
}

export interface OpenAIDeveloperMessage {
  role: 'developer';
  content: OpenAIInputText[];
}

/** GPT-5.6 and later. Append the conversation after it: `input: [...request.input, ...messages]`. */
export interface OpenAIInputRequest {
  input: OpenAIDeveloperMessage[];
  prompt_cache_options: { mode: OpenAICacheMode };
  prompt_cache_key?: string;
}

const FN = 'toOpenAIRequest';
const CACHE_MODES: readonly OpenAICacheMode[] = ['implicit', 'explicit'];
const RETENTIONS: readonly OpenAICacheRetention[] = ['in_memory', '24h'];

export function toOpenAIRequest(prompt: SystemPrompt, options?: OpenAIRequestOptions & { model?: undefined }): OpenAIInstructionsRequest;
export function toOpenAIRequest(prompt: SystemPrompt, options: OpenAIRequestOptions): OpenAIInstructionsRequest | OpenAIInputRequest;
export function toOpenAIRequest(prompt: SystemPrompt, given?: OpenAIRequestOptions): OpenAIInstructionsRequest | OpenAIInputRequest {
  checkSystemPrompt(FN, prompt);
  const options = optionsOf(FN, given);
  checkOptionalString(FN, 'options.promptCacheKey', options.promptCacheKey);
  checkOptionalString(FN, 'options.model', options.model);
  checkOneOf(FN, 'options.cacheMode', options.cacheMode, CACHE_MODES);
  checkOneOf(FN, 'options.promptCacheRetention', options.promptCacheRetention, RETENTIONS);
  const key = cacheKey(prompt, options.promptCacheKey);
  const generation = options.model === undefined ? null : gptGeneration(options.model);
  if (generation !== null && atLeast(generation, [5, 6])) {
    if (options.promptCacheRetention !== undefined) {
      throw new ArgumentError(FN, 'options.promptCacheRetention', `absent for ${options.model} (it takes prompt_cache_options.ttl instead)`, options.promptCacheRetention);
    }
    const request: OpenAIInputRequest = { input: [developerMessage(prompt)], prompt_cache_options: { mode: options.cacheMode ?? 'implicit' } };
    if (key !== undefined) request.prompt_cache_key = key;
    return request;
  }
  if (options.cacheMode !== undefined) {
    throw new ArgumentError(FN, 'options.cacheMode', 'absent for models before GPT-5.6 (they take no explicit breakpoints)', options.cacheMode);
  }
  if (options.promptCacheRetention === 'in_memory' && generation !== null && atLeast(generation, [5, 5])) {
    throw new ArgumentError(FN, 'options.promptCacheRetention', `'24h' for ${options.model}`, options.promptCacheRetention);
  }
  const request: OpenAIInstructionsRequest = { instructions: renderSystemPrompt(prompt) };
  if (key !== undefined) request.prompt_cache_key = key;
  if (options.promptCacheRetention !== undefined) request.prompt_cache_retention = options.promptCacheRetention;
  return request;
}

/** The static prefix and the tail, each an `input_text` block closed by an explicit breakpoint. */
function developerMessage(prompt: SystemPrompt): OpenAIDeveloperMessage {
  const content = breakpointSides(prompt, {}, FN).map(
    (side): OpenAIInputText => ({ type: 'input_text', text: side.text, prompt_cache_breakpoint: { mode: 'explicit' } }),
  );
  return { role: 'developer', content };
}

function cacheKey(prompt: SystemPrompt, given: string | undefined): string | undefined {
  const key = given ?? derivedKey(prompt);
  if (key !== undefined && (key.length === 0 || key.length > PROMPT_CACHE_KEY_MAX_LENGTH)) {
    throw new ArgumentError(FN, 'options.promptCacheKey', `1 to ${PROMPT_CACHE_KEY_MAX_LENGTH} characters long`, key);
  }
  return key;
}

/** `pb-` and 128 bits of the static prefix hash: well within the limit, and no collision in practice. */
function derivedKey(prompt: SystemPrompt): string | undefined {
  const hash = staticPrefixHashOf(prompt);
  return hash === undefined ? undefined : `pb-${hash.slice(0, 32)}`;
}

/**
 * `[major, minor]` of a GPT model id (`gpt-5.6`, `gpt-5.6-mini-2026-07-01`,
 * `openai/gpt-6`), or null for any other model (o-series, fine-tunes named otherwise).
 */
export function gptGeneration(model: string): [number, number] | null {
  const match = /^(?:openai\/)?gpt-(\d+)(?:\.(\d+))?(?:$|-)/.exec(model.trim().toLowerCase());
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : null;
}

function atLeast([major, minor]: [number, number], [wantMajor, wantMinor]: [number, number]): boolean {
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}
