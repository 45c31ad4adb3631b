/**
 * `toAnthropicRequest`: the Messages API request fields `tools`, `system`,
 * `messages` (and automatic caching's top-level `cache_control`) with cache
 * breakpoints placed within the API's budget (breakpoint-budget.ts). Places,
 * in priority order: the end of the tools, the end of the static prefix, the
 * end of the system prompt, the last user turn's last block (or, with
 * automatic caching, the top-level `cache_control`, which marks the request's
 * last block itself). The caller's arrays and objects are never changed:
 * what is marked is a copy, the rest is shared.
 */
import { cacheControl, type AnthropicCacheControl, type AnthropicTextBlock } from './anthropic.js';
import { ArgumentError, checkPrompt, isRecord, optionsOf } from './arguments.js';
import { breakpointList, checkCallerBreakpoints, checkTtlValue, effectiveTtl, minutes, planBreakpoints, type Candidate, type DroppedBreakpoint, type PlannedBreakpoint } from './breakpoint-budget.js';
import { callerMarker, checkMessages, checkTools, messageMarkers, type MarkerStyle, type Rec } from './caller-markers.js';
import { breakpointSides, type CacheTtl, type TtlOptions } from './prompt-sides.js';
import type { SystemPrompt } from './system-prompt.js';

const FN = 'toAnthropicRequest';
/** How Anthropic writes a breakpoint: `cache_control` on the block; content may be a string. */
const STYLE: MarkerStyle = { field: 'cache_control', type: 'ephemeral', nullable: true, stringContent: true, typedBlocks: true };

/** What the planner needs of a tool: the SDK's `ToolUnion` members are all of this shape. */
export interface AnthropicToolLike {
  name?: string;
  type?: string | null;
  cache_control?: AnthropicCacheControl | null;
}

/** What the planner needs of a content block (`ContentBlockParam`). */
export interface AnthropicBlockLike {
  type: string;
  cache_control?: AnthropicCacheControl | null;
}

/** What the planner needs of a message (`MessageParam`); the roles as literals, so a literal message keeps its own. */
export interface AnthropicMessageLike {
  role: 'user' | 'assistant' | 'system';
  content: string | readonly AnthropicBlockLike[];
}

/** A message as planned: the last user turn's string content may have become one text block. */
export type AnthropicPlannedMessage<M> = M extends unknown ? Omit<M, 'content'> & { content: M extends { content: infer C } ? C | AnthropicTextBlock[] : never } : never;

export interface AnthropicRequestInput<T extends AnthropicToolLike = AnthropicToolLike, M extends AnthropicMessageLike = AnthropicMessageLike> {
  /** The prompt: its static prefix and tail become `system` blocks. */
  system: SystemPrompt;
  tools?: readonly T[];
  messages?: readonly M[];
}

export interface AnthropicRequestOptions extends TtlOptions {
  /** Place breakpoints; default true. With false only the caller's own stay. */
  cache?: boolean;
  /**
   * Automatic caching: a top-level `cache_control` that marks the request's
   * last block, in place of the last user turn's breakpoint. It takes one of
   * the 4 slots; its TTL may not be longer than `ttl`.
   */
  automatic?: boolean | { ttl?: CacheTtl };
}

