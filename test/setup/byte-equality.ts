/**
 * Vitest setup file: byte arrays are compared as byte arrays. Vitest's deep
 * equality walks a Buffer index by index at microseconds a byte — 1.3 s for
 * two equal 100 KB buffers — and the suite compares whole bundles read with
 * `readTree` (path → Buffer) again and again. Equal means what it meant:
 * the same constructor and the same bytes; any other pair is left to
 * vitest's own rules, and a failure prints the same diff as before.
 */
import { expect } from 'vitest';

/** Once per worker: the file runs before every test file, and the testers live as long as the worker (isolate: false). */
const REGISTERED = Symbol.for('prompt-build.test.byte-equality');

function sameBytes(a: unknown, b: unknown): boolean | undefined {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.constructor !== b.constructor) return undefined;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

const registry = globalThis as { [REGISTERED]?: true };
if (!registry[REGISTERED]) {
  expect.addEqualityTesters([sameBytes]);
  registry[REGISTERED] = true;
}
