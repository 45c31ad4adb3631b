/**
 * `stableStringify` for data that is built again with most of its objects
 * unchanged: the manifest, on every watch-mode rebuild. Its entries are the
 * same objects from one build to the next when their output did not change
 * (emit.ts, compiler.ts), so the text of each is kept with the object and only
 * what changed is serialised again. The text comes in pieces (pieces.ts), so
 * that writing it, and escaping it into `bundle.mjs`, reuse work as well.
 */
import { isWritten, stableKeys, stableStringify } from './hash.js';
import { Piece, sameItems } from './pieces.js';

/**
 * The piece of an object written at a depth under a key, for as long as it
 * keeps both. An object must not change once serialised: the compiler
 * replaces what it rebuilds, it never mutates it.
 */
const units = new WeakMap<object, { key: string | null; depth: number; piece: Piece }>();

/**
 * `stableStringify(value)` as pieces. Objects and arrays above `unitDepth`
 * (the value itself is at depth 0) are laid out here, member by member; each
 * value at `unitDepth` is one piece with its key, reused when the same object
 * was written there before.
 */
export function stableJsonPieces(value: unknown, unitDepth: number): Piece[] {
  const out: Piece[] = [];
  writeValue(value, null, 0, unitDepth, out);
  out.push(layout('\n'));
  return out;
}

function writeValue(value: unknown, key: string | null, depth: number, unitDepth: number, out: Piece[]): void {
  if (depth < unitDepth && value !== null && typeof value === 'object') writeContainer(value, key, depth, unitDepth, out);
  else out.push(unit(value, key, depth));
}

/** As JSON.stringify with an indentation of 2 lays it out, at `depth`. */
function writeContainer(value: object, key: string | null, depth: number, unitDepth: number, out: Piece[]): void {
  const array = Array.isArray(value) ? (value as unknown[]) : null;
  const keys = array ? null : stableKeys(value);
  const count = array ? array.length : keys!.length;
  const [open, close] = array ? ['[', ']'] : ['{', '}'];
  const prefix = key === null ? '' : `${JSON.stringify(key)}: `;
  if (count === 0) {
    out.push(new Piece(`${prefix}${open}${close}`));
    return;
  }
  const separator = layout(`,${newline(depth + 1)}`);
  out.push(new Piece(prefix + open), layout(newline(depth + 1)));
  const member = (i: number) => (array ? array[i] : (value as Record<string, unknown>)[keys![i]!]);
  if (depth + 1 < unitDepth) {
    for (let i = 0; i < count; i++) {
      if (i > 0) out.push(separator);
      writeValue(member(i), array ? null : keys![i]!, depth + 1, unitDepth, out);
    }
  } else {
    let run: Piece[] = [];
    const flush = () => {
      if (run.length > 0) out.push(chunk(run));
      run = [];
    };
    for (let i = 0; i < count; i++) {
      if (i > 0) (run.length > 0 ? run : out).push(separator);
      const piece = unit(member(i), array ? null : keys![i]!, depth + 1);
      if (piece.text.length > LARGE) {
        // Alone: rebuilding a run of large members for a change to one would cost more than the pieces save.
        flush();
        out.push(piece);
      } else {
        run.push(piece);
        if (run.length === 2 * CHUNK - 1) flush();
      }
    }
    flush();
  }
  out.push(layout(newline(depth) + close));
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

/** A run (members and the separators between them) as one piece, kept with its first member while the run is the same pieces. */
const chunks = new WeakMap<Piece, { run: readonly Piece[]; piece: Piece }>();

function chunk(run: readonly Piece[]): Piece {
  const known = chunks.get(run[0]!);
  if (known && sameItems(known.run, run)) return known.piece;
  const piece = new Piece(run.map((p) => p.text).join(''));
  chunks.set(run[0]!, { run, piece });
  return piece;
}

function unit(value: unknown, key: string | null, depth: number): Piece {
  if (value === null || typeof value !== 'object') return new Piece(memberText(value, key, depth));
  const known = units.get(value);
  if (known?.key === key && known.depth === depth) return known.piece;
  const piece = new Piece(memberText(value, key, depth));
  units.set(value, { key, depth, piece });
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

/** Punctuation and indentation: a few distinct pieces, shared by every build. */
const layouts = new Map<string, Piece>();

function layout(text: string): Piece {
  let piece = layouts.get(text);
  if (!piece) layouts.set(text, (piece = new Piece(text)));
  return piece;
}
