import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hash prefix used in artifact file names. */
export function shortHash(hash: string): string {
  return hash.slice(0, 8);
}

/**
 * JSON with object keys sorted at every level and a final newline: the one
 * serialisation every file in `dist/` uses, so equal data gives equal bytes.
 */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/**
 * The keys of `value` that `stableStringify` writes, in its order: sorted,
 * except that JSON.stringify puts integer-like keys first, in numeric order,
 * and that a `__proto__` key is lost in the sorted copy. Keys whose value JSON
 * leaves out (undefined, functions, symbols) are left out.
 */
export function stableKeys(value: object): readonly string[] {
  const known = (value as { [SORTED_KEYS]?: readonly string[] })[SORTED_KEYS];
  if (known) return known;
  const sorted = Object.keys(value).sort();
  const keys = sorted.some(mayReorder) ? keysOfCopy(sorted) : sorted;
  return keys.filter((key) => isWritten((value as Record<string, unknown>)[key]));
}

/**
 * Where a record whose maker holds its keys sorted carries `stableKeys` of
 * itself: a symbol-keyed, non-enumerable property, which neither JSON nor
 * `Object.keys` sees — the record's own, not state of this module.
 */
const SORTED_KEYS = Symbol('prompt-build.sortedKeys');

/**
 * Tells `stableKeys` the keys of `record`, which the caller holds sorted
 * already — sorting tens of thousands of them on every rebuild would cost
 * more than the rest of serialising the object. `keys` must be exactly
 * `Object.keys(record)`, sorted, each with a value JSON writes; neither may
 * change afterwards.
 */
export function withSortedKeys<T extends object>(record: T, keys: readonly string[]): T {
  Object.defineProperty(record, SORTED_KEYS, { value: keys.some(mayReorder) ? keysOfCopy(keys) : keys, configurable: true });
  return record;
}

/** Whether `key` can make the sorted copy's key order differ from the sorted keys: integer-like or `__proto__`. */
function mayReorder(key: string): boolean {
  const first = key.charCodeAt(0);
  return (first >= 0x30 && first <= 0x39) || key === '__proto__';
}

/** The key order of an object filled in the order `sortKeys` fills its copy. */
function keysOfCopy(sorted: readonly string[]): string[] {
  const copy: Record<string, true> = {};
  for (const key of sorted) copy[key] = true;
  return Object.keys(copy);
}

/** Whether JSON.stringify writes `value` as an object member (in an array it writes `null` instead). */
export function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
