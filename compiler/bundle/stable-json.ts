/**
 * `stableStringify` for data that is built again with most of its objects
 * unchanged: the manifest, on every watch-mode rebuild. Its entries are the
 * same objects from one build to the next when their output did not change
 * (emit.ts, compiler.ts), so the text of each is kept with the object and only
 * what changed is serialised again. The text comes in pieces (pieces.ts), so
 * that writing it, and escaping it into `bundle.mjs`, reuse work as well.
 */
import { isWritten, stableKeys, stableStringify } from '../core/hash.js';
import { Piece, sameItems } from './pieces.js';

/**
 * What serialising keeps from one build to the next, by the identity of the
 * objects it wrote: owned by whoever serialises again (one compiler), so two
 * compilers share nothing. An object must not change once serialised: the
 * compiler replaces what it rebuilds, it never mutates it.
 */
export interface JsonPieceCache {
  /** The piece of an object written at a depth under a key, for as long as it keeps both. */
  readonly units: WeakMap<object, { key: string | null; depth: number; piece: Piece }>;
  /**
   * What was written last for an object whose keys came as this very array
   * (see `withSortedKeys`): a large record rebuilt with a few members changed.
   * Its members are compared by identity and its unchanged runs reused, with
   * no look at the pieces of each member.
   */
  readonly lastRuns: WeakMap<readonly string[], { depth: number; values: unknown[]; runs: Run[] }>;
  /** A run (members and the separators between them) as one piece, kept with its first member while the run is the same pieces. */
  readonly chunks: WeakMap<Piece, { run: readonly Piece[]; piece: Piece }>;
  /** Punctuation and indentation: a few distinct pieces. */
  readonly layouts: Map<string, Piece>;
}

export function createJsonPieceCache(): JsonPieceCache {
  return { units: new WeakMap(), lastRuns: new WeakMap(), chunks: new WeakMap(), layouts: new Map() };
}

/**
 * `stableStringify(value)` as pieces. Objects and arrays above `unitDepth`
 * (the value itself is at depth 0) are laid out here, member by member; each
 * value at `unitDepth` is one piece with its key, reused when the same object
 * was written there before.
 */
export function stableJsonPieces(value: unknown, unitDepth: number, cache: JsonPieceCache): Piece[] {
  const out: Piece[] = [];
  writeValue(value, null, 0, unitDepth, out, cache);
  out.push(layout('\n', cache));
  return out;
}

function writeValue(value: unknown, key: string | null, depth: number, unitDepth: number, out: Piece[], cache: JsonPieceCache): void {
  if (depth < unitDepth && value !== null && typeof value === 'object') writeContainer(value, key, depth, unitDepth, out, cache);
  else out.push(unit(value, key, depth, cache));
}

/** As JSON.stringify with an indentation of 2 lays it out, at `depth`. */
function writeContainer(value: object, key: string | null, depth: number, unitDepth: number, out: Piece[], cache: JsonPieceCache): void {
  const array = Array.isArray(value) ? (value as unknown[]) : null;
  const keys = array ? null : stableKeys(value);
  const count = array ? array.length : keys!.length;
  const [open, close] = array ? ['[', ']'] : ['{', '}'];
  const prefix = key === null ? '' : `${JSON.stringify(key)}: `;
  if (count === 0) {
    out.push(new Piece(`${prefix}${open}${close}`));
    return;
  }
  const separator = layout(`,${newline(depth + 1)}`, cache);
  out.push(new Piece(prefix + open), layout(newline(depth + 1), cache));
  if (depth + 1 < unitDepth) {
    for (let i = 0; i < count; i++) {
      if (i > 0) out.push(separator);
      writeValue(array ? array[i] : (value as Record<string, unknown>)[keys![i]!], array ? null : keys![i]!, depth + 1, unitDepth, out, cache);
    }
  } else {
    for (const [i, run] of memberRuns(value, array, keys, depth, separator, cache).entries()) {
      if (i > 0) out.push(separator);
      out.push(run.piece);
    }
  }
  out.push(layout(newline(depth) + close, cache));
}

