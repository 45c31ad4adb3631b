/**
 * Each provider's usage, read from its response as its SDK declares it, into
 * one set of counts (docs/usage.md#the-usage-record). The providers disagree on what
 * "input" means: Anthropic and Bedrock count the uncached input apart from
 * cache reads and writes; OpenAI and Gemini count every input token and say
 * how many of them came from the cache. Here `uncached`, `read` and
 * `written` never overlap and `input` is their sum, whatever the provider.
 * The shapes below are the fields read, nothing more; a type test
 * (test/types/usage.types.ts) checks each SDK's response type against them.
 */
import { ArgumentError, isRecord } from './arguments.js';

export type UsageProvider = 'anthropic' | 'bedrock' | 'openai' | 'gemini';
export type UsageApi = 'messages' | 'converse' | 'responses' | 'chat-completions' | 'generate-content';

export interface UsageTokens {
  /** Input tokens read from the provider's cache. */
  read: number;
  /** Input tokens written to the cache, whatever their lifetime. */
  written: number;
  /** Of `written`, those kept 5 minutes, when the provider splits them by lifetime; null when it does not. */
  written5m: number | null;
  /** Of `written`, those kept 1 hour, when the provider splits them; null when it does not. */
  written1h: number | null;
  /** Input tokens neither read from nor written to the cache: billed at the base input price. */
  uncached: number;
  /** All input tokens: `read + written + uncached`. */
  input: number;
  output: number;
}

/** A provider's own diagnosis of a cache miss, as it names it. */
export interface ProviderMiss {
  /** `system_changed`, `tools_changed`, `messages_changed`, `model_changed`, `previous_message_not_found`, `unavailable`; `pending` when not yet diagnosed. */
  reason: string;
  /** Tokens the provider says would have been read had the prefix matched; null when it does not say. */
  missedTokens: number | null;
}

export interface ProviderUsage {
  provider: UsageProvider;
  api: UsageApi;
  /** The model the response names (Bedrock's Converse names none). */
  model: string | null;
  /** The provider's id of the response (`msg_…`, `resp_…`, `chatcmpl-…`, Gemini's `responseId`). */
  responseId: string | null;
  /** The HTTP request's id, where the SDK keeps it (`_request_id`, Bedrock's `$metadata.requestId`). */
  requestId: string | null;
  /** The TTL the response says was asked (OpenAI echoes its cache options). */
  ttl: string | null;
  tokens: UsageTokens;
  miss: ProviderMiss | null;
}

/*
 * The fields read from each response, by the SDKs' own names: the readers
 * below name no other key (`count` and `text` take only these), and
 * test/types/usage.types.ts checks that each SDK declares every one.
 */
export interface AnthropicRead {
  id: string;
  model: string;
  /** Set by the SDK on what `create` resolves to (not enumerable). */
  _request_id?: string | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number | null;
    cache_creation_input_tokens: number | null;
    cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
  };
  diagnostics: { cache_miss_reason: { type: string; cache_missed_input_tokens?: number } | null } | null;
}

export interface BedrockRead {
  usage?: {
    inputTokens: number | undefined;
    outputTokens: number | undefined;
    cacheReadInputTokens?: number;
    cacheWriteInputTokens?: number;
    cacheDetails?: { ttl: string | undefined; inputTokens: number | undefined }[];
  };
  $metadata: { requestId?: string };
}

export interface ResponsesRead {
  id: string;
  model: string;
  object: 'response';
  _request_id?: string | null;
  prompt_cache_options?: { ttl: string };
  prompt_cache_retention?: string | null;
  usage?: {
    input_tokens: number;
    output_tokens: number;
    input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  };
}

/**
 * OpenAI's prompt cache diagnostics, asked for with
 * `prompt_cache_options.comparison_response_id`: in OpenAI's API reference
 * (a `cache_hit`, or a `cache_miss` with its `reason` and
 * `cache_missed_tokens`), but declared by neither the Response nor the
 * request params of the `openai` SDK installed here (6.49.0). So these names
 * are ours, not the SDK's — test/types/usage.types.ts cannot vouch for them
 * — and each value is read only when it has the type the reference gives
 * (docs/usage.md#miss-reasons).
 */
