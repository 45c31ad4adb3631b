/**
 * The likely cause of a miss and the TTL advisor's verdict, case by case
 * (docs/usage.md#the-ttl-advisor): the report's golden test covers them on one log;
 * here each rule on its own, the edges included.
 */
import { describe, expect, it } from 'vitest';
import { resolveCacheFact } from '../../compiler/cache-facts/cache-fact-lookup.js';
import type { UsageRecord } from '../../compiler/runtime/usage.js';
import { missCause, ttlMinutes, type MissContext } from '../../compiler/usage/miss-causes.js';
import { ttlAdvice, TtlSimulation } from '../../compiler/usage/ttl-advice.js';

const record = (fields: Partial<UsageRecord> & { written?: number }): UsageRecord => ({
  v: 1,
  time: '2026-03-02T09:00:00.000Z',
  provider: 'anthropic',
  api: 'messages',
  model: 'claude-sonnet-4-5',
  profile: 'default',
  agent: null,
  staticPrefixHash: 'h',
  bundle: null,
  tokens: { read: 0, written: fields.written ?? 3000, written5m: null, written1h: null, uncached: 40, input: 3040, output: 1 },
  ttl: null,
  responseId: null,
  requestId: null,
  session: null,
  miss: null,
  ...fields,
});
const context = (fields: Partial<MissContext> = {}): MissContext => ({ belowMinimum: false, gapMs: 60_000, changedFrom: null, ...fields });
const MINUTE = 60_000;

describe('missCause', () => {
  it('takes the provider’s diagnosis first, but not one still pending', () => {
    const miss = { reason: 'tools_changed', missedTokens: 5, previousResponseId: null };
    expect(missCause(record({ miss }), context({ belowMinimum: true }))).toBe('provider');
    expect(missCause(record({ miss: { ...miss, reason: 'pending' } }), context({ gapMs: null }))).toBe('first-write');
  });

  it('says below the minimum only when nothing was written: a write disproves the count', () => {
    expect(missCause(record({ written: 0 }), context({ belowMinimum: true }))).toBe('below-minimum');
    expect(missCause(record({ written: 3000 }), context({ belowMinimum: true, gapMs: MINUTE }))).toBe('missed-within-ttl');
  });

  it('tells a first write from one after a change of prefix', () => {
    expect(missCause(record({}), context({ gapMs: null }))).toBe('first-write');
    expect(missCause(record({}), context({ gapMs: null, changedFrom: 'old' }))).toBe('prefix-changed');
  });

  it('measures the gap against the TTL asked: 5 minutes by default, an hour when asked', () => {
    expect(missCause(record({}), context({ gapMs: 5 * MINUTE + 1 }))).toBe('ttl-expired');
    expect(missCause(record({}), context({ gapMs: 5 * MINUTE }))).toBe('missed-within-ttl');
    expect(missCause(record({ ttl: '1h' }), context({ gapMs: 30 * MINUTE }))).toBe('missed-within-ttl');
    expect(missCause(record({ ttl: '1h' }), context({ gapMs: 61 * MINUTE }))).toBe('ttl-expired');
    expect([ttlMinutes('30m'), ttlMinutes('24h'), ttlMinutes(null)]).toEqual([30, 1440, 5]);
  });

  it('says nothing was cached when a provider that reports writes wrote nothing; OpenAI reports none', () => {
    expect(missCause(record({ written: 0 }), context())).toBe('not-cached');
    expect(missCause(record({ written: 0, provider: 'openai' }), context())).toBe('missed-within-ttl');
  });
});

describe('the TTL advisor', () => {
  const fact = resolveCacheFact('claude-sonnet-4-5')!.fact;
  const simulate = (gapsInMinutes: (number | null)[], tokens = 1000) => {
    const simulation = new TtlSimulation(fact);
    for (const gap of gapsInMinutes) simulation.add(tokens, gap === null ? null : gap * MINUTE);
    return simulation;
  };

  it('applies where the facts price both lifetimes', () => {
    expect(TtlSimulation.applies(fact)).toBe(true);
    expect(TtlSimulation.applies(resolveCacheFact('gpt-5')!.fact)).toBe(false);
    expect(TtlSimulation.applies(undefined)).toBe(false);
  });

  it('advises dropping the hour for traffic that never waits 5 minutes', () => {
    const advice = ttlAdvice(simulate([null, 1, 2, 1]), '1h');
    // 5m: 1,250 + 3 × 100; 1h: 2,000 + 3 × 100.
    expect(advice).toMatchObject({ cost5m: 1550, cost1h: 2300, better: '5m', saving: 750, asked: '1h' });
    expect(advice.savingShare).toBeCloseTo(750 / 2300, 10);
    expect(advice.setting).toBe("drop staticTtl: '1h' (the 5-minute default costs less)");
  });

  it('keeps the hour where gaps of 5 to 60 minutes would rewrite the 5-minute entry', () => {
    const advice = ttlAdvice(simulate([null, 20, 20, 20]), '1h');
    expect(advice).toMatchObject({ gaps: { within5m: 0, within1h: 3, later: 1 }, cost5m: 5000, cost1h: 2300, better: '1h' });
    expect(advice.setting).toBe("keep staticTtl: '1h'");
  });

  it('prefers 5 minutes when every gap is beyond the hour: both rewrite, and the 5-minute write costs less', () => {
    const advice = ttlAdvice(simulate([null, 90]), '5m');
    expect(advice).toMatchObject({ cost5m: 2500, cost1h: 4000, better: '5m' });
    expect(ttlAdvice(simulate([]), '5m')).toMatchObject({ better: 'same', saving: 0, savingShare: 0, setting: 'keep the 5-minute default' });
  });
});
