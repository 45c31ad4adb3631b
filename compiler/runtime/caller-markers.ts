/**
 * What a caller passes a request planner besides the prompt — tools and
 * messages, possibly holding cache breakpoints of its own — checked once for
 * both planners. The providers differ only in how a breakpoint is written
 * (`MarkerStyle`) and in what a message's content may be.
 */
import { ArgumentError, isRecord } from './arguments.js';
import { checkTtlValue, type CallerBreakpoint, type Position } from './breakpoint-budget.js';
import type { CacheTtl } from './prompt-sides.js';

export type Rec = Readonly<Record<string, unknown>>;

/** How a provider writes a breakpoint in a block, and what its messages' content may be. */
export interface MarkerStyle {
  /** The block's key: Anthropic's `cache_control` (on the block), Bedrock's `cachePoint` (a block of its own). */
  field: 'cache_control' | 'cachePoint';
  /** The marker's `type`. */
  type: 'ephemeral' | 'default';
  /** Whether `null` means no marker (Anthropic's SDK types allow it). */
  nullable: boolean;
  /** Whether a message's content may be a plain string (Anthropic) or must be blocks (Bedrock). */
  stringContent: boolean;
  /** Whether a content block must name its `type` (Anthropic). */
  typedBlocks: boolean;
}

/** A caller's marker on `block`: absent, or `{ type, ttl? }` with a TTL the API takes. */
export function checkMarker(fn: string, style: MarkerStyle, block: Rec, at: string): void {
  const value = block[style.field];
  if (value === undefined || (style.nullable && value === null)) return;
  if (!isRecord(value) || value.type !== style.type) {
    throw new ArgumentError(fn, `${at}.${style.field}`, `${style.nullable ? 'null or ' : ''}{ type: '${style.type}', ttl? }`, value);
  }
  checkTtlValue(fn, `${at}.${style.field}.ttl`, value.ttl);
}

/** The breakpoint a caller placed on `block`, if any. */
export function callerMarker(style: MarkerStyle, block: Rec, path: string, position: Position): CallerBreakpoint[] {
  const marker = block[style.field];
  if (!isRecord(marker)) return [];
  return [{ path, field: style.field, marker, position, ttl: marker.ttl as CacheTtl | undefined }];
}

/** A list of tools (`at`: where the caller passed it), each an object whose marker is checked. */
export function checkTools(fn: string, style: MarkerStyle, value: unknown, at: string): Rec[] {
  if (!Array.isArray(value)) throw new ArgumentError(fn, at, 'an array of tools', value);
  value.forEach((tool, i) => {
    if (!isRecord(tool)) throw new ArgumentError(fn, `${at}[${i}]`, 'a tool (an object)', tool);
    checkMarker(fn, style, tool, `${at}[${i}]`);
  });
  return value as Rec[];
}

/** `input.messages`: absent, or `{ role, content }` objects whose content blocks' markers are checked. */
export function checkMessages(fn: string, style: MarkerStyle, value: unknown): Rec[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ArgumentError(fn, 'input.messages', 'an array of messages', value);
  value.forEach((message, m) => {
    const at = `input.messages[${m}]`;
    if (!isRecord(message)) throw new ArgumentError(fn, at, 'a message (an object)', message);
    if (typeof message.role !== 'string') throw new ArgumentError(fn, `${at}.role`, 'a string', message.role);
    const content = message.content;
    if (style.stringContent && typeof content === 'string') return;
    if (!Array.isArray(content)) throw new ArgumentError(fn, `${at}.content`, style.stringContent ? 'a string or an array of content blocks' : 'an array of content blocks', content);
    content.forEach((block: unknown, j: number) => {
      if (!isRecord(block) || (style.typedBlocks && typeof block.type !== 'string')) {
        throw new ArgumentError(fn, `${at}.content[${j}]`, style.typedBlocks ? 'a content block (an object with a type)' : 'a content block (an object)', block);
      }
      checkMarker(fn, style, block, `${at}.content[${j}]`);
    });
  });
  return value as Rec[];
}

/** The breakpoints a caller placed in the messages' content blocks. */
export function messageMarkers(style: MarkerStyle, messages: readonly Rec[]): CallerBreakpoint[] {
  return messages.flatMap((message, m) => (Array.isArray(message.content) ? (message.content as Rec[]).flatMap((block, j) => callerMarker(style, block, `messages[${m}].content[${j}]`, [2, m, j])) : []));
}
