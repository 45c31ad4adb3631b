/**
 * Anthropic Messages API `system` blocks (docs/runtime.md#provider-adapters): the static prefix one
 * text block ending in a cache breakpoint, the dynamic tail another. That is
 * two of the four breakpoints a request may hold, leaving two for messages.
 * The shapes are exactly the SDK's `TextBlockParam` and
 * `CacheControlEphemeral` (`{type: 'ephemeral', ttl?: '5m' | '1h'}`); a test
 * checks them against the SDK's types, extra keys included.
 */
import { checkOptionalBoolean } from './arguments.js';
import { breakpointSides, type CacheTtl, type TtlOptions } from './prompt-sides.js';
import type { SystemPrompt } from './system-prompt.js';

export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: CacheTtl;
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

/**
 * `scope: 'global'` is a first-party extension some Anthropic-run clients
 * send; the public API defines no such field. Only with `globalScope: true`.
 */
export interface AnthropicGlobalCacheControl extends AnthropicCacheControl {
  scope: 'global';
}

export interface AnthropicGlobalTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl | AnthropicGlobalCacheControl;
}

export interface AnthropicSystemOptions extends TtlOptions {
  /** Add cache breakpoints; default true. */
  cache?: boolean;
  /** Mark the static block `scope: 'global'` (not part of the public API); default false. */
  globalScope?: boolean;
}

export function toAnthropicSystem(prompt: SystemPrompt, options?: AnthropicSystemOptions & { globalScope?: false }): AnthropicTextBlock[];
export function toAnthropicSystem(prompt: SystemPrompt, options: AnthropicSystemOptions & { globalScope: true }): AnthropicGlobalTextBlock[];
export function toAnthropicSystem(prompt: SystemPrompt, options?: AnthropicSystemOptions): AnthropicTextBlock[] | AnthropicGlobalTextBlock[];
export function toAnthropicSystem(prompt: SystemPrompt, options?: AnthropicSystemOptions): AnthropicGlobalTextBlock[] {
  const sides = breakpointSides(prompt, options, 'toAnthropicSystem');
  const globalScope = options?.globalScope;
  checkOptionalBoolean('toAnthropicSystem', 'options.globalScope', globalScope);
  return sides.map((side) => {
    const control = side.breakpoint ? cacheControl(side.ttl) : undefined;
    return textBlock(side.text, control && side.isStatic && globalScope ? { ...control, scope: 'global' } : control);
  });
}

/** A `cache_control` value; the provider's default lifetime when `ttl` is absent. */
export function cacheControl(ttl: CacheTtl | undefined): AnthropicCacheControl {
  return ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

function textBlock(text: string, control: AnthropicGlobalTextBlock['cache_control']): AnthropicGlobalTextBlock {
  return control ? { type: 'text', text, cache_control: control } : { type: 'text', text };
}
