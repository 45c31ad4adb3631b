/**
 * Amazon Bedrock Converse API `system` content blocks: text blocks, each side
 * of the boundary followed by a `cachePoint` block (Bedrock's breakpoint),
 * exactly the SDK's `SystemContentBlock` members `TextMember` and
 * `CachePointMember`. Two cache points of the four a request may hold.
 */
import { promptSides, staticBreakpointTtl, type CacheTtl, type TtlOptions } from './prompt-sides.js';
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

export function toBedrockSystem(prompt: SystemPrompt, options: BedrockSystemOptions = {}): BedrockSystemBlock[] {
  const staticTtl = staticBreakpointTtl(options, 'toBedrockSystem');
  const sides = promptSides(prompt);
  const cache = options.cache ?? true;
  const blocks: BedrockSystemBlock[] = [];
  if (sides.static !== '') {
    blocks.push({ text: sides.static });
    if (cache) blocks.push({ cachePoint: cachePoint(staticTtl) });
  }
  if (sides.dynamic !== '') {
    blocks.push({ text: sides.dynamic });
    if (cache) blocks.push({ cachePoint: cachePoint(options.ttl) });
  }
  return blocks;
}

function cachePoint(ttl: CacheTtl | undefined): BedrockCachePoint {
  return ttl === undefined ? { type: 'default' } : { type: 'default', ttl };
}
