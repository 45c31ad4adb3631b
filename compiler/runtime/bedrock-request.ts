/**
 * `toBedrockRequest`: the Converse API request fields `toolConfig`, `system`
 * and `messages` with `cachePoint` blocks placed within the budget
 * (breakpoint-budget.ts; Bedrock documents at most 4 cache checkpoints per
 * request for Claude models, processed tools → system → messages, longer TTLs
 * first). A cache point is a block of its own, appended after the content it
 * closes, in priority order: after the tool specs, after the static prefix,
 * after the system prompt's tail, after the last user turn's content.
 * Converse has no automatic caching. The caller's arrays and objects are never
 * changed: what gains a cache point is a copy, the rest is shared.
 */
import { ArgumentError, checkPrompt, isRecord, optionsOf } from './arguments.js';
import { cachePoint, type BedrockCachePoint, type BedrockSystemBlock } from './bedrock.js';
import { breakpointList, checkCallerBreakpoints, planBreakpoints, type Candidate, type DroppedBreakpoint, type PlannedBreakpoint } from './breakpoint-budget.js';
import { callerMarker, checkMessages, checkTools, messageMarkers, type MarkerStyle, type Rec } from './caller-markers.js';
import { breakpointSides, type CacheTtl, type TtlOptions } from './prompt-sides.js';
import type { SystemPrompt } from './system-prompt.js';

const FN = 'toBedrockRequest';
/** How Bedrock writes a breakpoint: a `cachePoint` block of its own; content is always blocks. */
const STYLE: MarkerStyle = { field: 'cachePoint', type: 'default', nullable: false, stringContent: false, typedBlocks: false };

/** What the planner needs of a `toolConfig` (the SDK's `ToolConfiguration`). */
export interface BedrockToolConfigLike {
  tools?: readonly object[] | undefined;
}

/** What the planner needs of a message (the SDK's `Message`). */
export interface BedrockMessageLike {
  role?: string | undefined;
  content?: readonly object[] | undefined;
}

export type BedrockCachePointBlock = { cachePoint: BedrockCachePoint };

type ElementOf<A> = A extends readonly (infer E)[] ? E : never;

/** The tool configuration as planned: a cache point may follow the tool specs. */
export type BedrockPlannedToolConfig<C> = [C] extends [never] ? never : Omit<C, 'tools'> & { tools: (ElementOf<C extends { tools?: infer A } ? A : never> | BedrockCachePointBlock)[] };

/** A message as planned: a cache point may follow its content. */
export type BedrockPlannedMessage<M> = [M] extends [never] ? never : Omit<M, 'content'> & { content: (ElementOf<M extends { content?: infer A } ? A : never> | BedrockCachePointBlock)[] };

export interface BedrockRequestInput<C extends BedrockToolConfigLike = BedrockToolConfigLike, M extends BedrockMessageLike = BedrockMessageLike> {
  /** The prompt: its static prefix and tail become `system` blocks. */
  system: SystemPrompt;
  toolConfig?: C;
  messages?: readonly M[];
}

export interface BedrockRequestOptions extends TtlOptions {
  /** Place cache points; default true. With false only the caller's own stay. */
  cache?: boolean;
}

/** The fields to spread into `new ConverseCommand({ modelId, ...request })`. */
export interface BedrockRequestFields<C, M> {
  toolConfig?: BedrockPlannedToolConfig<C>;
  system: BedrockSystemBlock[];
  messages?: BedrockPlannedMessage<M>[];
}

export interface BedrockRequestPlan<C, M> {
  request: BedrockRequestFields<C, M>;
  /** Every cache point the request holds, in request order: the caller's and the planner's. */
  breakpoints: PlannedBreakpoint[];
  /** The planner's cache points it could not place, each with the reason. */
  dropped: DroppedBreakpoint[];
}

