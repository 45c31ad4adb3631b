/**
 * Usage records summed per profile (or agent) × static prefix hash × model
 * (docs/usage.md#reading-a-log-prompt-build-usage): requests, hits, tokens,
 * cost in base-input-token units (the cache facts' price multipliers), the
 * misses by cause and the TTL advisor's two prices. Records come in time
 * order; what is kept per prefix is a few sums and the last request's time,
 * so memory grows with the distinct profiles, prefixes, models and miss
 * reasons the log names, not with its number of lines.
 */
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { resolveCacheFact } from '../cache-facts/cache-fact-lookup.js';
import type { UsageRecord, UsageTokens } from '../runtime/usage.js';
import { sectionChanges } from '../runtime/usage-sections.js';
import { missCause, missKey, type MissCause } from './miss-causes.js';
import type { PrefixIndex, PrefixSize } from './prefix-index.js';
import { ttlAdvice, TtlSimulation, type TtlAdvice } from './ttl-advice.js';

export interface MissCount {
  cause: MissCause;
  /** The cause, or for the provider's diagnosis its reason and the sections it names. */
  key: string;
  requests: number;
  /** Tokens the provider says would have been read (its diagnosis only). */
  missedTokens: number;
}

export interface PrefixUsage {
  profile: string | null;
  agent: string | null;
  staticPrefixHash: string | null;
  model: string | null;
  provider: string;
  requests: number;
  /** Requests that read from the cache. */
  hits: number;
  /** Requests that read nothing but wrote. */
  writes: number;
  /** Requests that neither read nor wrote. */
  uncachedOnly: number;
  hitRate: number;
  tokens: UsageTokens;
  /** Input in base-input-token units as billed, and as it would have been with no cache; null when the model has no facts. */
  cost: { actual: number; uncached: number; saved: number } | null;
  misses: MissCount[];
  /** For a prefix that never hit: its likeliest cause (the most frequent). */
  neverHit: MissCause | null;
  /** The bundle's count of the prefix against the model's minimum, when a given bundle holds it. */
  prefix: PrefixSize | null;
  /** The sections that differ from the previous prefix of the same profile, when the bundles hold both. */
  changedFrom: { staticPrefixHash: string; sections: string[] | null } | null;
  ttl: TtlAdvice | null;
  first: string;
  last: string;
}

interface Group {
  usage: Omit<PrefixUsage, 'misses' | 'neverHit' | 'ttl' | 'hitRate' | 'cost'>;
  cost: { actual: number; uncached: number } | null;
  misses: Map<string, MissCount>;
  fact: CacheFact | undefined;
  simulation: TtlSimulation | null;
  asked: Map<string, number>;
  lastMs: number | null;
  lastCachedMs: number | null;
  belowMinimum: boolean;
}

const emptyTokens = (): UsageTokens => ({ read: 0, written: 0, written5m: null, written1h: null, uncached: 0, input: 0, output: 0 });

export class UsageTally {
  private readonly groups = new Map<string, Group>();
  /** The last static prefix hash seen for each profile or agent × model: a new one is a change. */
  private readonly lastHash = new Map<string, string | null>();
  private readonly facts = new Map<string, CacheFact | undefined>();

  constructor(
    private readonly index: PrefixIndex,
    private readonly extraFacts: readonly CacheFact[] = [],
  ) {}

  add(record: UsageRecord, ms: number): void {
    const group = this.groupOf(record);
    const { usage } = group;
    const { tokens } = record;
    usage.requests++;
    if (usage.requests === 1) usage.first = record.time;
    usage.last = record.time;
    const sum = usage.tokens;
    for (const key of ['read', 'written', 'uncached', 'input', 'output'] as const) sum[key] += tokens[key];
    if (tokens.written5m !== null) sum.written5m = (sum.written5m ?? 0) + tokens.written5m;
    if (tokens.written1h !== null) sum.written1h = (sum.written1h ?? 0) + tokens.written1h;
    group.asked.set(record.ttl ?? '', (group.asked.get(record.ttl ?? '') ?? 0) + 1);
    const gapMs = group.lastMs === null ? null : Math.max(0, ms - group.lastMs);
    if (tokens.read > 0) usage.hits++;
    else {
      if (tokens.written > 0) usage.writes++;
      else usage.uncachedOnly++;
      const cause = missCause(record, { belowMinimum: group.belowMinimum, gapMs, changedFrom: usage.changedFrom?.staticPrefixHash ?? null });
      const key = missKey(cause, record);
      const count = group.misses.get(key) ?? { cause, key, requests: 0, missedTokens: 0 };
      count.requests++;
      count.missedTokens += record.miss?.missedTokens ?? 0;
      group.misses.set(key, count);
    }
    if (group.cost && group.fact) {
      group.cost.actual += billed(tokens, record.ttl, group.fact);
      group.cost.uncached += tokens.input;
    }
    const cached = tokens.read + tokens.written;
    if (group.simulation && cached > 0) {
      group.simulation.add(cached, group.lastCachedMs === null ? null : Math.max(0, ms - group.lastCachedMs));
      group.lastCachedMs = ms;
    }
    group.lastMs = ms;
  }

