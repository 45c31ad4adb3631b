/**
 * The assembled system prompt: an ordered list of parts, one per section. It
 * is branded so that a plain array cannot pass for one by accident — the only
 * way in is `asSystemPrompt`, which copies and freezes.
 */

/**
 * Separates the static prefix (identical for every user: globally cacheable)
 * from the dynamic tail. It is a part of its own, never sent to a provider:
 * `toSystemBlocks` turns it into a cache breakpoint.
 */
export const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';

declare const systemPromptBrand: unique symbol;
export type SystemPrompt = readonly string[] & { readonly [systemPromptBrand]: true };

// A WeakSet rather than a marker property: a brand cannot be forged by copying
// a property, and prompts are never kept alive by it.
const systemPrompts = new WeakSet<readonly string[]>();

export function asSystemPrompt(parts: readonly string[]): SystemPrompt {
  if (isSystemPrompt(parts)) return parts;
  // Copy so the caller's array can change without changing the prompt.
  const prompt: readonly string[] = Object.freeze([...parts]);
  for (let index = 0; index < prompt.length; index++) {
    if (typeof prompt[index] !== 'string') throw new TypeError(`asSystemPrompt: part ${index} is not a string`);
  }
  systemPrompts.add(prompt);
  return prompt as SystemPrompt;
}

export function isSystemPrompt(value: unknown): value is SystemPrompt {
  return Array.isArray(value) && systemPrompts.has(value);
}

/**
 * The prompt as one string, parts separated by blank lines (how a provider
 * that takes a single system string receives it). The boundary is dropped,
 * or shown on its own line with `showBoundary` (for `prompt-build render`).
 */
export function renderSystemPrompt(prompt: SystemPrompt, options: { showBoundary?: boolean } = {}): string {
  const parts = options.showBoundary ? prompt : prompt.filter((part) => part !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  return parts.join('\n\n');
}
