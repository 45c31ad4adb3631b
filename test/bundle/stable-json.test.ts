/**
 * The manifest is serialised in pieces, reused between builds for unchanged
 * objects (stable-json.ts, pieces.ts): joined, the pieces must be exactly
 * `stableStringify`, and their escaped forms exactly its JSON string literal,
 * whatever the data — integer-like keys, `__proto__`, undefined members,
 * surrogate pairs — and whatever was serialised before.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../helpers/generate-tree.mjs';
import { stableStringify, withSortedKeys } from '../../compiler/core/hash.js';
import { BundleFiles, joinPieces, Piece } from '../../compiler/bundle/pieces.js';
import { createJsonPieceCache, stableJsonPieces as piecesWith } from '../../compiler/bundle/stable-json.js';

/** One cache for the whole file, as one compiler keeps one across its builds. */
const cache = createJsonPieceCache();
const stableJsonPieces = (value: unknown, depth: number) => piecesWith(value, depth, cache);

describe('stableJsonPieces', () => {
  it('joins to stableStringify on random data, at every depth of reuse', () => {
    const random = mulberry32(42);
    for (let i = 0; i < 300; i++) {
      const value = randomValue(random, 4) ?? {}; // undefined is no JSON text
      const expected = stableStringify(value);
      for (const depth of [0, 1, 2, 3, 5]) {
        const pieces = stableJsonPieces(value, depth);
        expect(joinPieces(pieces)).toBe(expected);
        expect(joinPieces(pieces.map((p) => p.escaped))).toBe(JSON.stringify(expected).slice(1, -1));
      }
    }
  });

  it('writes a reused object right under another key, at another depth, or after it moved', () => {
    const shared = { b: [1, { c: 'x' }], a: 'é😀' };
    const first = { one: { k: shared }, two: shared };
    const second = { two: { deeper: { k: shared } }, '1': shared, zz: [shared] };
    for (const value of [first, second, first]) {
      for (const depth of [1, 2, 3]) expect(joinPieces(stableJsonPieces(value, depth))).toBe(stableStringify(value));
    }
  });

  it('reuses the pieces of unchanged runs of members, and only those', () => {
    // 200 small members: runs of 64 per piece. A large one (a profile, say) is a piece of its own.
    const entries = Array.from({ length: 200 }, (_, i) => [`s${String(i).padStart(3, '0')}.md`, { hash: `h${i}`, includes: [] }] as const);
    const large = { text: 'x'.repeat(5000) };
    const build = (changed?: number) =>
      stableJsonPieces(
        { profiles: { big: large }, sources: Object.fromEntries(entries.map(([k, v], i) => [k, i === changed ? { hash: 'new', includes: [] } : v])) },
        2,
      );
    const before = build();
    const after = build(150);
    const pieceWith = (pieces: Piece[], text: string) => pieces.find((p) => p.text.includes(text))!;
    expect(pieceWith(after, '"big"')).toBe(pieceWith(before, '"big"'));
    expect(pieceWith(after, '"s000.md"')).toBe(pieceWith(before, '"s000.md"'));
    expect(pieceWith(after, '"s100.md"')).toBe(pieceWith(before, '"s100.md"'));
    expect(pieceWith(after, '"s150.md"')).not.toBe(pieceWith(before, '"s150.md"'));
    expect(pieceWith(after, '"s000.md"')).not.toBe(pieceWith(after, '"s100.md"'));
    expect(joinPieces(after)).toBe(stableStringify({ profiles: { big: large }, sources: Object.fromEntries(entries.map(([k, v], i) => [k, i === 150 ? { hash: 'new', includes: [] } : v])) }));
  });

  it('lays out small and large members side by side, in any order', () => {
    const large = (c: string) => ({ text: c.repeat(3000) });
    const members = [['a', 1], ['b', large('b')], ['c', { x: 1 }], ['d', 'small'], ['e', large('e')], ['f', large('f')], ['g', [1, 2]]] as const;
    for (let shift = 0; shift < members.length; shift++) {
      const value = { top: Object.fromEntries(members.map(([k], i) => [k, members[(i + shift) % members.length]![1]])) };
      expect(joinPieces(stableJsonPieces(value, 2))).toBe(stableStringify(value));
    }
  });

  it('reuses the runs of a record whose maker holds its keys sorted, comparing members by identity', () => {
    const keys = Array.from({ length: 300 }, (_, i) => `prompts/s${String(i).padStart(3, '0')}.md`);
    const values = keys.map((_, i) => ({ hash: `h${i}`, includes: i % 7 === 0 ? ['prompts/x.md'] : [] }));
    const record = (vals: readonly unknown[]) => withSortedKeys(Object.fromEntries(keys.map((k, i) => [k, vals[i]])), keys);
    const first = record(values);
    const before = stableJsonPieces({ sources: first }, 2);
    const changed = [...values];
    changed[200] = { hash: 'new', includes: [] };
    changed[201] = 'a primitive';
    const after = stableJsonPieces({ sources: record(changed) }, 2);
    expect(joinPieces(after)).toBe(stableStringify({ sources: Object.fromEntries(keys.map((k, i) => [k, changed[i]])) }));
    const pieceWith = (pieces: Piece[], text: string) => pieces.find((p) => p.text.includes(text))!;
    expect(pieceWith(after, '"prompts/s000.md"')).toBe(pieceWith(before, '"prompts/s000.md"'));
    expect(pieceWith(after, '"prompts/s299.md"')).toBe(pieceWith(before, '"prompts/s299.md"'));
    expect(pieceWith(after, '"prompts/s200.md"')).not.toBe(pieceWith(before, '"prompts/s200.md"'));
    // The same keys at another depth: nothing reused, still exact.
    expect(joinPieces(stableJsonPieces({ a: { sources: record(changed) } }, 3))).toBe(stableStringify({ a: { sources: record(changed) } }));
    expect(joinPieces(stableJsonPieces({ sources: record(values) }, 2))).toBe(joinPieces(before));
  });

  it('orders the integer-like keys of a record registered with its sorted keys as JSON.stringify does', () => {
    const keys = ['10', '2', 'a', 'b'];
    const record = withSortedKeys(Object.fromEntries(keys.map((k) => [k, { hash: k }])), keys);
    expect(joinPieces(stableJsonPieces({ sources: record }, 2))).toBe(stableStringify({ sources: record }));
  });

  it('orders integer-like keys as JSON.stringify does, and loses __proto__ as the sorted copy does', () => {
    const value = JSON.parse('{"b": 1, "10": 2, "2": 3, "__proto__": {"x": 1}, "a": {"__proto__": 4, "0": [], "-1": {}}}') as unknown;
    expect(joinPieces(stableJsonPieces(value, 1))).toBe(stableStringify(value));
  });
});

