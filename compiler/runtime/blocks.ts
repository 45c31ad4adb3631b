/**
 * The first adapter's names, kept for existing callers. It put
 * `scope: 'global'` on the static block, a field the public Messages API does
 * not define; it is now `toAnthropicSystem`, which sends only documented fields.
 */
import { toAnthropicSystem, type AnthropicCacheControl, type AnthropicTextBlock } from './anthropic.js';
import { checkOptionalBoolean, optionsOf } from './arguments.js';
import { checkSystemPrompt, type SystemPrompt } from './system-prompt.js';

/** @deprecated Use `AnthropicCacheControl`. */
export type CacheControl = AnthropicCacheControl;
/** @deprecated Use `AnthropicTextBlock`. */
export type SystemTextBlock = AnthropicTextBlock;
/** @deprecated Use `AnthropicSystemOptions`. */
export interface SystemBlocksOptions {
  /** Add cache breakpoints; default true. */
  cache?: boolean;
}

/** @deprecated Use `toAnthropicSystem` (same blocks). */
export function toSystemBlocks(systemPrompt: SystemPrompt, given?: SystemBlocksOptions): SystemTextBlock[] {
  checkSystemPrompt('toSystemBlocks', systemPrompt, 'systemPrompt');
  const options = optionsOf('toSystemBlocks', given);
  checkOptionalBoolean('toSystemBlocks', 'options.cache', options.cache);
  return toAnthropicSystem(systemPrompt, options.cache === undefined ? {} : { cache: options.cache });
}
