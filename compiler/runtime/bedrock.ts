/**
 * Amazon Bedrock Converse API `system` content blocks: text blocks, each side
 * of the boundary followed by a `cachePoint` block (Bedrock's breakpoint),
 * exactly the SDK's `SystemContentBlock` members `TextMember` and
 * `CachePointMember`. Two cache points of the four a request may hold.
 */
import { breakpointSides, type CacheTtl, type TtlOptions } from './prompt-sides.js';
import type { SystemPrompt } from './system-prompt.js';

export interface BedrockCachePoint {
  type: 'default';
  ttl?: CacheTtl;
}

export type BedrockSystemBlock = { text: string } | { cachePoint: BedrockCachePoint };

export interface BedrockSystemOptions extends TtlOptions {
  /** Add cache points; default true. */
  cache?: boolean;
}

export function toBedrockSystem(prompt: SystemPrompt, options?: BedrockSystemOptions): BedrockSystemBlock[] {
  const blocks: BedrockSystemBlock[] = [];
  for (const side of breakpointSides(prompt, options, 'toBedrockSystem')) {
    blocks.push({ text: side.text });
    if (side.breakpoint) blocks.push({ cachePoint: cachePoint(side.ttl) });
  }
  return blocks;
}

/** A `cachePoint`'s value; the provider's default lifetime when `ttl` is absent. */
export function cachePoint(ttl: CacheTtl | undefined): BedrockCachePoint {
  return ttl === undefined ? { type: 'default' } : { type: 'default', ttl };
}
