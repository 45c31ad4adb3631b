/**
 * `test/conformance/requests.json`: the request planners' output for the
 * seeds of request-seeds.ts. The committed file must equal what the
 * JavaScript runtime gives now; python/tests/test_request_vectors.py runs
 * every case in Python.
 */
import { describe, expect, it } from 'vitest';
import * as rt from '../../compiler/runtime/index.js';
import * as seeds from './request-seeds.js';
import { committedOrUpdated, vectorJson } from './vectors.js';

/** The seed's arguments, `{"$promise": x}` made an un-awaited x. */
function argumentsOf(seed: seeds.RequestSeed): [Record<string, unknown>, Record<string, unknown> | undefined] {
  const system = typeof seed.system === 'object' && seed.system !== null && '$promise' in seed.system ? Promise.resolve((seed.system as { $promise: unknown }).$promise) : seed.system;
  return [{ system, ...seed.input }, seed.options];
}

function run(seed: seeds.RequestSeed): unknown {
  const [input, options] = argumentsOf(seed);
  const planner = rt[seed.call] as (input: unknown, options?: unknown) => unknown;
  try {
    return { value: planner(input, options) };
  } catch (error) {
    if (!(error instanceof rt.ArgumentError)) throw error;
    expect(error.message, seed.name).toContain(`${seed.call}: ${error.parameter} must be `);
    if (JSON.stringify(seed.system).includes('"$promise"')) expect(error.message, seed.name).toContain('did you forget `await`?');
    return { error: error.name, parameter: error.parameter };
  }
}

function computeVectors(): Record<string, unknown> {
  return {
    anthropic: seeds.ANTHROPIC_SEEDS.map((seed) => ({ ...seed, expect: run(seed) })),
    bedrock: seeds.BEDROCK_SEEDS.map((seed) => ({ ...seed, expect: run(seed) })),
    refusals: seeds.REFUSAL_SEEDS.map((seed) => ({ ...seed, expect: run(seed) })),
  };
}

describe('request vectors', () => {
  it('the committed requests.json is what the JavaScript runtime gives', () => {
    const computed = computeVectors();
    const about = 'Request planner cases of request-seeds.ts (regenerate: UPDATE_VECTORS=1 npx vitest run test/conformance/request-vectors.test.ts)';
    const committed = JSON.parse(committedOrUpdated('requests.json', vectorJson(about, computed)));
    for (const [group, cases] of Object.entries(computed)) expect(committed[group], group).toEqual(JSON.parse(JSON.stringify(cases)));
  });

  it('every planned case succeeds and every refusal is an ArgumentError', () => {
    for (const seed of [...seeds.ANTHROPIC_SEEDS, ...seeds.BEDROCK_SEEDS]) expect(run(seed), seed.name).toHaveProperty('value');
    for (const seed of seeds.REFUSAL_SEEDS) expect(run(seed), seed.name).toMatchObject({ error: 'ArgumentError' });
  });
});
