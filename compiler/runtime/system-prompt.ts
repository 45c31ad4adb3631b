/**
 * The assembled system prompt: an ordered list of parts, one per section. It
 * is branded so that a plain array cannot pass for one by accident — the only
 * way in is `asSystemPrompt`, which copies and freezes.
 */
import { checkOptionalBoolean, checkOptionalString, checkPrompt, optionsOf } from './arguments.js';

/**
 * Separates the static prefix (identical for every user: globally cacheable)
 * from the dynamic tail. It is a part of its own, never sent to a provider:
 * the provider adapters (`toAnthropicSystem`, `toBedrockSystem`…) turn it into
 * a cache breakpoint.
 */
export const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';

declare const systemPromptBrand: unique symbol;
export type SystemPrompt = readonly string[] & { readonly [systemPromptBrand]: true };

/**
 * The brand: a property under a symbol this module keeps to itself,
 * non-enumerable, set before the array is frozen — so spreading, copying or
 * JSON never carries it, and nothing outside can forge it. Its value is the
 * identity of the static prefix the prompt starts with (a profile's
 * `staticPrefixHash`, an agent's text hash), known only for prompts whose
 * first parts are exactly what the bundle holds, or null. `length`: how many
 * parts that prefix is — up to and including the boundary (every prompt the
 * bundle assembles has one, a static-only profile's last), or every part of a
 * prompt registered with a hash and no boundary.
 */
const BRAND = Symbol('prompt-build.systemPrompt');

interface StaticPrefix {
  hash: string;
  length: number;
  /** The profile or agent of the bundle the prefix is; absent for a hash the caller gave. */
  source?: PromptSource;
}

/** Which profile or agent of a bundle a prompt's static prefix is: what a usage record names (`recordUsage`). */
export interface PromptSource {
  readonly kind: 'profile' | 'agent';
  readonly name: string;
}

export interface SystemPromptOrigin {
  /**
   * The hash identifying the prompt's static prefix: the parts before the
   * boundary, or all of them when there is no boundary. Provider adapters
   * derive cache keys from it.
   */
  staticPrefixHash?: string;
  /**
   * Prompts `parts` was built from: when `parts` starts with one's static
   * prefix unchanged, that prompt's hash carries over to the result.
   */
  derivedFrom?: readonly unknown[];
}

export function asSystemPrompt(parts: readonly string[], given?: SystemPromptOrigin): SystemPrompt {
  const origin = optionsOf('asSystemPrompt', given, 'origin');
  checkOptionalString('asSystemPrompt', 'origin.staticPrefixHash', origin.staticPrefixHash);
  if (isSystemPrompt(parts) && origin.staticPrefixHash === undefined) return parts;
  checkPrompt('asSystemPrompt', parts, 'parts');
  // Copy so the caller's array can change without changing the prompt.
  const prompt: string[] = [...parts];
  const boundary = prompt.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  const prefix =
    origin.staticPrefixHash === undefined
      ? carriedPrefix(prompt, origin.derivedFrom)
      : { hash: origin.staticPrefixHash, length: boundary === -1 ? prompt.length : boundary + 1 };
  return brand(prompt, prefix ?? null);
}

/**
 * A prompt assembled from a bundle (assemble.ts): `asSystemPrompt` with the
 * static prefix's hash, and the profile or agent it is — which a prompt
 * derived from it unchanged carries too, as it carries the hash.
 */
export function asBundlePrompt(parts: readonly string[], staticPrefixHash: string, source: PromptSource): SystemPrompt {
  checkPrompt('asSystemPrompt', parts, 'parts');
  const prompt: string[] = [...parts];
  const boundary = prompt.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  return brand(prompt, { hash: staticPrefixHash, length: boundary === -1 ? prompt.length : boundary + 1, source });
}

function brand(prompt: string[], prefix: StaticPrefix | null): SystemPrompt {
  Object.defineProperty(prompt, BRAND, { value: prefix });
  return Object.freeze(prompt) as readonly string[] as SystemPrompt;
}

export function isSystemPrompt(value: unknown): value is SystemPrompt {
  return Array.isArray(value) && Object.hasOwn(value, BRAND);
}

/**
 * `checkPrompt` for what a public function takes as a prompt, skipping the
 * walk over the parts for a SystemPrompt: `asSystemPrompt` checked them when it
 * branded the (frozen) array. The adapters run per request; this keeps them cheap.
 */
export function checkSystemPrompt(fn: string, prompt: unknown, parameter = 'prompt'): void {
  if (!isSystemPrompt(prompt)) checkPrompt(fn, prompt, parameter);
}

/** The identity of the static prefix the prompt starts with, when it came from a bundle (see `SystemPromptOrigin`). */
export function staticPrefixHashOf(prompt: SystemPrompt): string | undefined {
  checkSystemPrompt('staticPrefixHashOf', prompt);
  return isSystemPrompt(prompt) ? prefixOf(prompt)?.hash : undefined;
}

/** The profile or agent of a bundle the prompt's static prefix is, when it came from one unchanged. */
export function promptSourceOf(prompt: SystemPrompt): PromptSource | undefined {
  return isSystemPrompt(prompt) ? prefixOf(prompt)?.source : undefined;
}

function prefixOf(prompt: SystemPrompt): StaticPrefix | null {
  return (prompt as unknown as { [BRAND]: StaticPrefix | null })[BRAND];
}

/** The static prefix of the first source that `parts` starts with, unchanged. */
function carriedPrefix(parts: readonly string[], sources: readonly unknown[] = []): StaticPrefix | undefined {
  for (const source of sources) {
    if (!isSystemPrompt(source)) continue;
    const prefix = prefixOf(source);
    if (prefix === null || prefix.length > parts.length) continue;
    let same = true;
    for (let index = 0; same && index < prefix.length; index++) same = parts[index] === source[index];
    if (same) return prefix;
  }
  return undefined;
}

/**
 * The prompt as one string, parts separated by blank lines (how a provider
 * that takes a single system string receives it). The boundary is dropped,
 * or shown on its own line with `showBoundary` (for `prompt-build render`).
 */
export function renderSystemPrompt(prompt: SystemPrompt, given?: { showBoundary?: boolean }): string {
  checkSystemPrompt('renderSystemPrompt', prompt);
  const options = optionsOf('renderSystemPrompt', given);
  checkOptionalBoolean('renderSystemPrompt', 'options.showBoundary', options.showBoundary);
  const parts = options.showBoundary ? prompt : prompt.filter((part) => part !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  return parts.join('\n\n');
}