describe('Piece and BundleFiles', () => {
  it('encodes and escapes pieces once', () => {
    const piece = new Piece('line "one"\n\u2028😀');
    expect(piece.bytes).toBe(piece.bytes);
    expect(piece.bytes.toString('utf8')).toBe(piece.text);
    expect(piece.escaped).toBe(piece.escaped);
    expect(piece.escaped.text).toBe(JSON.stringify(piece.text).slice(1, -1));
  });

  it('keeps the pieces of a file only while its content is the one they make', () => {
    const files = new BundleFiles();
    const pieces = [new Piece('a'), new Piece('b')];
    files.setPieces('bundle.mjs', pieces);
    expect(files.get('bundle.mjs')).toBe('ab');
    expect(files.pieces('bundle.mjs')).toBe(pieces);
    files.set('bundle.mjs', 'other');
    expect(files.pieces('bundle.mjs')).toBeUndefined();
    expect(files.pieces('manifest.json')).toBeUndefined();
  });
});

const KEYS = ['a', 'b', 'name', 'Zed', 'é', '😀', '0', '1', '2', '10', '01', '-1', '4294967294', '4294967295', '__proto__', 'a b', ''];
const STRINGS = ['', 'plain', 'quote " and \\ backslash', 'line\nbreak\ttab', '\u0001control', 'é ü 中文', '😀 𝄞', '\ud800 lone', '\u2028'];

function randomValue(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth === 0 || roll < 0.35) {
    const leaves = [null, true, false, 0, -0, 1.5, -42, 1e21, undefined, ...STRINGS];
    return leaves[Math.floor(random() * leaves.length)];
  }
  const size = Math.floor(random() * 5);
  if (roll < 0.6) return Array.from({ length: size }, () => randomValue(random, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) {
    Object.defineProperty(out, KEYS[Math.floor(random() * KEYS.length)]!, {
      value: randomValue(random, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