export function toBedrockRequest<C extends BedrockToolConfigLike = never, M extends BedrockMessageLike = never>(
  input: BedrockRequestInput<C, M>,
  given?: BedrockRequestOptions,
): BedrockRequestPlan<C, M> {
  if (!isRecord(input)) throw new ArgumentError(FN, 'input', 'an object { system, toolConfig?, messages? }', input);
  checkPrompt(FN, input.system, 'input.system');
  const tools = checkToolConfig(input.toolConfig);
  const messages = checkMessages(FN, STYLE, input.messages);
  const options = optionsOf(FN, given);
  const sides = breakpointSides(input.system, options, FN);

  const caller = [
    ...tools.flatMap((tool, i) => callerMarker(STYLE, tool, `toolConfig.tools[${i}]`, [0, i])),
    ...messageMarkers(STYLE, messages),
  ];
  checkCallerBreakpoints(FN, caller);

  const toolsPoint: Candidate = { at: 'end of tools', position: [0, tools.length], ttl: options.staticTtl ?? options.ttl };
  const sidePoints: Candidate[] = sides.map((side, i) => ({ at: side.isStatic ? 'end of static prefix' : 'end of system', position: [1, i], ttl: side.ttl }));
  const turn = lastUserTurn(messages, options.ttl);
  const candidates: Candidate[] = [];
  if (options.cache ?? true) {
    // A cache point already closing the tools (or the turn) is the caller's: nothing to add there.
    if (tools.length > 0 && !isCachePoint(tools[tools.length - 1]!)) candidates.push(toolsPoint);
    candidates.push(...sidePoints);
    if (turn) candidates.push(turn.candidate);
  }
  const { placed, dropped } = planBreakpoints(caller, candidates);
  const placedPaths: { candidate: Candidate; path: string }[] = [];

  const request = {} as BedrockRequestFields<unknown, unknown>;
  if (input.toolConfig !== undefined) {
    const toolConfig = input.toolConfig as Rec;
    if (placed.includes(toolsPoint)) {
      placedPaths.push({ candidate: toolsPoint, path: `toolConfig.tools[${tools.length}]` });
      request.toolConfig = { ...toolConfig, tools: [...tools, point(toolsPoint.ttl)] } as BedrockPlannedToolConfig<unknown>;
    } else request.toolConfig = toolConfig as BedrockPlannedToolConfig<unknown>;
  }
  const system: BedrockSystemBlock[] = [];
  sides.forEach((side, i) => {
    system.push({ text: side.text });
    const candidate = sidePoints[i]!;
    if (!placed.includes(candidate)) return;
    placedPaths.push({ candidate, path: `system[${system.length}]` });
    system.push(point(candidate.ttl));
  });
  request.system = system;
  if (input.messages !== undefined) {
    request.messages = messages.map((message, m) => {
      if (!turn || m !== turn.message || !placed.includes(turn.candidate)) return message;
      const content = message.content as Rec[];
      placedPaths.push({ candidate: turn.candidate, path: `messages[${m}].content[${content.length}]` });
      return { ...message, content: [...content, point(turn.candidate.ttl)] };
    }) as BedrockPlannedMessage<unknown>[];
  }
  return { request: request as BedrockRequestFields<C, M>, breakpoints: breakpointList(caller, placedPaths), dropped };
}

function point(ttl: CacheTtl | undefined): BedrockCachePointBlock {
  return { cachePoint: cachePoint(ttl) };
}

function isCachePoint(block: Rec): boolean {
  return block.cachePoint !== undefined;
}

function checkToolConfig(value: unknown): Rec[] {
  if (value === undefined) return [];
  if (!isRecord(value)) throw new ArgumentError(FN, 'input.toolConfig', 'an object { tools }', value);
  return checkTools(FN, STYLE, value.tools, 'input.toolConfig.tools');
}

/** The last user turn, where a cache point after its content caches the conversation so far; null if none to add. */
function lastUserTurn(messages: readonly Rec[], ttl: CacheTtl | undefined): { candidate: Candidate; message: number } | null {
  let m = messages.length - 1;
  while (m >= 0 && messages[m]!.role !== 'user') m--;
  if (m < 0) return null;
  const content = messages[m]!.content as Rec[];
  const last = content[content.length - 1];
  if (last !== undefined && isCachePoint(last)) return null;
  const candidate: Candidate = { at: 'last user turn', position: [2, m, content.length], ttl };
  return { candidate: last === undefined ? { ...candidate, unplaceable: 'the last user turn has no content block' } : candidate, message: m };
}
