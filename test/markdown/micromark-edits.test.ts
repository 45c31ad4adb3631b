/**
 * compiler/markdown/micromark-edits.ts applies micromark's event edits in place
 * instead of rebuilding the whole event list for each, which made a list of
 * n items cost n² (prose.test.ts holds the scanner's answers to remark's
 * tree, which runs micromark's own edits). Here: the same lists come out,
 * the work is what the edits move, and the scanner really tokenizes that way.
 */
import { EditMap } from 'micromark-util-edit-map';
import type { Event } from 'micromark-util-types';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../helpers/generate-tree.mjs';
import { consumeInPlace } from '../../compiler/markdown/micromark-edits.js';
import { proseOf } from '../../compiler/markdown/prose.js';

const micromarkConsume = EditMap.prototype.consume;

/** Stand-ins for events: the edits only move them. */
const events = (from: number, count: number) => Array.from({ length: count }, (_, i) => [from + i] as unknown as Event);

describe('in-place event edits', () => {
  it('give the list micromark’s consume gives, for 3,000 random edit maps (overlapping ones and ones past the end included)', () => {
    const random = mulberry32(12);
    const int = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 3000; round++) {
      const length = int(40);
      const edits: Array<[number, number, number]> = Array.from({ length: int(5) }, () => [int(length + (round % 7 === 0 ? 5 : 1)), int(4), int(4)]);
      const apply = (consume: (map: EditMap, list: Event[]) => void) => {
        const map = new EditMap();
        edits.forEach(([at, remove, add], i) => map.add(at, remove, events(1000 * (i + 1), add)));
        const list = events(0, length);
        consume(map, list);
        return { list, left: map.map.length };
      };
      const expected = apply((map, list) => micromarkConsume.call(map, list));
      expect(apply((map, list) => consumeInPlace(map, list, micromarkConsume)), JSON.stringify({ length, edits })).toEqual(expected);
    }
  });

  it('move only what follows the edits: two edits at the end of 200,000 events read a handful of them', () => {
    let reads = 0;
    const list = new Proxy(events(0, 200_000), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const map = new EditMap();
    map.add(199_990, 0, events(-10, 3));
    map.add(199_998, 2, []);
    consumeInPlace(map, list, micromarkConsume);
    expect(list.length).toBe(200_001);
    expect(reads).toBeLessThan(100);
  });

  it('are what the scanner tokenizes with: micromark’s own consume never runs on a long nested list', () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) for (let depth = 0; depth < 5; depth++) lines.push(`${'  '.repeat(depth)}- item ${i} at ${depth} @./x.md`);
    const doc = `${lines.join('\n')}\n`;
    let calls = 0;
    const counted = function (this: EditMap, list: Event[]) {
      calls++;
      return micromarkConsume.call(this, list);
    };
    EditMap.prototype.consume = counted;
    try {
      expect(proseOf(doc).texts.length).toBe(1500);
      // …and after it, micromark has the consume it had before.
      expect(EditMap.prototype.consume).toBe(counted);
    } finally {
      EditMap.prototype.consume = micromarkConsume;
    }
    expect(calls).toBe(0);
  });
});
