/**
 * The words both of `usage`'s human formats use for one prefix: its name,
 * its figures, its misses and the TTL advisor's verdict — so the terminal and
 * the Markdown note say the same thing.
 */
import type { PrefixVerdict } from '../../cache-facts/cache-economics.js';
import { MISS_CAUSES } from '../../usage/miss-causes.js';
import type { PrefixUsage } from '../../usage/usage-tally.js';

export const count = (n: number): string => Math.round(n).toLocaleString('en-US');
export const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
export const shortHash = (hash: string | null): string => (hash === null ? 'no prefix hash' : hash.slice(0, 12));

/** `profile default`, `agent explore`, or `no profile`. */
export function prefixOwner(usage: PrefixUsage): string {
  return usage.profile !== null ? `profile ${usage.profile}` : usage.agent !== null ? `agent ${usage.agent}` : 'no profile';
}

export function modelOf(usage: PrefixUsage): string {
  return `${usage.model ?? 'model not named'} (${usage.provider})`;
}

export function requestsLine(usage: PrefixUsage): string {
  return `${count(usage.requests)} · hit rate ${percent(usage.hitRate)} (${count(usage.hits)} read · ${count(usage.writes)} wrote only · ${count(usage.uncachedOnly)} neither)`;
}

export function tokensLine({ tokens }: PrefixUsage): string {
  const split = [tokens.written5m !== null ? `5m ${count(tokens.written5m)}` : '', tokens.written1h !== null ? `1h ${count(tokens.written1h)}` : ''].filter(Boolean).join(', ');
  return `read ${count(tokens.read)} · written ${count(tokens.written)}${split ? ` (${split})` : ''} · uncached ${count(tokens.uncached)} · output ${count(tokens.output)}`;
}

export function costLine({ cost }: PrefixUsage): string {
  if (cost === null) return 'no cache facts for this model: not priced';
  const saved = cost.uncached === 0 ? 0 : cost.saved / cost.uncached;
  return `${count(cost.actual)} base input tokens, against ${count(cost.uncached)} uncached: ${percent(saved)} saved`;
}

export function prefixLine(usage: PrefixUsage): string | null {
  const { prefix } = usage;
  if (prefix === null) return null;
  const size = prefix.error === 0 ? count(prefix.tokens) : `~${count(prefix.tokens)} (±${Math.round(prefix.error * 100)} %)`;
  const verdict = VERDICTS[prefix.verdict];
  const disproved = prefix.verdict !== 'cached' && usage.hits + usage.writes > 0 ? "; yet the provider cached it: the count or the model's minimum is off" : '';
  return `${size} tokens by the bundle's count, minimum ${count(prefix.minimum)}: ${verdict}${disproved}`;
}

const VERDICTS: Readonly<Record<PrefixVerdict, string>> = { cached: 'cached', 'not-cached': 'below it, not cached', 'may-not-be-cached': 'may be below it' };

export function changedLine(usage: PrefixUsage): string | null {
  const changed = usage.changedFrom;
  if (changed === null) return null;
  const what = changed.sections === null ? 'sections not known (give both bundles with --bundle)' : changed.sections.length === 0 ? 'same static sections' : changed.sections.join(', ');
  return `after prefix ${shortHash(changed.staticPrefixHash)}: ${what}`;
}

export function missesLine(usage: PrefixUsage): string | null {
  if (usage.misses.length === 0) return null;
  return usage.misses.map((m) => `${m.key} ${count(m.requests)}${m.missedTokens > 0 ? ` (${count(m.missedTokens)} tokens not read)` : ''}`).join(' · ');
}

export function neverHitLine(usage: PrefixUsage): string | null {
  return usage.neverHit === null ? null : `never read from the cache; likeliest cause: ${usage.neverHit} — ${MISS_CAUSES[usage.neverHit]}`;
}

export function ttlLine(usage: PrefixUsage): string | null {
  const advice = usage.ttl;
  if (advice === null) return null;
  const verdict = advice.better === 'same' ? 'both cost the same' : `${advice.better} saves ${count(advice.saving)} (${percent(advice.savingShare)})`;
  const gaps = `${count(advice.gaps.within5m)} within 5 min · ${count(advice.gaps.within1h)} within the hour · ${count(advice.gaps.later)} later or first`;
  return `5m ${count(advice.cost5m)} · 1h ${count(advice.cost1h)} on these gaps (${gaps}): ${verdict}; ${advice.setting}`;
}
