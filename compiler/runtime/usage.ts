/**
 * One usage record per provider response (docs/usage.md#the-usage-record): what the
 * provider says it cached, beside what the prompt is — its profile or agent,
 * its static prefix hash, the bundle — so a team can see whether the prefix
 * the build guards is read from the cache in production, and why not.
 * `recordUsage` is pure: it reads and returns; `createUsageRecorder`
 * (usage-recorder.ts) sends records on and threads miss diagnostics.
 */
import { ArgumentError, checkOneOf, checkOptionalString, optionsOf } from './arguments.js';
import { checkSystemPrompt, promptSourceOf, staticPrefixHashOf, type SystemPrompt } from './system-prompt.js';
import { readProviderUsage, type UsageApi, type UsageProvider, type UsageTokens } from './usage-providers.js';

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
  checkSystemPrompt(FN, prompt);
  const options = optionsOf(FN, given);
  checkOneOf(FN, 'options.provider', options.provider, USAGE_PROVIDERS);
  checkOneOf(FN, 'options.ttl', options.ttl, CACHE_TTL_NAMES);
  for (const key of ['model', 'bundle', 'profile', 'agent', 'session'] as const) checkOptionalString(FN, `options.${key}`, options[key]);
  if (options.previousResponseId !== null) checkOptionalString(FN, 'options.previousResponseId', options.previousResponseId);
  const time = isoTime(options.time);
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
    bundle: options.bundle ?? null,
    tokens: usage.tokens,
    ttl: options.ttl ?? usage.ttl,
    responseId: usage.responseId,
    requestId: usage.requestId,
    session: options.session ?? null,
    miss: usage.miss && { ...usage.miss, previousResponseId: options.previousResponseId ?? null },
  };
}

/** `time` as the record writes it: ISO 8601 in UTC with milliseconds, whatever offset it was given in. */
function isoTime(time: unknown): string {
  if (time === undefined) return new Date().toISOString();
  const ms = typeof time === 'number' ? Math.trunc(time) : typeof time === 'string' ? parseIsoTime(time) : NaN;
  if (!(ms >= 0 && ms <= LATEST_MS)) {
    throw new ArgumentError(FN, 'options.time', 'an ISO 8601 date and time with its offset (…Z, …+02:00) or milliseconds since 1970, before the year 10000', time);
  }
  return new Date(ms).toISOString();
}

/** 9999-12-31T23:59:59.999Z: the last time both runtimes write with a four-digit year. */
const LATEST_MS = 253402300799999;

/** What both runtimes read alike: a date, a time to the second (a fraction cut to milliseconds) and an offset. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since 1970, or NaN for a string that is not such a time or names no real one (February 30, hour 24). */
function parseIsoTime(text: string): number {
  const match = ISO_TIME.exec(text);
  if (match === null) return NaN;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  const date = new Date(local);
  // Date.UTC rolls February 30 over into March; a time that did not round-trip is not one.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return NaN;
  const offsetHours = Number(match[9] ?? 0);
  const offsetMinutes = Number(match[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return NaN;
  const sign = match[8] === '-' ? -1 : 1;
  return local - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}
