/**
 * micromark's document tokenizer, for every list item after the first,
 * applies two edits near the end of the document's event list through
 * `EditMap.consume` — which rebuilds the whole list to do it: a list of n
 * items costs n² copies of events (a 1 MiB nested list took minutes, bench/
 * pathological.mjs). Applied in place from the last edit back, the same edits
 * cost what they move.
 *
 * `withInPlaceEdits` runs one synchronous tokenization with that `consume`
 * and gives micromark its own back before returning, so no other code in the
 * process ever sees the replacement. The result is the same list: edits that
 * overlap or reach past the end, which micromark does not make, go to
 * micromark's own `consume`.
 */
import { EditMap } from 'micromark-util-edit-map';
import type { Event } from 'micromark-util-types';

export function withInPlaceEdits<T>(run: () => T): T {
  const prototype = EditMap.prototype;
  const original = prototype.consume;
  prototype.consume = function consume(this: EditMap, events: Event[]): undefined {
    return consumeInPlace(this, events, original);
  };
  try {
    return run();
  } finally {
    prototype.consume = original;
  }
}

/** Exported for the tests, which hold it to micromark's `consume`. */
export function consumeInPlace(map: EditMap, events: Event[], original: EditMap['consume']): undefined {
  const changes = map.map;
  changes.sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < changes.length; i++) {
    const [at, remove] = changes[i]!;
    const next = changes[i + 1];
    if (at > events.length || (next !== undefined && at + remove > next[0])) return original.call(map, events);
  }
  for (let i = changes.length - 1; i >= 0; i--) {
    const [at, remove, add] = changes[i]!;
    spliceInPlace(events, at, remove, add);
  }
  changes.length = 0;
  map.index.clear();
  return undefined;
}

/** `Array#splice` with the items as an array: spread in chunks, since a call takes only so many arguments. */
function spliceInPlace(list: Event[], start: number, remove: number, items: readonly Event[]): void {
  const CHUNK = 10_000;
  if (items.length < CHUNK) {
    list.splice(start, remove, ...items);
    return;
  }
  list.splice(start, remove);
  for (let i = 0; i < items.length; i += CHUNK) list.splice(start + i, 0, ...items.slice(i, i + CHUNK));
}