export interface ResponsesDiagnosticsRead {
  prompt_cache_diagnostics?: { type: string; reason?: string; cache_missed_tokens?: number } | null;
}
type ResponsesDiagnostics = NonNullable<ResponsesDiagnosticsRead['prompt_cache_diagnostics']>;

export interface ChatCompletionsRead {
  id: string;
  model: string;
  _request_id?: string | null;
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  };
}

export interface GeminiRead {
  modelVersion?: string;
  responseId?: string;
  usageMetadata?: {
    promptTokenCount?: number;
    cachedContentTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    toolUsePromptTokenCount?: number;
  };
}

const FN = 'recordUsage';
const EXPECTED = 'a response of Anthropic Messages, Bedrock Converse, OpenAI Responses or Chat Completions, or Gemini generateContent (with its usage)';

/** The response's usage, by the shape of the response: each provider's fields are its own. */
export function readProviderUsage(response: unknown): ProviderUsage {
  if (!isRecord(response)) throw new ArgumentError(FN, 'response', EXPECTED, response);
  const gemini = record<GeminiRead>(response, 'usageMetadata');
  if (gemini !== null) return readGemini(response, gemini);
  const usage = isRecord(response.usage) ? response.usage : null;
  if (usage === null) throw new ArgumentError(FN, 'response', EXPECTED, response);
  if (has<BedrockUsage>(usage, 'inputTokens') || has<BedrockUsage>(usage, 'outputTokens')) return readBedrock(response, usage);
  if (has<ChatUsage>(usage, 'prompt_tokens')) return readOpenAI(response, usage, 'chat-completions');
  if (has<ResponsesUsage>(usage, 'input_tokens_details') || response.object === 'response') return readOpenAI(response, usage, 'responses');
  if (has<AnthropicUsage>(usage, 'input_tokens')) return readAnthropic(response, usage);
  throw new ArgumentError(FN, 'response', EXPECTED, response);
}

type AnthropicUsage = AnthropicRead['usage'];
type AnthropicSplit = NonNullable<AnthropicUsage['cache_creation']>;
type AnthropicDiagnostics = NonNullable<AnthropicRead['diagnostics']>;
type AnthropicReason = NonNullable<AnthropicDiagnostics['cache_miss_reason']>;
type BedrockUsage = NonNullable<BedrockRead['usage']>;
type BedrockDetail = NonNullable<BedrockUsage['cacheDetails']>[number];
type ResponsesUsage = NonNullable<ResponsesRead['usage']>;
type ResponsesDetails = ResponsesUsage['input_tokens_details'];
type ChatUsage = NonNullable<ChatCompletionsRead['usage']>;
type ChatDetails = NonNullable<ChatUsage['prompt_tokens_details']>;
type GeminiUsage = NonNullable<GeminiRead['usageMetadata']>;

function readAnthropic(response: Fields, usage: Fields): ProviderUsage {
  const where = 'response.usage';
  const split = record<AnthropicUsage>(usage, 'cache_creation');
  const read = count<AnthropicUsage>(usage, 'cache_read_input_tokens', where);
  const written = count<AnthropicUsage>(usage, 'cache_creation_input_tokens', where);
  const uncached = count<AnthropicUsage>(usage, 'input_tokens', where);
  const written5m = split && count<AnthropicSplit>(split, 'ephemeral_5m_input_tokens', `${where}.cache_creation`);
  const written1h = split && count<AnthropicSplit>(split, 'ephemeral_1h_input_tokens', `${where}.cache_creation`);
  return {
    provider: 'anthropic',
    api: 'messages',
    ...ids(text<AnthropicRead>(response, 'model'), text<AnthropicRead>(response, 'id'), text<AnthropicRead>(response, '_request_id')),
    ttl: null,
    tokens: apart({ read, written, written5m, written1h, uncached, output: count<AnthropicUsage>(usage, 'output_tokens', where) }),
    miss: anthropicMiss(record<AnthropicRead>(response, 'diagnostics')),
  };
}