/** The fields to spread into `client.messages.create({ model, max_tokens, ...request })`. */
export interface AnthropicRequestFields<T, M> {
  tools?: T[];
  system: AnthropicTextBlock[];
  messages?: AnthropicPlannedMessage<M>[];
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicRequestPlan<T, M> {
  request: AnthropicRequestFields<T, M>;
  /** Every breakpoint the request holds, in request order: the caller's and the planner's. */
  breakpoints: PlannedBreakpoint[];
  /** The planner's breakpoints it could not place, each with the reason. */
  dropped: DroppedBreakpoint[];
}

export function toAnthropicRequest<T extends AnthropicToolLike = never, M extends AnthropicMessageLike = never>(
  input: AnthropicRequestInput<T, M> & { messages: readonly M[] },
  options?: AnthropicRequestOptions,
): AnthropicRequestPlan<T, M> & { request: { messages: AnthropicPlannedMessage<M>[] } };
export function toAnthropicRequest<T extends AnthropicToolLike = never, M extends AnthropicMessageLike = never>(
  input: AnthropicRequestInput<T, M>,
  options?: AnthropicRequestOptions,
): AnthropicRequestPlan<T, M>;
export function toAnthropicRequest(input: AnthropicRequestInput, given?: AnthropicRequestOptions): AnthropicRequestPlan<unknown, unknown> {
  if (!isRecord(input)) throw new ArgumentError(FN, 'input', 'an object { system, tools?, messages? }', input);
  checkPrompt(FN, input.system, 'input.system');
  const tools = input.tools === undefined ? [] : checkTools(FN, STYLE, input.tools, 'input.tools');
  const messages = checkMessages(FN, STYLE, input.messages);
  const options = optionsOf(FN, given);
  const sides = breakpointSides(input.system, options, FN);
  const automatic = automaticTtl(options);

  const caller = [...tools.flatMap((tool, i) => callerMarker(STYLE, tool, `tools[${i}]`, [0, i])), ...messageMarkers(STYLE, messages)];
  checkCallerBreakpoints(FN, caller);
  const marked = new Set(caller.map((c) => c.path));

  // Each candidate with where its cache_control goes (a system block, or a path into tools and messages).
  const candidates: { candidate: Candidate; path: string }[] = [];
  if (options.cache ?? true) {
    const prefixTtl = options.staticTtl ?? options.ttl;
    const lastTool = tools.length - 1;
    if (lastTool >= 0 && !marked.has(`tools[${lastTool}]`)) {
      candidates.push({ candidate: { at: 'end of tools', position: [0, lastTool], ttl: prefixTtl }, path: `tools[${lastTool}]` });
    }
    sides.forEach((side, i) => {
      const at = side.isStatic ? 'end of static prefix' : 'end of system';
      candidates.push({ candidate: { at, position: [1, i], ttl: side.ttl }, path: `system[${i}]` });
    });
    if (automatic.on) candidates.push({ candidate: automaticCandidate(messages, marked, automatic.ttl), path: 'cache_control' });
    else {
      const turn = lastUserTurn(messages, marked, options.ttl);
      if (turn) candidates.push(turn);
    }
  }
  const { placed, dropped } = planBreakpoints(caller, candidates.map((c) => c.candidate));
  const placedPaths = candidates.filter((c) => placed.includes(c.candidate));

  // Built key by key: tools, system, messages, cache_control (the Python runtime writes the same order).
  const request = {} as AnthropicRequestFields<unknown, unknown>;
  const at = new Map(placedPaths.map((p) => [p.path, p.candidate.ttl]));
  if (input.tools !== undefined) request.tools = tools.map((tool, i) => (at.has(`tools[${i}]`) ? { ...tool, cache_control: cacheControl(at.get(`tools[${i}]`)) } : tool));
  request.system = sides.map((side, i) => {
    const path = `system[${i}]`;
    return at.has(path) ? { type: 'text', text: side.text, cache_control: cacheControl(at.get(path)) } : { type: 'text', text: side.text };
  });
  if (input.messages !== undefined) request.messages = messages.map((message, m) => markedMessage(message, m, at)) as AnthropicPlannedMessage<unknown>[];
  if (at.has('cache_control')) request.cache_control = cacheControl(at.get('cache_control'));
  return { request, breakpoints: breakpointList(caller, placedPaths), dropped };
}

/** The automatic breakpoint's TTL, the options checked: it marks the last block, so it may not outlive `ttl`. */
function automaticTtl(options: Partial<AnthropicRequestOptions>): { on: boolean; ttl: CacheTtl | undefined } {
  const value = options.automatic;
  if (value === undefined || value === false) return { on: false, ttl: undefined };
  if (value !== true && !isRecord(value)) throw new ArgumentError(FN, 'options.automatic', 'true, false or { ttl }', value);
  const ttl = value === true ? undefined : (value as { ttl?: unknown }).ttl;
  checkTtlValue(FN, 'options.automatic.ttl', ttl);
  if (options.cache === false) throw new ArgumentError(FN, 'options.automatic', 'false or absent when options.cache is false', value);
  if (minutes(ttl) > minutes(options.ttl)) {
    throw new ArgumentError(
      FN,
      'options.automatic.ttl',
      `no longer than options.ttl ('${effectiveTtl(options.ttl)}'): automatic caching marks the last block, and a longer TTL must come before a shorter one`,
      ttl,
    );
  }
  return { on: true, ttl };
}

/**
 * Automatic caching marks the request's last block. Without messages the
 * planner cannot see that block (the caller adds messages later; the API
 * requires them), so only a caller's breakpoint already on the last block it
 * can see stops it.
 */
function automaticCandidate(messages: readonly Rec[], marked: ReadonlySet<string>, ttl: CacheTtl | undefined): Candidate {
  const candidate: Candidate = { at: 'automatic', position: [3], ttl };
  const m = messages.length - 1;
  const content = messages[m]?.content;
  if (!Array.isArray(content) || content.length === 0) return candidate;
  const last = `messages[${m}].content[${content.length - 1}]`;
  if (!marked.has(last)) return candidate;
  // The API makes it a no-op with the same TTL and refuses the request with another.
  return { ...candidate, unplaceable: `the request's last block, ${last}, already holds the caller's breakpoint` };
}

/** The last user turn's last block, where a breakpoint caches the conversation so far; null if there is none to mark. */
function lastUserTurn(messages: readonly Rec[], marked: ReadonlySet<string>, ttl: CacheTtl | undefined): { candidate: Candidate; path: string } | null {
  let m = messages.length - 1;
  while (m >= 0 && messages[m]!.role !== 'user') m--;
  if (m < 0) return null;
  const content = messages[m]!.content as string | readonly Rec[];
  const j = typeof content === 'string' ? 0 : content.length - 1;
  const path = `messages[${m}].content[${j}]`;
  const candidate: Candidate = { at: 'last user turn', position: [2, m, j], ttl };
  if (marked.has(path)) return null;
  const unplaceable = unplaceableBlock(content);
  return { candidate: unplaceable === undefined ? candidate : { ...candidate, unplaceable }, path };
}

/** Why the last block of a user turn's content cannot carry `cache_control`, if it cannot. */
function unplaceableBlock(content: string | readonly Rec[]): string | undefined {
  if (content === '') return 'the last user turn is an empty string, and an empty text block cannot be cached';
  if (typeof content === 'string') return undefined;
  const block = content[content.length - 1];
  if (block === undefined) return 'the last user turn has no content block';
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return `the last user turn ends in a ${block.type} block, which cannot carry cache_control`;
  if (block.type === 'text' && block.text === '') return 'the last user turn ends in an empty text block, which cannot be cached';
  return undefined;
}

/** A copy of the message with its marked block, or the message itself when nothing in it is marked. */
function markedMessage(message: Rec, m: number, at: ReadonlyMap<string, CacheTtl | undefined>): Rec {
  const content = message.content as string | readonly Rec[];
  if (typeof content === 'string') {
    const path = `messages[${m}].content[0]`;
    // A string is one text block: the same text, now able to carry the breakpoint.
    return at.has(path) ? { ...message, content: [{ type: 'text', text: content, cache_control: cacheControl(at.get(path)) }] } : message;
  }
  const j = content.findIndex((_, index) => at.has(`messages[${m}].content[${index}]`));
  if (j === -1) return message;
  const blocks = content.slice();
  blocks[j] = { ...content[j], cache_control: cacheControl(at.get(`messages[${m}].content[${j}]`)) };
  return { ...message, content: blocks };
}
