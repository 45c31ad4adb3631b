/**
 * The budget both request planners (`toAnthropicRequest`, `toBedrockRequest`)
 * place cache breakpoints within, as the providers document it:
 *
 * - a request holds at most 4 breakpoints across tools, system and messages
 *   (Anthropic's `cache_control`, automatic caching's top-level one included;
 *   Bedrock Converse's `cachePoint` blocks, for Claude models);
 * - a breakpoint with a longer TTL must come before any with a shorter one
 *   (no TTL is the 5-minute default);
 * - breakpoints the caller placed are kept as they are and count against the
 *   budget.
 *
 * The planner's own candidates are taken in priority order; one that cannot
 * be placed is reported with the reason, never dropped silently.
 */
import { ArgumentError, checkOneOf } from './arguments.js';
import { CACHE_TTLS, TTL_MINUTES, type CacheTtl } from './prompt-sides.js';

/** The most cache breakpoints one request may hold. */
export const MAX_BREAKPOINTS = 4;


/** Where the planner may put a breakpoint, in priority order. */
export type BreakpointPlace = 'end of tools' | 'end of static prefix' | 'end of system' | 'last user turn' | 'automatic';

/** A breakpoint in the planned request: the planner's (by place) or the caller's, where it is, and its lifetime. */
export interface PlannedBreakpoint {
  at: BreakpointPlace | 'caller';
  /** Its location in the request, e.g. `tools[2]`, `system[0]`, `messages[4].content[1]`, `cache_control`. */
  path: string;
  /** The lifetime it has; `5m` when the breakpoint names none (the providers' default). */
  ttl: CacheTtl;
}

/** A breakpoint the planner wanted and did not place, and why. */
export interface DroppedBreakpoint {
  at: BreakpointPlace;
  reason: string;
}

/**
 * A place in the request, compared element by element: section (0 tools,
 * 1 system, 2 messages, 3 the end of the request), then indices.
 */
export type Position = readonly number[];

/** A breakpoint the caller placed. */
export interface CallerBreakpoint {
  /** The block holding it (Anthropic) or the cache point block itself (Bedrock). */
  path: string;
  /** The key of the marker in that block: `cache_control` or `cachePoint`. */
  field: string;
  /** The marker as the caller wrote it. */
  marker: Readonly<Record<string, unknown>>;
  position: Position;
  /** As written; undefined is the 5-minute default. */
  ttl: CacheTtl | undefined;
}

/** A breakpoint the planner would place. */
export interface Candidate {
  at: BreakpointPlace;
  position: Position;
  ttl: CacheTtl | undefined;
  /** Why it cannot go where it belongs (e.g. an empty text block), if it cannot. */
  unplaceable?: string;
}

export function effectiveTtl(ttl: CacheTtl | undefined): CacheTtl {
  return ttl ?? '5m';
}

export function minutes(ttl: CacheTtl | undefined): number {
  return TTL_MINUTES[effectiveTtl(ttl)];
}

export function comparePositions(a: Position, b: Position): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Refuses caller breakpoints the provider would refuse whatever the planner
 * adds: more than the budget, or a longer TTL after a shorter one. The
 * parameter named is `input.` and the marker's path in JavaScript.
 */
export function checkCallerBreakpoints(fn: string, caller: readonly CallerBreakpoint[]): void {
  const sorted = [...caller].sort((a, b) => comparePositions(a.position, b.position));
  if (sorted.length > MAX_BREAKPOINTS) {
    const extra = sorted[MAX_BREAKPOINTS]!;
    throw new ArgumentError(
      fn,
      `input.${extra.path}.${extra.field}`,
      `absent: a request holds at most ${MAX_BREAKPOINTS} cache breakpoints, and this is the caller's ${MAX_BREAKPOINTS + 1}th`,
      extra.marker,
    );
  }
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    const later = sorted[i]!;
    if (minutes(later.ttl) > minutes(before.ttl)) {
      throw new ArgumentError(
        fn,
        `input.${later.path}.${later.field}.ttl`,
        `no longer than '${effectiveTtl(before.ttl)}', the TTL of the caller's breakpoint at ${before.path} before it (a longer TTL must come before a shorter one)`,
        later.ttl,
      );
    }
  }
}

/**
 * Takes the candidates in priority order and keeps each that can be placed
 * without breaking the TTL order against the caller's breakpoints and while
 * the budget lasts. The candidates' own TTLs are already in order (the
 * options are checked for that), so the request's breakpoints end up in order.
 */
export function planBreakpoints(caller: readonly CallerBreakpoint[], candidates: readonly Candidate[]): { placed: Candidate[]; dropped: DroppedBreakpoint[] } {
  const placed: Candidate[] = [];
  const dropped: DroppedBreakpoint[] = [];
  for (const candidate of candidates) {
    const reason = candidate.unplaceable ?? ttlConflict(caller, candidate) ?? budgetSpent(caller.length, placed.length);
    if (reason === undefined) placed.push(candidate);
    else dropped.push({ at: candidate.at, reason });
  }
  return { placed, dropped };
}

function ttlConflict(caller: readonly CallerBreakpoint[], candidate: Candidate): string | undefined {
  const own = minutes(candidate.ttl);
  for (const other of caller) {
    const order = comparePositions(other.position, candidate.position);
    const theirs = minutes(other.ttl);
    if ((order < 0 && own > theirs) || (order > 0 && own < theirs)) {
      return `the caller's '${effectiveTtl(other.ttl)}' breakpoint at ${other.path} comes ${order < 0 ? 'before' : 'after'} it, and a longer TTL must come before a shorter one`;
    }
  }
  return undefined;
}

function budgetSpent(callers: number, placed: number): string | undefined {
  if (callers + placed < MAX_BREAKPOINTS) return undefined;
  return `a request holds at most ${MAX_BREAKPOINTS} cache breakpoints: ${callers} placed by the caller, ${placed} by the places ranked before it`;
}

/** The caller's breakpoints and the placed ones, in request order, each with its final path. */
export function breakpointList(
  caller: readonly CallerBreakpoint[],
  placed: readonly { candidate: Candidate; path: string }[],
): PlannedBreakpoint[] {
  const all = [
    ...caller.map((c) => ({ position: c.position, entry: { at: 'caller' as const, path: c.path, ttl: effectiveTtl(c.ttl) } })),
    ...placed.map((p) => ({ position: p.candidate.position, entry: { at: p.candidate.at, path: p.path, ttl: effectiveTtl(p.candidate.ttl) } })),
  ];
  return all.sort((a, b) => comparePositions(a.position, b.position)).map((item) => item.entry);
}

/** A caller's TTL: absent, or one the providers take. */
export function checkTtlValue(fn: string, parameter: string, value: unknown): asserts value is CacheTtl | undefined {
  checkOneOf(fn, parameter, value, CACHE_TTLS);
}