/** Members `from` to `to` (exclusive) and the separators between them, as one piece. */
interface Run {
  from: number;
  to: number;
  piece: Piece;
}

/** The members of a container at `depth` in runs (see `CHUNK`), `separator` between them, reusing the runs of the last write of the same keys. */
function memberRuns(value: object, array: unknown[] | null, keys: readonly string[] | null, depth: number, separator: Piece, cache: JsonPieceCache): Run[] {
  const values = array ?? keys!.map((key) => (value as Record<string, unknown>)[key]);
  const last = keys ? cache.lastRuns.get(keys) : undefined;
  const runs: Run[] = [];
  let run: Piece[] = [];
  let from = 0;
  const flush = (to: number) => {
    if (run.length > 0) runs.push({ from, to, piece: chunk(run, cache) });
    run = [];
    from = to;
  };
  let i = 0;
  while (i < values.length) {
    const reusable = last?.depth === depth ? reusableRun(last, values, i) : undefined;
    if (reusable) {
      flush(i);
      runs.push(reusable);
      i = from = reusable.to;
      continue;
    }
    const piece = unit(values[i], array ? null : keys![i]!, depth + 1, cache);
    if (piece.text.length > LARGE) {
      // Alone: rebuilding a run of large members for a change to one would cost more than the pieces save.
      flush(i);
      runs.push({ from: i, to: i + 1, piece });
      from = i + 1;
    } else {
      if (run.length > 0) run.push(separator);
      run.push(piece);
      if (run.length === 2 * CHUNK - 1) flush(i + 1);
    }
    i++;
  }
  flush(values.length);
  if (keys) cache.lastRuns.set(keys, { depth, values, runs });
  return runs;
}

/** The run of the last write starting at member `i`, when all its members are the same values. */
function reusableRun(last: { values: unknown[]; runs: Run[] }, values: readonly unknown[], i: number): Run | undefined {
  const run = runStartingAt(last.runs, i);
  if (!run || run.to > values.length) return undefined;
  for (let j = run.from; j < run.to; j++) if (values[j] !== last.values[j]) return undefined;
  return run;
}

function runStartingAt(runs: readonly Run[], i: number): Run | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const from = runs[mid]!.from;
    if (from === i) return runs[mid];
    if (from < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * Small members are written in runs of up to 64, each run one piece: a
 * manifest of a large project has tens of thousands of members (one per
 * source), and one piece each would make every rebuild handle (join, escape,
 * encode, write) tens of thousands of pieces. A member larger than `LARGE`
 * characters (a profile, say) is a piece of its own.
 */
const CHUNK = 64;
const LARGE = 2048;

function chunk(run: readonly Piece[], cache: JsonPieceCache): Piece {
  const known = cache.chunks.get(run[0]!);
  if (known && sameItems(known.run, run)) return known.piece;
  const piece = new Piece(run.map((p) => p.text).join(''));
  cache.chunks.set(run[0]!, { run, piece });
  return piece;
}

function unit(value: unknown, key: string | null, depth: number, cache: JsonPieceCache): Piece {
  if (value === null || typeof value !== 'object') return new Piece(memberText(value, key, depth));
  const known = cache.units.get(value);
  if (known?.key === key && known.depth === depth) return known.piece;
  const piece = new Piece(memberText(value, key, depth));
  cache.units.set(value, { key, depth, piece });
  return piece;
}

/** `"key": value`, the value's lines indented for `depth`; in an array (no key) a value JSON leaves out is `null`. */
function memberText(value: unknown, key: string | null, depth: number): string {
  const json = isWritten(value) ? stableStringify(value).slice(0, -1) : 'null';
  // JSON escapes line breaks inside strings, so every one left is layout.
  const indented = depth === 0 ? json : json.replaceAll('\n', newline(depth));
  return key === null ? indented : `${JSON.stringify(key)}: ${indented}`;
}

function newline(depth: number): string {
  return `\n${'  '.repeat(depth)}`;
}

function layout(text: string, cache: JsonPieceCache): Piece {
  let piece = cache.layouts.get(text);
  if (!piece) cache.layouts.set(text, (piece = new Piece(text)));
  return piece;
}
