/**
 * What the breakpoint-taking adapters (Anthropic, Bedrock) start from: a
 * SystemPrompt cut at its boundary into the static prefix (the same bytes for
 * every user) and the dynamic tail, each side's parts joined with blank lines
 * and the marker never kept, and the lifetime of the breakpoint after each.
 */
import { ArgumentError, checkOneOf, checkOptionalBoolean, optionsOf } from './arguments.js';
import { checkSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, type SystemPrompt } from './system-prompt.js';

interface PromptSides {
  /** The text before the boundary; '' when there is none or no boundary. */
  readonly static: string;
  /** The text after the boundary, or the whole prompt when it has no boundary. */
  readonly dynamic: string;
}

function promptSides(prompt: SystemPrompt): PromptSides {
  const boundary = prompt.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  // Without a boundary nothing is known to be shared across users: it is all tail.
  if (boundary === -1) return { static: '', dynamic: joinParts(prompt) };
  return { static: joinParts(prompt.slice(0, boundary)), dynamic: joinParts(prompt.slice(boundary + 1)) };
}

/** A marker left in the tail (a prompt assembled twice over) is still never sent. */
function joinParts(parts: readonly string[]): string {
  return parts.filter((part) => part !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY).join('\n\n');
}

/** Cache lifetimes Anthropic's Messages API and Bedrock's Converse API both take. */
export type CacheTtl = '5m' | '1h';

/** The lifetimes both APIs take, in minutes: a breakpoint with a longer one must come before a shorter one. */
export const TTL_MINUTES: Readonly<Record<CacheTtl, number>> = { '5m': 5, '1h': 60 };
export const CACHE_TTLS = Object.keys(TTL_MINUTES) as CacheTtl[];

export interface TtlOptions {
  /** Lifetime of every breakpoint; the provider's default (5 minutes) when absent. */
  ttl?: CacheTtl;
  /** Lifetime of the static prefix's breakpoint; `ttl` when absent. */
  staticTtl?: CacheTtl;
}

/**
 * Checks the two lifetimes against the providers' rule that a breakpoint
 * with a longer TTL must come before one with a shorter TTL: the static
 * prefix comes first, so it may outlive the tail, never the reverse.
 * Returns the static prefix's TTL (`staticTtl`, else `ttl`).
 */
function staticBreakpointTtl(options: TtlOptions, adapter: string): CacheTtl | undefined {
  checkOneOf(adapter, 'options.ttl', options.ttl, CACHE_TTLS);
  checkOneOf(adapter, 'options.staticTtl', options.staticTtl, CACHE_TTLS);
  const prefix = options.staticTtl ?? options.ttl;
  if (prefix !== undefined && options.ttl !== undefined && TTL_MINUTES[prefix] < TTL_MINUTES[options.ttl]) {
    throw new ArgumentError(adapter, 'options.staticTtl', `no shorter than ttl '${options.ttl}' (a longer TTL must come before a shorter one)`, prefix);
  }
  return prefix;
}

/** One side of the boundary as an adapter sends it, and the breakpoint after it, if any. */
export interface BreakpointSide {
  text: string;
  /** The static prefix (the side before the boundary). */
  isStatic: boolean;
  /** Whether a cache breakpoint follows this side (`cache: false` turns them all off). */
  breakpoint: boolean;
  /** That breakpoint's lifetime; the provider's default when undefined. */
  ttl: CacheTtl | undefined;
}

/** The non-empty sides of `prompt` in order, with their breakpoints' lifetimes checked (`staticBreakpointTtl`). */
export function breakpointSides(prompt: SystemPrompt, given: (TtlOptions & { cache?: boolean }) | undefined, adapter: string): BreakpointSide[] {
  checkSystemPrompt(adapter, prompt);
  const options = optionsOf(adapter, given);
  checkOptionalBoolean(adapter, 'options.cache', options.cache);
  const staticTtl = staticBreakpointTtl(options, adapter);
  const sides = promptSides(prompt);
  const breakpoint = options.cache ?? true;
  const out: BreakpointSide[] = [];
  if (sides.static !== '') out.push({ text: sides.static, isStatic: true, breakpoint, ttl: staticTtl });
  if (sides.dynamic !== '') out.push({ text: sides.dynamic, isStatic: false, breakpoint, ttl: options.ttl });
  return out;
}
