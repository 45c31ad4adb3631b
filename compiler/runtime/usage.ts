/**
 * One usage record per provider response (docs/usage.md#the-usage-record): what the
 * provider says it cached, beside what the prompt is — its profile or agent,
 * its static prefix hash, the bundle — so a team can see whether the prefix
 * the build guards is read from the cache in production, and why not.
 * `recordUsage` is pure: it reads and returns; `createUsageRecorder`
 * (usage-recorder.ts) sends records on and threads miss diagnostics.
 */
import { checkOneOf, checkOptionalString, optionsOf } from './arguments.js';
import { checkSystemPrompt, promptSourceOf, staticPrefixHashOf, type SystemPrompt } from './system-prompt.js';
import { readProviderUsage, type UsageApi, type UsageProvider, type UsageTokens } from './usage-providers.js';
import { isoTime } from './usage-time.js';

export type { UsageApi, UsageProvider, UsageTokens } from './usage-providers.js';

/** The record's shape version: a reader refuses records of another. */
export const USAGE_RECORD_VERSION = 1;

/** A static section whose hash differs between two prompts' static prefixes. */
export interface ChangedSection {
  name: string;
  change: 'changed' | 'added' | 'removed' | 'moved';
}

/** Why the provider did not read the prefix from its cache, as it says (Anthropic's cache diagnostics). */
export interface CacheMiss {
  /** The provider's reason: `system_changed`, `tools_changed`, `messages_changed`, `model_changed`, `previous_message_not_found`, `unavailable`, or `pending`. */
  reason: string;
  /** Tokens that would have been read had the prefix matched, by the provider's reckoning; null when it does not say. */
  missedTokens: number | null;
  /** The response this one was compared with. */
  previousResponseId: string | null;
  /**
   * For `system_changed`, when the recorder knows both prompts' bundles: the
   * static sections whose hashes differ (empty: the static prefix is the
   * same, so the change is in the dynamic tail). Absent when not known.
   */
  sections?: ChangedSection[];
}

export interface UsageRecord {
  v: typeof USAGE_RECORD_VERSION;
  /** When the response was recorded (ISO 8601, UTC, milliseconds). */
  time: string;
  provider: UsageProvider;
  api: UsageApi;
  model: string | null;
  /** The bundle profile the prompt's static prefix is, or null. */
  profile: string | null;
  /** The bundle agent the prompt's static prefix is, or null. */
  agent: string | null;
  staticPrefixHash: string | null;
  /** The bundle's identity (`bundleIdentity`), when given. */
  bundle: string | null;
  tokens: UsageTokens;
  /** The cache lifetime the request asked for (`5m`, `1h`, OpenAI's `30m`, `24h`, `in_memory`); null: the provider's default. */
  ttl: string | null;
  responseId: string | null;
  requestId: string | null;
  /** The caller's session (conversation) id, when given. */
  session: string | null;
  miss: CacheMiss | null;
}

export const CACHE_TTL_NAMES = ['5m', '1h', '30m', '24h', 'in_memory'] as const;
export const USAGE_PROVIDERS: readonly UsageProvider[] = ['anthropic', 'bedrock', 'openai', 'gemini'];

export interface RecordUsageOptions {
  /** The provider to name when the shape alone says another (an Anthropic-shaped response from Bedrock's InvokeModel, Vertex…). */
  provider?: UsageProvider;
  /** The model asked for: used when the response names none (Bedrock's Converse). */
  model?: string;
  /** The cache lifetime the request asked for. */
  ttl?: (typeof CACHE_TTL_NAMES)[number];
  /** The bundle's identity (`bundleIdentity(bundle)`). */
  bundle?: string;
  /** Names the profile of a prompt that does not carry one (a prompt built by hand). */
  profile?: string;
  /** Names the agent of a prompt that does not carry one. */
  agent?: string;
  session?: string;
  /** The response the provider compared this one with (the `previous_message_id` sent). */
  previousResponseId?: string | null;
  /** When the response came: an ISO 8601 string or milliseconds since the epoch; now when absent. */
  time?: string | number;
}

const FN = 'recordUsage';

export function recordUsage(prompt: SystemPrompt, response: unknown, given?: RecordUsageOptions): UsageRecord {
  const options = optionsOf(FN, given);
  checkOptionalString(FN, 'options.bundle', options.bundle);
  if (options.previousResponseId !== null) checkOptionalString(FN, 'options.previousResponseId', options.previousResponseId);
  return usageRecordOf(prompt, response, options, options.bundle ?? null, options.previousResponseId ?? null);
}

/** What the record takes from the options, beside the bundle and the previous response, which the recorder gives apart. */
export type UsageFieldOptions = Omit<RecordUsageOptions, 'bundle' | 'previousResponseId'>;

/**
 * `recordUsage` with `options` an object (`optionsOf`) and the bundle's
 * identity and the previous response's id given apart and checked: the
 * recorder's way in, which makes no options object of its own.
 */
export function usageRecordOf(prompt: SystemPrompt, response: unknown, options: UsageFieldOptions, bundle: string | null, previousResponseId: string | null): UsageRecord {
  checkSystemPrompt(FN, prompt);
  checkOneOf(FN, 'options.provider', options.provider, USAGE_PROVIDERS);
  checkOneOf(FN, 'options.ttl', options.ttl, CACHE_TTL_NAMES);
  // One call each, not a loop over the keys: the loop made an array and five parameter names per record.
  checkOptionalString(FN, 'options.model', options.model);
  checkOptionalString(FN, 'options.profile', options.profile);
  checkOptionalString(FN, 'options.agent', options.agent);
  checkOptionalString(FN, 'options.session', options.session);
  const time = isoTime(FN, options.time);
  const usage = readProviderUsage(response);
  const source = promptSourceOf(prompt);
  return {
    v: USAGE_RECORD_VERSION,
    time,
    provider: options.provider ?? usage.provider,
    api: usage.api,
    model: usage.model ?? options.model ?? null,
    profile: source?.kind === 'profile' ? source.name : (options.profile ?? null),
    agent: source?.kind === 'agent' ? source.name : (options.agent ?? null),
    staticPrefixHash: staticPrefixHashOf(prompt) ?? null,
    bundle,
    tokens: usage.tokens,
    ttl: options.ttl ?? usage.ttl,
    responseId: usage.responseId,
    requestId: usage.requestId,
    session: options.session ?? null,
    miss: usage.miss && { reason: usage.miss.reason, missedTokens: usage.miss.missedTokens, previousResponseId },
  };
}
