import { describe, expect, it } from 'vitest';
import {
  createSectionCache,
  DANGEROUS_uncachedSystemPromptSection,
  resolveSystemPromptSections,
  systemPromptSection,
  type SectionValue,
} from '../../compiler/runtime/section-cache.js';
import { deferred } from './fixture.js';

/** A compute that returns the given values in turn and counts its calls. */
function counter(...values: SectionValue[]) {
  const state = { calls: 0 };
  const compute = (): SectionValue => values[Math.min(state.calls++, values.length - 1)] ?? null;
  return { state, compute };
}

describe('systemPromptSection', () => {
  it('computes a cached section once per cache and reuses the value by name', async () => {
    const cache = createSectionCache();
    const { state, compute } = counter('first', 'second');
    expect(await resolveSystemPromptSections([systemPromptSection('env', compute)], cache)).toEqual(['first']);
    expect(await resolveSystemPromptSections([systemPromptSection('env', compute)], cache)).toEqual(['first']);
    expect(state.calls).toBe(1);
    expect(cache.get('env')).toBe('first');
  });

  it('caches a null value too', async () => {
    const cache = createSectionCache();
    const { state, compute } = counter(null, 'late');
    await resolveSystemPromptSections([systemPromptSection('memory', compute)], cache);
    expect(await resolveSystemPromptSections([systemPromptSection('memory', compute)], cache)).toEqual([null]);
    expect(state.calls).toBe(1);
  });

  it('recomputes on cacheBreak and stores the new value for later turns', async () => {
    const cache = createSectionCache();
    const { state, compute } = counter('v1', 'v2', 'v3');
    await resolveSystemPromptSections([systemPromptSection('env', compute)], cache);
    const broken = await resolveSystemPromptSections([systemPromptSection('env', compute, { cacheBreak: true })], cache);
    expect(broken).toEqual(['v2']);
    expect(await resolveSystemPromptSections([systemPromptSection('env', compute)], cache)).toEqual(['v2']);
    expect(state.calls).toBe(2);
  });

  it('keeps caches apart: two sessions never share values', async () => {
    const a = createSectionCache();
    const b = createSectionCache();
    await resolveSystemPromptSections([systemPromptSection('env', () => 'session a')], a);
    expect(await resolveSystemPromptSections([systemPromptSection('env', () => 'session b')], b)).toEqual(['session b']);
  });

  it('clear() empties the cache so every section is computed again', async () => {
    const cache = createSectionCache();
    const { state, compute } = counter('before', 'after');
    await resolveSystemPromptSections([systemPromptSection('env', compute)], cache);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await resolveSystemPromptSections([systemPromptSection('env', compute)], cache)).toEqual(['after']);
    expect(state.calls).toBe(2);
  });

  it('treats undefined from a plain JavaScript compute as null', async () => {
    const cache = createSectionCache();
    const compute = (() => undefined) as unknown as () => string;
    expect(await resolveSystemPromptSections([systemPromptSection('x', compute)], cache)).toEqual([null]);
    expect(cache.get('x')).toBeNull();
  });
});

describe('DANGEROUS_uncachedSystemPromptSection', () => {
  it('recomputes on every resolve and never stores the value', async () => {
    const cache = createSectionCache();
    const { state, compute } = counter('one', 'two', 'three');
    const section = DANGEROUS_uncachedSystemPromptSection('mcp', compute, 'servers come and go');
    expect(await resolveSystemPromptSections([section], cache)).toEqual(['one']);
    expect(await resolveSystemPromptSections([section], cache)).toEqual(['two']);
    expect(await resolveSystemPromptSections([section], cache)).toEqual(['three']);
    expect(state.calls).toBe(3);
    expect(cache.size).toBe(0);
  });

  it('ignores a cached value of the same name', async () => {
    const cache = createSectionCache();
    cache.set('mcp', 'stale');
    const section = DANGEROUS_uncachedSystemPromptSection('mcp', () => 'fresh', 'servers come and go');
    expect(await resolveSystemPromptSections([section], cache)).toEqual(['fresh']);
  });

  it.each([[''], ['   \n'], [undefined], [42]])('refuses the reason %j', (reason) => {
    expect(() => DANGEROUS_uncachedSystemPromptSection('mcp', () => 'x', reason as string)).toThrow(
      /non-empty reason is required/,
    );
  });
});

describe('resolveSystemPromptSections', () => {
  it('starts every async compute before awaiting any, and keeps section order', async () => {
    const cache = createSectionCache();
    const gates = { a: deferred<string>(), b: deferred<string>() };
    const started: string[] = [];
    const section = (name: 'a' | 'b') =>
      systemPromptSection(name, async () => {
        started.push(name);
        return gates[name].promise;
      });

    const result = resolveSystemPromptSections([section('a'), section('b')], cache);
    // Both are running while neither has finished: they overlap.
    expect(started).toEqual(['a', 'b']);
    gates.b.resolve('B');
    gates.a.resolve('A');
    expect(await result).toEqual(['A', 'B']);
    expect(cache.get('a')).toBe('A');
    expect(cache.get('b')).toBe('B');
  });

  it('rejects when a compute fails and caches nothing for it', async () => {
    const cache = createSectionCache();
    const failing = systemPromptSection('git', () => Promise.reject(new Error('git exploded')));
    await expect(resolveSystemPromptSections([failing], cache)).rejects.toThrow('git exploded');
    expect(cache.get('git')).toBeUndefined();
  });

  it('mixes cached, uncached and async sections in one call', async () => {
    const cache = createSectionCache();
    cache.set('env', 'cached env');
    const values = await resolveSystemPromptSections(
      [
        systemPromptSection('env', () => 'recomputed env'),
        DANGEROUS_uncachedSystemPromptSection('mcp', async () => 'mcp now', 'servers come and go'),
        systemPromptSection('memory', async () => null),
      ],
      cache,
    );
    expect(values).toEqual(['cached env', 'mcp now', null]);
  });
});