  /** Every prefix, the most requested first. */
  result(): PrefixUsage[] {
    return [...this.groups.values()].map(finish).sort((a, b) => b.requests - a.requests || compare(order(a), order(b)));
  }

  private groupOf(record: UsageRecord): Group {
    // Joined, not JSON: this runs once per record. Null is \u0001; a name holding \u0000 could only merge its own rows.
    const key = `${record.profile ?? '\u0001'}\u0000${record.agent ?? '\u0001'}\u0000${record.staticPrefixHash ?? '\u0001'}\u0000${record.model ?? '\u0001'}\u0000${record.provider}`;
    const found = this.groups.get(key);
    if (found) return found;
    const owner = JSON.stringify([record.profile, record.agent, record.model]);
    const previous = this.lastHash.get(owner);
    this.lastHash.set(owner, record.staticPrefixHash);
    const fact = this.factFor(record.model);
    const prefix = this.index.sizeFor(record.staticPrefixHash, record.model);
    const group: Group = {
      usage: {
        profile: record.profile,
        agent: record.agent,
        staticPrefixHash: record.staticPrefixHash,
        model: record.model,
        provider: record.provider,
        requests: 0,
        hits: 0,
        writes: 0,
        uncachedOnly: 0,
        tokens: emptyTokens(),
        prefix,
        changedFrom: previous === undefined || previous === record.staticPrefixHash || previous === null ? null : { staticPrefixHash: previous, sections: this.changedSections(previous, record.staticPrefixHash) },
        first: record.time,
        last: record.time,
      },
      cost: fact ? { actual: 0, uncached: 0 } : null,
      misses: new Map(),
      fact,
      simulation: TtlSimulation.applies(fact) ? new TtlSimulation(fact) : null,
      asked: new Map(),
      lastMs: null,
      lastCachedMs: null,
      belowMinimum: prefix?.verdict === 'not-cached',
    };
    this.groups.set(key, group);
    return group;
  }

  private changedSections(before: string, after: string | null): string[] | null {
    const old = this.index.sections(before);
    const now = this.index.sections(after);
    if (old === null || now === null) return null;
    return sectionChanges(old, now).map((change) => `section \`${change.name}\` ${change.change}`);
  }

  private factFor(model: string | null): CacheFact | undefined {
    if (model === null) return undefined;
    if (!this.facts.has(model)) this.facts.set(model, resolveCacheFact(model, this.extraFacts)?.fact);
    return this.facts.get(model);
  }
}

/**
 * What a request's input cost, in base-input-token units: uncached at 1,
 * reads at the read multiplier, writes at their lifetime's write multiplier
 * (split where the provider splits them, else the TTL asked, else the
 * provider's default).
 */
export function billed(tokens: UsageTokens, ttl: string | null, fact: CacheFact): number {
  const write = fact.writeMultiplier;
  const fallback = write[ttl ?? ''] ?? write[fact.ttls[0] ?? 'automatic'] ?? write.automatic ?? 1;
  const split = (tokens.written5m ?? 0) + (tokens.written1h ?? 0);
  const rest = Math.max(0, tokens.written - split);
  return tokens.uncached + tokens.read * fact.readMultiplier + (tokens.written5m ?? 0) * (write['5m'] ?? fallback) + (tokens.written1h ?? 0) * (write['1h'] ?? fallback) + rest * fallback;
}

function finish(group: Group): PrefixUsage {
  const { usage } = group;
  const misses = [...group.misses.values()].sort((a, b) => b.requests - a.requests || compare(a.key, b.key));
  const askedHour = (group.asked.get('1h') ?? 0) > (group.asked.get('5m') ?? 0) + (group.asked.get('') ?? 0);
  return {
    ...usage,
    hitRate: usage.requests === 0 ? 0 : usage.hits / usage.requests,
    cost: group.cost && { ...group.cost, saved: group.cost.uncached - group.cost.actual },
    misses,
    neverHit: usage.hits === 0 && misses.length > 0 ? misses[0]!.cause : null,
    ttl: group.simulation && group.simulation.gaps.within5m + group.simulation.gaps.within1h + group.simulation.gaps.later > 0 ? ttlAdvice(group.simulation, askedHour ? '1h' : '5m') : null,
  };
}

function order(usage: PrefixUsage): string {
  return [usage.profile ?? '', usage.agent ?? '', usage.staticPrefixHash ?? '', usage.model ?? ''].join('\u0000');
}

/** Code-unit order: the same on every machine, whatever its locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
