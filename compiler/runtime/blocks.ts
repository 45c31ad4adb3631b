/**
 * Provider-ready system blocks (SPEC §6.7). The static prefix becomes one
 * block ending in a globally scoped breakpoint (same bytes for every user),
 * the dynamic tail another ending in a session breakpoint. That is two of the
 * provider's four breakpoints per request, leaving two for the messages.
 */
import { SYSTEM_PROMPT_DYNAMIC_BOUNDARY, type SystemPrompt } from './system-prompt.js';

export interface CacheControl {
  type: 'ephemeral';
  /** `global`: the prefix is identical across users, so it may be shared beyond this session. */
  scope?: 'global';
}

export interface SystemTextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export interface SystemBlocksOptions {
  /** Add cache breakpoints; default true. */
  cache?: boolean;
}

export function toSystemBlocks(systemPrompt: SystemPrompt, options: SystemBlocksOptions = {}): SystemTextBlock[] {
  const cache = options.cache ?? true;
  const boundary = systemPrompt.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  // Without a boundary nothing is known to be shared across users: one block, session-scoped.
  if (boundary === -1) return textBlocks([[systemPrompt, cache ? { type: 'ephemeral' } : undefined]]);
  return textBlocks([
    [systemPrompt.slice(0, boundary), cache ? { type: 'ephemeral', scope: 'global' } : undefined],
    [systemPrompt.slice(boundary + 1), cache ? { type: 'ephemeral' } : undefined],
  ]);
}

function textBlocks(parts: [readonly string[], CacheControl | undefined][]): SystemTextBlock[] {
  const blocks: SystemTextBlock[] = [];
  for (const [strings, cacheControl] of parts) {
    // A marker left in the tail (a prompt assembled twice over) is still never sent.
    const text = strings.filter((part) => part !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY).join('\n\n');
    if (text === '') continue;
    blocks.push(cacheControl ? { type: 'text', text, cache_control: cacheControl } : { type: 'text', text });
  }
  return blocks;
}
