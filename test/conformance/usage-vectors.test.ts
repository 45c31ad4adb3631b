/**
 * `test/conformance/usage.json`: the usage records, lines and OpenTelemetry
 * attributes — and all the OpenTelemetry sink hands the API (usage-emitted.ts) — the JavaScript runtime makes from the seeds of usage-seeds.ts
 * (SDK-typed responses), the bundle identities and the section changes
 * behind a miss. The committed file must equal what the runtime gives now;
 * python/tests/test_usage_vectors.py runs every case in Python.
 */
import { describe, expect, it } from 'vitest';
import * as rt from '../../compiler/runtime/index.js';
import type { Bundle } from '../../compiler/runtime/bundle.js';
import { asBundlePrompt } from '../../compiler/runtime/system-prompt.js';
import { sectionChanges } from '../../compiler/runtime/usage-sections.js';
import { emittedFor } from './usage-emitted.js';
import * as seeds from './usage-seeds.js';
import { committedOrUpdated, vectorJson } from './vectors.js';

function promptOf(seed: unknown): unknown {
  if (typeof seed !== 'object' || seed === null || !('parts' in seed)) return seed;
  const { parts, hash, source } = seed as seeds.SeedPrompt;
  if (source) return asBundlePrompt(parts, hash!, { kind: source[0], name: source[1] });
  return rt.asSystemPrompt(parts, hash === undefined ? {} : { staticPrefixHash: hash });
}

function run(seed: seeds.UsageSeed): unknown {
  try {
    const record = rt.recordUsage(promptOf(seed.prompt) as rt.SystemPrompt, seed.response, seed.options as rt.RecordUsageOptions);
    return { record, line: rt.usageLine(record), attributes: rt.usageAttributes(record), metricAttributes: rt.usageMetricAttributes(record), emitted: emittedFor(record) };
  } catch (error) {
    if (!(error instanceof rt.ArgumentError)) throw error;
    expect(error.message, seed.name).toContain(`recordUsage: ${error.parameter} must be `);
    return { error: error.name, parameter: error.parameter };
  }
}

const bundleOf = (manifest: unknown): Bundle => ({ manifest, profiles: new Map(), agents: new Map() }) as unknown as Bundle;

function computeVectors(): Record<string, unknown> {
  return {
    records: seeds.RECORD_SEEDS.map((seed) => ({ ...seed, expect: run(seed) })),
    refusals: seeds.REFUSAL_SEEDS.map((seed) => ({ ...seed, expect: run(seed) })),
    identities: seeds.IDENTITY_SEEDS.map((seed) => ({ ...seed, expect: rt.bundleIdentity(bundleOf(seed.manifest)) })),
    sections: seeds.SECTION_SEEDS.map((seed) => {
      const changes = sectionChanges(seed.before, seed.after);
      const miss = { reason: 'system_changed', missedTokens: seed.missedTokens, previousResponseId: null, sections: changes };
      return { ...seed, expect: { changes, described: rt.describeMiss(miss, seed.record), withoutSections: rt.describeMiss({ ...miss, sections: undefined }, seed.record) } };
    }),
  };
}

describe('usage vectors', () => {
  const computed = computeVectors();

  it('the committed usage.json is what the JavaScript runtime gives', () => {
    const about = 'Usage records of usage-seeds.ts (regenerate: UPDATE_VECTORS=1 npx vitest run test/conformance/usage-vectors.test.ts)';
    const committed = JSON.parse(committedOrUpdated('usage.json', vectorJson(about, computed)));
    for (const [group, cases] of Object.entries(computed)) expect(committed[group], group).toEqual(JSON.parse(JSON.stringify(cases)));
  });

  it('every record case gives a record, every refusal an ArgumentError', () => {
    for (const seed of seeds.RECORD_SEEDS) expect(run(seed), seed.name).toHaveProperty('record');
    for (const seed of seeds.REFUSAL_SEEDS) expect(run(seed), seed.name).toMatchObject({ error: 'ArgumentError' });
  });

  it('reads each provider’s counts into the same meaning: uncached, read and written apart, input their sum', () => {
    const record = (name: string) => (run(seeds.RECORD_SEEDS.find((seed) => seed.name.startsWith(name))!) as { record: rt.UsageRecord }).record;
    expect(record('anthropic: a cold write').tokens).toEqual({ read: 0, written: 3000, written5m: 3000, written1h: 0, uncached: 40, input: 3040, output: 120 });
    expect(record('anthropic: a 1-hour write').tokens).toMatchObject({ written: 3200, written5m: 200, written1h: 3000 });
    expect(record('bedrock: written by TTL').tokens).toEqual({ read: 0, written: 1200, written5m: 200, written1h: 1000, uncached: 30, input: 1230, output: 90 });
    expect(record('openai responses: an explicit write').tokens).toEqual({ read: 0, written: 3584, written5m: null, written1h: null, uncached: 416, input: 4000, output: 200 });
    expect(record('openai chat completions').tokens).toMatchObject({ read: 2048, uncached: 952, input: 3000 });
    expect(record('gemini: implicit hit').tokens).toEqual({ read: 4096, written: 0, written5m: null, written1h: null, uncached: 914, input: 5010, output: 150 });
    expect(record('anthropic: system_changed').miss).toEqual({ reason: 'system_changed', missedTokens: 2900, previousResponseId: 'msg_01cold' });
    expect(record('anthropic: an agent prompt')).toMatchObject({ profile: null, agent: 'explore', staticPrefixHash: '0badc0de'.repeat(8) });
    expect(record('bedrock: written by TTL')).toMatchObject({ model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0', requestId: '7f0c2a5e-0000-4000-8000-00000000b001' });
    expect(record('time with an offset').time).toBe('2026-03-01T12:00:00.123Z');
  });
});