/** `diagnostics` is null when none was asked for, or when the prefix was reused; a null reason is a diagnosis still pending. */
function anthropicMiss(diagnostics: Fields | null): ProviderMiss | null {
  if (diagnostics === null) return null;
  const reason = record<AnthropicDiagnostics>(diagnostics, 'cache_miss_reason');
  if (reason === null) return { reason: 'pending', missedTokens: null };
  const missed = has<AnthropicReason>(reason, 'cache_missed_input_tokens') ? count<AnthropicReason>(reason, 'cache_missed_input_tokens', 'response.diagnostics.cache_miss_reason') : null;
  return { reason: text<AnthropicReason>(reason, 'type') ?? 'unavailable', missedTokens: missed };
}

function readBedrock(response: Fields, usage: Fields): ProviderUsage {
  const where = 'response.usage';
  const read = count<BedrockUsage>(usage, 'cacheReadInputTokens', where);
  const written = count<BedrockUsage>(usage, 'cacheWriteInputTokens', where);
  const uncached = count<BedrockUsage>(usage, 'inputTokens', where);
  const details = usage['cacheDetails' satisfies keyof BedrockUsage];
  const split = Array.isArray(details) ? details : null;
  return {
    provider: 'bedrock',
    api: 'converse',
    ...ids(null, null, text<BedrockRead['$metadata']>(record<BedrockRead>(response, '$metadata') ?? {}, 'requestId')),
    ttl: null,
    tokens: apart({ read, written, written5m: split && ttlSum(split, '5m'), written1h: split && ttlSum(split, '1h'), uncached, output: count<BedrockUsage>(usage, 'outputTokens', where) }),
    miss: null,
  };
}

/** Tokens written with one lifetime, from Bedrock's `cacheDetails`. */
function ttlSum(details: readonly unknown[], ttl: string): number {
  let sum = 0;
  details.forEach((detail, index) => {
    const where = `response.usage.cacheDetails[${index}]`;
    if (!isRecord(detail)) throw new ArgumentError(FN, where, 'an object', detail);
    if (text<BedrockDetail>(detail, 'ttl') === ttl) sum += count<BedrockDetail>(detail, 'inputTokens', where);
  });
  return sum;
}

/** OpenAI's two APIs name the same counts apart; both count cache reads and writes inside the input total. */
const OPENAI_KEYS = {
  responses: { input: 'input_tokens', details: 'input_tokens_details', output: 'output_tokens' },
  'chat-completions': { input: 'prompt_tokens', details: 'prompt_tokens_details', output: 'completion_tokens' },
} as const satisfies { responses: Record<string, Key<ResponsesUsage>>; 'chat-completions': Record<string, Key<ChatUsage>> };

type OpenAIUsage = ResponsesUsage & ChatUsage;
type OpenAIDetails = ResponsesDetails & ChatDetails;

function readOpenAI(response: Fields, usage: Fields, api: keyof typeof OPENAI_KEYS): ProviderUsage {
  const keys = OPENAI_KEYS[api];
  const where = 'response.usage';
  const details = record<OpenAIUsage>(usage, keys.details) ?? {};
  // The Responses API echoes the cache options asked; Chat Completions does not.
  const options = record<ResponsesRead>(response, 'prompt_cache_options') ?? {};
  const ttl = api === 'responses' ? (text<NonNullable<ResponsesRead['prompt_cache_options']>>(options, 'ttl') ?? text<ResponsesRead>(response, 'prompt_cache_retention')) : null;
  return {
    provider: 'openai',
    api,
    ...ids(text<ResponsesRead & ChatCompletionsRead>(response, 'model'), text<ResponsesRead & ChatCompletionsRead>(response, 'id'), text<ResponsesRead & ChatCompletionsRead>(response, '_request_id')),
    ttl,
    tokens: inclusive(
      count<OpenAIUsage>(usage, keys.input, where),
      count<OpenAIDetails>(details, 'cached_tokens', `${where}.${keys.details}`),
      count<OpenAIDetails>(details, 'cache_write_tokens', `${where}.${keys.details}`),
      count<OpenAIUsage>(usage, keys.output, where),
    ),
    miss: api === 'responses' ? openAIMiss(record<ResponsesDiagnosticsRead>(response, 'prompt_cache_diagnostics')) : null,
  };
}

