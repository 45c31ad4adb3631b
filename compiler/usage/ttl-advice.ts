/**
 * The TTL advisor (docs/usage.md#the-ttl-advisor): the cache traffic of one prefix, priced
 * as if every request had asked the 5-minute TTL, and as if every one had
 * asked the 1-hour TTL. A request finds the entry alive when the prefix's
 * previous cached request was within the TTL (each request refreshes it),
 * and reads it then; otherwise it writes it, at that TTL's write price. Only
 * the gaps between requests decide, so the verdict is streamed: two sums
 * and three counts per prefix, whatever the log's length.
 */
import type { CacheFact } from '../cache-facts/cache-facts.js';

const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;

export interface TtlGaps {
  /** Cached requests that came within 5 minutes of the previous one. */
  within5m: number;
  /** …after 5 minutes, within the hour. */
  within1h: number;
  /** …after more than an hour, or first. */
  later: number;
}

export class TtlSimulation {
  readonly gaps: TtlGaps = { within5m: 0, within1h: 0, later: 0 };
  /** What the cache traffic cost under each TTL, in base-input-token units. */
  cost5m = 0;
  cost1h = 0;

  constructor(private readonly fact: CacheFact) {}

  /** Whether the facts price both lifetimes (Anthropic's models, on Anthropic or Bedrock). */
  static applies(fact: CacheFact | undefined): fact is CacheFact {
    return fact !== undefined && fact.writeMultiplier['5m'] !== undefined && fact.writeMultiplier['1h'] !== undefined;
  }

  /** One request that read or wrote `tokens`, `gapMs` after the previous such request (null: the first). */
  add(tokens: number, gapMs: number | null): void {
    const { readMultiplier: read, writeMultiplier: write } = this.fact;
    const alive5m = gapMs !== null && gapMs <= FIVE_MINUTES;
    const alive1h = gapMs !== null && gapMs <= ONE_HOUR;
    if (alive5m) this.gaps.within5m++;
    else if (alive1h) this.gaps.within1h++;
    else this.gaps.later++;
    this.cost5m += tokens * (alive5m ? read : write['5m']!);
    this.cost1h += tokens * (alive1h ? read : write['1h']!);
  }
}

export interface TtlAdvice {
  gaps: TtlGaps;
  cost5m: number;
  cost1h: number;
  /** The cheaper TTL on this traffic, or `same`. */
  better: '5m' | '1h' | 'same';
  /** What the better one saves, in base-input-token units, and as a share of the dearer one. */
  saving: number;
  savingShare: number;
  /** What the requests asked (the most asked; `5m` for the provider's default). */
  asked: '5m' | '1h';
  /** What to change, or that the setting is right. */
  setting: string;
}

export function ttlAdvice(simulation: TtlSimulation, asked: '5m' | '1h'): TtlAdvice {
  const { cost5m, cost1h, gaps } = simulation;
  const saving = Math.abs(cost5m - cost1h);
  const better = saving < 0.5 ? 'same' : cost1h < cost5m ? '1h' : '5m';
  const dearer = Math.max(cost5m, cost1h);
  const setting =
    better === 'same' || better === asked
      ? `keep ${asked === '1h' ? "staticTtl: '1h'" : 'the 5-minute default'}`
      : better === '1h'
        ? "set staticTtl: '1h' (toAnthropicSystem, toAnthropicRequest, toBedrockSystem, toBedrockRequest)"
        : "drop staticTtl: '1h' (the 5-minute default costs less)";
  return { gaps: { ...gaps }, cost5m, cost1h, better, saving, savingShare: dearer === 0 ? 0 : saving / dearer, asked, setting };
}
