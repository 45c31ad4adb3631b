/**
 * Type-checked, never run (test/runtime/provider-types.test.ts compiles it):
 * every field the usage readers take from a response (usage-providers.ts,
 * whose readers name no other key) is one the provider's SDK declares on its
 * response type, nested objects and unions included.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import type { GenerateContentResponse } from '@google/genai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import { expectTypeOf } from 'vitest';
import type { AnthropicRead, BedrockRead, ChatCompletionsRead, GeminiRead, ResponsesRead } from '../../compiler/runtime/usage-providers.js';
import type { Undeclared } from './undeclared.js';

/** What the Anthropic and OpenAI SDKs resolve a request to: the body, with the request id (not enumerable) beside it. */
type WithRequestId<T> = T & { _request_id?: string | null };

expectTypeOf<Undeclared<AnthropicRead, WithRequestId<Message>>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<BedrockRead, ConverseCommandOutput>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<ResponsesRead, WithRequestId<Response>>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<ChatCompletionsRead, WithRequestId<ChatCompletion>>>().toEqualTypeOf<never>();
expectTypeOf<Undeclared<GeminiRead, GenerateContentResponse>>().toEqualTypeOf<never>();
