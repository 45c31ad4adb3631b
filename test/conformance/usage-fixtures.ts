/**
 * Provider responses, typed as each SDK declares its response (type-checked
 * by test/runtime/provider-types.test.ts): what `recordUsage` reads in the
 * usage vectors (usage-seeds.ts). Plain JSON, so the Python runtime reads the
 * very same objects from usage.json. Gemini's response is a class with
 * getters; the data fields read are picked.
 */
import type { Message, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import type { GenerateContentResponse } from '@google/genai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import type { ResponsesDiagnosticsRead } from '../../compiler/runtime/usage-providers.js';

const anthropicUsage = (fields: Partial<Usage>): Usage => ({
  cache_creation: null,
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
  inference_geo: null,
  input_tokens: 0,
  output_tokens: 0,
  output_tokens_details: null,
  server_tool_use: null,
  service_tier: 'standard',
  speed: null,
  ...fields,
});

const message = (id: string, usage: Usage, diagnostics: Message['diagnostics'] = null): Message => ({
  id,
  container: null,
  content: [{ type: 'text', text: 'Done.', citations: null }],
  diagnostics,
  model: 'claude-sonnet-4-5-20250929',
  role: 'assistant',
  stop_details: null,
  stop_reason: 'end_turn',
  stop_sequence: null,
  type: 'message',
  usage,
});

export const ANTHROPIC = {
  coldWrite: message('msg_01cold', anthropicUsage({ input_tokens: 40, cache_creation_input_tokens: 3000, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 3000, ephemeral_1h_input_tokens: 0 }, output_tokens: 120 })),
  warmHit: message('msg_02warm', anthropicUsage({ input_tokens: 52, cache_creation_input_tokens: 0, cache_read_input_tokens: 3000, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 80 })),
  oneHourWrite: message('msg_03hour', anthropicUsage({ input_tokens: 12, cache_creation_input_tokens: 3200, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 3000 }, output_tokens: 7 })),
  belowMinimum: message('msg_04small', anthropicUsage({ input_tokens: 900, output_tokens: 30 })),
  systemChanged: message(
    'msg_05changed',
    anthropicUsage({ input_tokens: 40, cache_creation_input_tokens: 3100, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 3100, ephemeral_1h_input_tokens: 0 }, output_tokens: 60 }),
    { cache_miss_reason: { type: 'system_changed', cache_missed_input_tokens: 2900 } },
  ),
  pending: message('msg_06pending', anthropicUsage({ input_tokens: 40, cache_creation_input_tokens: 3000, output_tokens: 5 }), { cache_miss_reason: null }),
  notFound: message('msg_07notfound', anthropicUsage({ input_tokens: 40, cache_creation_input_tokens: 3000, output_tokens: 5 }), { cache_miss_reason: { type: 'previous_message_not_found' } }),
};

const converse = (requestId: string, usage: ConverseCommandOutput['usage']): ConverseCommandOutput => ({
  output: { message: { role: 'assistant', content: [{ text: 'Done.' }] } },
  stopReason: 'end_turn',
  usage,
  metrics: { latencyMs: 812 },
  $metadata: { httpStatusCode: 200, requestId, attempts: 1, totalRetryDelay: 0 },
});

export const BEDROCK = {
  splitWrite: converse('7f0c2a5e-0000-4000-8000-00000000b001', {
    inputTokens: 30,
    outputTokens: 90,
    totalTokens: 1320,
    cacheReadInputTokens: 0,
    cacheWriteInputTokens: 1200,
    cacheDetails: [
      { ttl: '1h', inputTokens: 1000 },
      { ttl: '5m', inputTokens: 200 },
    ],
  }),
  readOnly: converse('7f0c2a5e-0000-4000-8000-00000000b002', { inputTokens: 25, outputTokens: 40, totalTokens: 1265, cacheReadInputTokens: 1200, cacheWriteInputTokens: 0, cacheDetails: [] }),
  noCacheFields: converse('7f0c2a5e-0000-4000-8000-00000000b003', { inputTokens: 700, outputTokens: 10, totalTokens: 710 }),
};

const response = (id: string, model: string, usage: Response['usage'], extra: Partial<Response> = {}): Response => ({
  id,
  created_at: 1767225600,
  output_text: 'Done.',
  error: null,
  incomplete_details: null,
  instructions: null,
  metadata: null,
  model,
  object: 'response',
  output: [],
  parallel_tool_calls: true,
  temperature: null,
  tool_choice: 'auto',
  tools: [],
  top_p: null,
  usage,
  ...extra,
});

export const OPENAI = {
  explicitWrite: response(
    'resp_01write',
    'gpt-5.6',
    { input_tokens: 4000, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 3584 }, output_tokens: 200, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 4200 },
    { prompt_cache_options: { mode: 'implicit', ttl: '30m' } },
  ),
  automaticHit: response(
    'resp_02hit',
    'gpt-5-2025-08-07',
    { input_tokens: 3000, input_tokens_details: { cached_tokens: 2048, cache_write_tokens: 0 }, output_tokens: 50, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 3050 },
    { prompt_cache_retention: '24h' },
  ),
};

/**
 * Responses with OpenAI's prompt cache diagnostics: the SDK's Response, and
 * the field the installed SDK does not declare in the API reference's shape
 * (ResponsesDiagnosticsRead: our declaration, not the SDK's).
 */
export const OPENAI_DIAGNOSED: Record<string, Response & ResponsesDiagnosticsRead> = {
  toolsChanged: response(
    'resp_03tools',
    'gpt-5.6',
    { input_tokens: 4100, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 4120 },
    { prompt_cache_diagnostics: { type: 'cache_miss', reason: 'tools_changed', cache_missed_tokens: 3900 } } as Partial<Response>,
  ),
  hit: response(
    'resp_04hit',
    'gpt-5.6',
    { input_tokens: 4100, input_tokens_details: { cached_tokens: 3840, cache_write_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 4120 },
    { prompt_cache_diagnostics: { type: 'cache_hit' } } as Partial<Response>,
  ),
  notFound: response(
    'resp_05nf',
    'gpt-5.6',
    { input_tokens: 4100, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 4120 },
    // A count of the wrong type in a field no SDK declares here: left out, not refused.
    { prompt_cache_diagnostics: { type: 'comparison_response_not_found', cache_missed_tokens: '12' } } as unknown as Partial<Response>,
  ),
};

export const CHAT: Record<string, ChatCompletion> = {
  cachedPrompt: {
    id: 'chatcmpl-01',
    choices: [{ finish_reason: 'stop', index: 0, logprobs: null, message: { role: 'assistant', content: 'Done.', refusal: null } }],
    created: 1767225600,
    model: 'gpt-4.1-2025-04-14',
    object: 'chat.completion',
    usage: { prompt_tokens: 3000, completion_tokens: 20, total_tokens: 3020, prompt_tokens_details: { cached_tokens: 2048 } },
  },
};

type GeminiData = Pick<GenerateContentResponse, 'modelVersion' | 'responseId' | 'usageMetadata'>;

export const GEMINI: Record<string, GeminiData> = {
  implicitHit: {
    modelVersion: 'gemini-2.5-flash',
    responseId: 'gem-01',
    usageMetadata: { promptTokenCount: 5000, cachedContentTokenCount: 4096, candidatesTokenCount: 100, thoughtsTokenCount: 50, toolUsePromptTokenCount: 10, totalTokenCount: 5160 },
  },
  noCache: {
    modelVersion: 'gemini-2.5-pro',
    responseId: 'gem-02',
    usageMetadata: { promptTokenCount: 800, candidatesTokenCount: 12, totalTokenCount: 812 },
  },
};
