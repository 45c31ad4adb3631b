/**
 * Provider prompt-cache facts, as data. Below its minimum cacheable prefix a
 * provider silently does not cache at all, so a static prefix shorter than
 * this buys nothing. Keyed by model family; the first family whose prefix
 * matches a configured model id applies.
 */
export interface CacheFact {
  family: string;
  minimumTokens: number;
}

export const CACHE_FACTS: readonly CacheFact[] = [
  { family: 'claude-opus', minimumTokens: 1024 },
  { family: 'claude-sonnet', minimumTokens: 1024 },
  { family: 'claude-haiku', minimumTokens: 2048 },
  { family: 'claude-3-haiku', minimumTokens: 2048 },
  { family: 'gpt-4o', minimumTokens: 1024 },
  { family: 'gpt-4.1', minimumTokens: 1024 },
  { family: 'gpt-5', minimumTokens: 1024 },
  { family: 'gemini-2.5-pro', minimumTokens: 4096 },
  { family: 'gemini-2.5-flash', minimumTokens: 2048 },
];

/** Longest family first: `claude-3-haiku` before `claude-haiku`… and any prefix of another. */
const BY_SPECIFICITY = [...CACHE_FACTS].sort((a, b) => b.family.length - a.family.length);

export function minimumCacheableTokens(model: string): CacheFact | undefined {
  const id = model.toLowerCase();
  return BY_SPECIFICITY.find((f) => id.startsWith(f.family));
}
