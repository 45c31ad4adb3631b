/**
 * Dynamic sections and the per-session cache that keeps them byte-stable
 * between turns (docs/runtime.md#the-section-cache). A cached section is computed once per session
 * and reused by name; an uncached one is recomputed on every request, which
 * changes the prompt tail and costs cache hits — hence the loud factory name
 * and the mandatory reason.
 */

import { ArgumentError, checkFunction, checkOptionalBoolean, checkString, optionsOf } from './arguments.js';

export type SectionValue = string | null;
export type ComputeSection = () => SectionValue | Promise<SectionValue>;

export type SystemPromptSection =
  | {
      readonly name: string;
      readonly compute: ComputeSection;
      readonly cache: 'cached';
      /** Recompute (and store) even when a value is cached. */
      readonly cacheBreak: boolean;
    }
  | {
      readonly name: string;
      readonly compute: ComputeSection;
      readonly cache: 'uncached';
      readonly reason: string;
    };

/** One per session: two sessions must never share one. Clear it on /clear, /compact and worktree changes. */
export interface SectionCache {
  /** The cached value, or undefined when the section was never computed (null is a value). */
  get(name: string): SectionValue | undefined;
  set(name: string, value: SectionValue): void;
  clear(): void;
  readonly size: number;
}

export function createSectionCache(): SectionCache {
  const values = new Map<string, SectionValue>();
  return {
    get: (name) => values.get(name),
    set: (name, value) => void values.set(name, value),
    clear: () => values.clear(),
    get size() {
      return values.size;
    },
  };
}

export function systemPromptSection(
  name: string,
  compute: ComputeSection,
  given?: { cacheBreak?: boolean },
): SystemPromptSection {
  checkString('systemPromptSection', 'name', name);
  checkFunction('systemPromptSection', 'compute', compute);
  const options = optionsOf('systemPromptSection', given);
  checkOptionalBoolean('systemPromptSection', 'options.cacheBreak', options.cacheBreak);
  return { name, compute, cache: 'cached', cacheBreak: options.cacheBreak ?? false };
}

export function DANGEROUS_uncachedSystemPromptSection(
  name: string,
  compute: ComputeSection,
  reason: string,
): SystemPromptSection {
  checkString('DANGEROUS_uncachedSystemPromptSection', 'name', name);
  checkFunction('DANGEROUS_uncachedSystemPromptSection', 'compute', compute);
  if (typeof reason !== 'string' || reason.trim() === '') {
    const why = 'given (a non-empty reason is required: an uncached section changes the prompt every turn and breaks the prompt cache)';
    throw new ArgumentError('DANGEROUS_uncachedSystemPromptSection', 'reason', why, reason);
  }
  return { name, compute, cache: 'uncached', reason };
}

/**
 * Values in section order. Every needed computation is started before any is
 * awaited, so async computes run concurrently; a warm cache resolves without
 * creating a promise per section.
 */
export async function resolveSystemPromptSections(
  sections: readonly SystemPromptSection[],
  cache: SectionCache,
): Promise<SectionValue[]> {
  const fn = 'resolveSystemPromptSections';
  if (!Array.isArray(sections)) throw new ArgumentError(fn, 'sections', 'an array of sections (systemPromptSection…)', sections);
  sections.forEach((section: Partial<SystemPromptSection> | null, index) => {
    if (typeof section !== 'object' || section === null || typeof section.compute !== 'function') {
      throw new ArgumentError(fn, `sections[${index}]`, 'a section from systemPromptSection or DANGEROUS_uncachedSystemPromptSection', section);
    }
  });
  checkSectionCache(fn, 'cache', cache);
  return resolveSections(sections, cache);
}

/** `resolveSystemPromptSections` for sections and a cache already checked (the assembly's own, on every request). */
export function resolveSections(sections: readonly SystemPromptSection[], cache: SectionCache): SectionValue[] | Promise<SectionValue[]> {
  const values = sections.map((section) => valueOf(section, cache));
  return values.some(isPromise) ? Promise.all(values) : (values as SectionValue[]);
}

/** A session's section cache, as `createSectionCache` makes one (or anything with its `get` and `set`). */
export function checkSectionCache(fn: string, parameter: string, cache: unknown): asserts cache is SectionCache {
  const store = cache as Partial<SectionCache> | null;
  if (typeof store !== 'object' || store === null || typeof store.get !== 'function' || typeof store.set !== 'function') {
    throw new ArgumentError(fn, parameter, "the session's section cache (createSectionCache())", cache);
  }
}

function valueOf(section: SystemPromptSection, cache: SectionCache): SectionValue | Promise<SectionValue> {
  if (section.cache === 'cached' && !section.cacheBreak) {
    const cached = cache.get(section.name);
    if (cached !== undefined) return cached;
  }
  const value = section.compute();
  // Uncached values are never stored: nothing may ever reuse them.
  if (section.cache === 'uncached') return isPromise(value) ? value.then(normalise) : normalise(value);
  const store = (computed: SectionValue | undefined): SectionValue => {
    const normalised = normalise(computed);
    cache.set(section.name, normalised);
    return normalised;
  };
  return isPromise(value) ? value.then(store) : store(value);
}

/** A compute written in plain JavaScript may return undefined; it means "no section". */
function normalise(value: SectionValue | undefined): SectionValue {
  return value ?? null;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
