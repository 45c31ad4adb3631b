/**
 * Type-checked, never run (test/runtime/provider-types.test.ts compiles it):
 * every adapter's output is assignable to the real SDK request type and uses
 * no key that type does not declare.
 */
import type { CacheControlEphemeral, MessageCreateParamsNonStreaming, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ConverseCommandInput, SystemContentBlock } from '@aws-sdk/client-bedrock-runtime';
import type { Content, GenerateContentConfig, Part } from '@google/genai';
import type { EasyInputMessage, ResponseCreateParamsNonStreaming, ResponseInputText } from 'openai/resources/responses/responses';
import { expectTypeOf } from 'vitest';
import {
  asSystemPrompt,
  toAnthropicSystem,
  toBedrockSystem,
  toGeminiSystemInstruction,
  toOpenAIRequest,
  toSystemBlocks,
  type AnthropicCacheControl,
  type AnthropicTextBlock,
  type BedrockSystemBlock,
  type GeminiSystemInstruction,
  type OpenAIDeveloperMessage,
  type OpenAIInputRequest,
  type OpenAIInputText,
  type OpenAIInstructionsRequest,
} from '../../compiler/runtime/index.js';
import type { Undeclared } from './undeclared.js';

const prompt = asSystemPrompt(['static', '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__', 'dynamic']);

// Anthropic Messages API: `system` blocks.
expectTypeOf<Undeclared<AnthropicTextBlock, TextBlockParam>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<AnthropicCacheControl, CacheControlEphemeral>>().toEqualTypeOf<never>();
expectTypeOf(toAnthropicSystem(prompt, { ttl: '1h' })).toEqualTypeOf<AnthropicTextBlock[]>();
expectTypeOf(toSystemBlocks(prompt)).toEqualTypeOf<AnthropicTextBlock[]>();
export const anthropic: MessageCreateParamsNonStreaming = {
  model: 'claude-opus-4-5',
  max_tokens: 1024,
  system: toAnthropicSystem(prompt, { staticTtl: '1h' }),
  messages: [{ role: 'user', content: 'hi' }],
};

// Bedrock Converse API: `system` content blocks.
expectTypeOf<Undeclared<BedrockSystemBlock, SystemContentBlock>>().toEqualTypeOf<never>();
export const bedrock: ConverseCommandInput = {
  modelId: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
  system: toBedrockSystem(prompt, { ttl: '5m' }),
  messages: [{ role: 'user', content: [{ text: 'hi' }] }],
};

// OpenAI Responses API: `instructions` and `prompt_cache_key`.
expectTypeOf<Undeclared<OpenAIInstructionsRequest, ResponseCreateParamsNonStreaming>>().toEqualTypeOf<never>();
export const openai: ResponseCreateParamsNonStreaming = { model: 'gpt-5', input: 'hi', ...toOpenAIRequest(prompt) };
// GPT-5.6 and later: a developer message of input_text blocks with explicit breakpoints, and prompt_cache_options.
// (`input` is checked a level down: the SDK's `string | ResponseInput` is no array in one of its branches.)
expectTypeOf<Undeclared<Omit<OpenAIInputRequest, 'input'>, ResponseCreateParamsNonStreaming>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<Omit<OpenAIDeveloperMessage, 'content'>, EasyInputMessage>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<OpenAIInputText, ResponseInputText>>().toEqualTypeOf<never>();
const explicit = toOpenAIRequest(prompt, { model: 'gpt-5.6', promptCacheKey: 'tenant-7' }) as OpenAIInputRequest;
export const openaiExplicit: ResponseCreateParamsNonStreaming = { model: 'gpt-5.6', ...explicit, input: [...explicit.input, { role: 'user', content: 'hi' }] };
export const openaiRetention: ResponseCreateParamsNonStreaming = { model: 'gpt-5', input: 'hi', ...toOpenAIRequest(prompt, { model: 'gpt-5', promptCacheRetention: '24h' }) };

// Gemini: `config.systemInstruction` as a `Content`.
expectTypeOf<Undeclared<GeminiSystemInstruction, Content>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<GeminiSystemInstruction['parts'][number], Part>>().toEqualTypeOf<never>();
export const gemini: GenerateContentConfig = { systemInstruction: toGeminiSystemInstruction(prompt) };