/**
 * A miss by OpenAI's diagnosis, its reason in OpenAI's words (`tools_changed`,
 * `input_changed`, …, as Anthropic's are kept in Anthropic's); a type other
 * than a hit or a miss (`comparison_response_not_found`) is the reason itself.
 * Undeclared by the SDK: a value of another type is left out, never refused.
 */
function openAIMiss(diagnostics: Fields | null): ProviderMiss | null {
  const type = diagnostics && text<ResponsesDiagnostics>(diagnostics, 'type');
  if (!diagnostics || type === null || type === 'cache_hit') return null;
  if (type !== 'cache_miss') return { reason: type, missedTokens: null };
  return { reason: text<ResponsesDiagnostics>(diagnostics, 'reason') ?? 'unavailable', missedTokens: wholeOrNull<ResponsesDiagnostics>(diagnostics, 'cache_missed_tokens') };
}

/**
 * Gemini counts the cached content inside `promptTokenCount`; tool results
 * fed back are input too, counted apart; thoughts are billed as output.
 * Implicit caching bills no write.
 */
function readGemini(response: Fields, usage: Fields): ProviderUsage {
  const where = 'response.usageMetadata';
  const output = count<GeminiUsage>(usage, 'candidatesTokenCount', where) + count<GeminiUsage>(usage, 'thoughtsTokenCount', where);
  const tokens = inclusive(count<GeminiUsage>(usage, 'promptTokenCount', where), count<GeminiUsage>(usage, 'cachedContentTokenCount', where), 0, output);
  const tools = count<GeminiUsage>(usage, 'toolUsePromptTokenCount', where);
  return {
    provider: 'gemini',
    api: 'generate-content',
    ...ids(text<GeminiRead>(response, 'modelVersion'), text<GeminiRead>(response, 'responseId'), null),
    ttl: null,
    tokens: { ...tokens, uncached: tokens.uncached + tools, input: tokens.input + tools },
    miss: null,
  };
}

/** The ids a response carries: the model it names, its own id, the HTTP request's. */
function ids(model: string | null, responseId: string | null, requestId: string | null): Pick<ProviderUsage, 'model' | 'responseId' | 'requestId'> {
  return { model, responseId, requestId };
}

/** Counts from a provider that reports uncached input apart from cache reads and writes: the input is their sum. */
function apart({ read, written, written5m, written1h, uncached, output }: Omit<UsageTokens, 'input'>): UsageTokens {
  return { read, written, written5m, written1h, uncached, input: read + written + uncached, output };
}

/** Counts from a provider whose input total includes the cached tokens: the rest is uncached (never below 0). */
function inclusive(input: number, read: number, written: number, output: number): UsageTokens {
  const uncached = Math.max(0, input - read - written);
  return { read, written, written5m: null, written1h: null, uncached, input: read + written + uncached, output };
}

type Fields = Record<string, unknown>;
/** A key of the declared shape `T`: what keeps the readers to the fields the SDKs declare. */
type Key<T> = keyof T & string;

/** A token count: absent or null is 0 (the providers leave out what did not happen); anything else must be a whole number. */
function count<T>(fields: Fields, key: Key<T>, where: string): number {
  const value = fields[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new ArgumentError(FN, `${where}.${key}`, 'a whole number of tokens', value);
  return value;
}

/** A count of an undeclared field: a whole number, or null for anything else (never refused). */
function wholeOrNull<T>(fields: Fields, key: Key<T>): number | null {
  const value = fields[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function text<T>(fields: Fields, key: Key<T>): string | null {
  const value = fields[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function record<T>(fields: Fields, key: Key<T>): Fields | null {
  const value = fields[key];
  return isRecord(value) ? value : null;
}

function has<T>(fields: Fields, key: Key<T>): boolean {
  return key in fields;
}
