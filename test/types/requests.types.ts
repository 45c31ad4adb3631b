/**
 * Type-checked, never run (test/runtime/provider-types.test.ts compiles it):
 * the request planners take the SDKs' own tool and message types, and what
 * they give back is assignable to the SDK request and uses no key it does
 * not declare.
 */
import type { CacheControlEphemeral, MessageCreateParamsNonStreaming, MessageParam, TextBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, ConverseCommandInput, Message, SystemContentBlock, Tool, ToolConfiguration } from '@aws-sdk/client-bedrock-runtime';
import { expectTypeOf } from 'vitest';
import {
  asSystemPrompt,
  toAnthropicRequest,
  toBedrockRequest,
  type AnthropicTextBlock,
  type DroppedBreakpoint,
  type PlannedBreakpoint,
} from '../../compiler/runtime/index.js';
import type { BedrockCachePointBlock } from '../../compiler/runtime/bedrock-request.js';
import type { Undeclared } from './undeclared.js';

const prompt = asSystemPrompt(['static', '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__', 'dynamic']);
declare const tools: ToolUnion[];
declare const messages: MessageParam[];

// Anthropic Messages API: the planned fields spread straight into the request. The key
// check runs on what the planner makes (the request's keys, system and converted text
// blocks, cache_control); the caller's tools and messages come back in their own types.
const planned = toAnthropicRequest({ system: prompt, tools, messages }, { staticTtl: '1h', automatic: true });
expectTypeOf<Exclude<keyof typeof planned.request, keyof MessageCreateParamsNonStreaming>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<AnthropicTextBlock, TextBlockParam>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<NonNullable<typeof planned.request.cache_control>, CacheControlEphemeral>>().toEqualTypeOf<never>();
expectTypeOf(planned.breakpoints).toEqualTypeOf<PlannedBreakpoint[]>();
expectTypeOf(planned.dropped).toEqualTypeOf<DroppedBreakpoint[]>();
export const anthropic: MessageCreateParamsNonStreaming = { model: 'claude-opus-4-5', max_tokens: 1024, ...planned.request };
// Without messages (they are added later): the rest still spreads.
const toolsOnly = toAnthropicRequest({ system: prompt, tools });
export const anthropicLater: MessageCreateParamsNonStreaming = { model: 'claude-opus-4-5', max_tokens: 1024, messages, ...toolsOnly.request };
// Object literals a caller writes by hand are taken too.
export const literal: MessageCreateParamsNonStreaming = {
  model: 'claude-opus-4-5',
  max_tokens: 1024,
  ...toAnthropicRequest({ system: prompt, messages: [{ role: 'user', content: 'hi' }] }).request,
};

// Bedrock Converse API: toolConfig, system and messages with cache points.
declare const toolConfig: ToolConfiguration;
declare const converseMessages: Message[];
const converse = toBedrockRequest({ system: prompt, toolConfig, messages: converseMessages }, { ttl: '5m', staticTtl: '1h' });
expectTypeOf<Exclude<keyof typeof converse.request, keyof ConverseCommandInput>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<BedrockCachePointBlock, Tool>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<BedrockCachePointBlock, ContentBlock>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<(typeof converse.request.system)[number], SystemContentBlock>>().toEqualTypeOf<never>();
export const bedrock: ConverseCommandInput = { modelId: 'us.anthropic.claude-haiku-4-5-20251001-v1:0', ...converse.request };
// Without a toolConfig or messages.
export const bedrockSystemOnly: ConverseCommandInput = { modelId: 'us.anthropic.claude-haiku-4-5-20251001-v1:0', ...toBedrockRequest({ system: prompt }).request };
