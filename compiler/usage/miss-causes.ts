/**
 * Why a request did not read its prefix from the cache, as far as a log can
 * tell (docs/usage.md#reading-a-log-prompt-build-usage). The provider's own diagnosis wins;
 * otherwise the likeliest cause from what is known: the bundle's count
 * below the model's minimum, the first request of a prefix (after another
 * prefix of the same profile: a change), the gap since the prefix's previous
 * request beyond the TTL, or nothing cached at all.
 */
import type { UsageRecord } from '../runtime/usage.js';

export type MissCause =
  | 'provider'
  | 'below-minimum'
  | 'prefix-changed'
  | 'first-write'
  | 'ttl-expired'
  | 'not-cached'
  | 'missed-within-ttl';

/** What each cause means, in the report's words. */
export const MISS_CAUSES: Readonly<Record<MissCause, string>> = {
  provider: "the provider's own diagnosis",
  'below-minimum': "the prefix is below the model's minimum by the bundle's count: never cached",
  'prefix-changed': 'the first request after the static prefix changed (a deploy): expected once per change',
  'first-write': 'the first request of this prefix in the log: expected once',
  'ttl-expired': 'longer since the previous request than the TTL: the entry had expired',
  'not-cached': 'nothing read or written: no breakpoint reached, or a prefix the provider does not cache',
  'missed-within-ttl': 'written again within its TTL: evicted early, another region or replica, or a change before the breakpoint',
};

export interface MissContext {
  /** The bundle's count puts the prefix below the model's minimum. */
  belowMinimum: boolean;
  /** Milliseconds since the prefix's previous request in the log; null for its first. */
  gapMs: number | null;
  /** The profile or agent had another static prefix before this one in the log. */
  changedFrom: string | null;
}

/** Minutes a TTL lasts; a request that asked none gets the provider's default (5 minutes where it is stated). */
const TTL_MINUTES: Readonly<Record<string, number>> = { '5m': 5, '1h': 60, '30m': 30, '24h': 24 * 60, in_memory: 5 };

export function ttlMinutes(ttl: string | null): number {
  return (ttl === null ? undefined : TTL_MINUTES[ttl]) ?? 5;
}

/** The cause of a request that read nothing from the cache (`record.tokens.read === 0`). */
export function missCause(record: UsageRecord, context: MissContext): MissCause {
  if (record.miss && record.miss.reason !== 'pending') return 'provider';
  // Below the minimum, a provider caches nothing: a request that wrote disproves the count.
  if (context.belowMinimum && record.tokens.written === 0) return 'below-minimum';
  if (context.gapMs === null) return context.changedFrom === null ? 'first-write' : 'prefix-changed';
  if (context.gapMs > ttlMinutes(record.ttl) * 60_000) return 'ttl-expired';
  // Anthropic and Bedrock report writes: neither read nor written is no cache at all. OpenAI and Gemini report none.
  if (record.tokens.written === 0 && (record.provider === 'anthropic' || record.provider === 'bedrock')) return 'not-cached';
  return 'missed-within-ttl';
}

/** The key a miss is counted under: the cause, and for the provider's own reasons the reason and the sections named. */
export function missKey(cause: MissCause, record: UsageRecord): string {
  if (cause !== 'provider' || !record.miss) return cause;
  const sections = record.miss.sections?.map((s) => `section \`${s.name}\` ${s.change}`).join(', ');
  return sections === undefined ? record.miss.reason : sections === '' ? `${record.miss.reason}: the dynamic tail` : `${record.miss.reason}: ${sections}`;
}
