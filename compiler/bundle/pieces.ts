/**
 * Generated files in pieces. `manifest.json` and `bundle.mjs` are rewritten
 * whole on every watch-mode rebuild, yet nearly all of their text is what it
 * was the last time, and held in the same pieces: the serialisers keep them
 * with the unchanged objects they come from — runs of manifest members,
 * profiles' blocks of texts (stable-json.ts, bundle-module.ts).
 * A piece encodes itself to UTF-8, and escapes itself for a JSON string, once,
 * so a rebuild pays for the pieces that changed, not for the size of the file.
 */
export class Piece {
  private utf8: Buffer | undefined;
  private inString: Piece | undefined;

  constructor(readonly text: string) {}

  /** The UTF-8 bytes, encoded on first use. */
  get bytes(): Buffer {
    return (this.utf8 ??= Buffer.from(this.text));
  }

  /**
   * The text as it reads inside a JSON string literal, quotes left out.
   * Escaping goes character by character, so the escaped pieces of a text are
   * the pieces of the escaped text — as long as no piece ends inside a
   * surrogate pair, which pieces cut at JSON punctuation never do.
   */
  get escaped(): Piece {
    return (this.inString ??= new Piece(JSON.stringify(this.text).slice(1, -1)));
  }
}

/**
 * The text of `pieces`. Concatenation, not `join`: V8 links the strings into
 * a rope instead of copying them, and the text of a large generated file is
 * seldom read (`writeBundle` writes the pieces' bytes).
 */
export function joinPieces(pieces: readonly Piece[]): string {
  let text = '';
  for (const piece of pieces) text += piece.text;
  return text;
}

/**
 * A bundle's files, bundle-relative path → content, that also knows the
 * pieces of the files generated from pieces, for `writeBundle`.
 */
export class BundleFiles extends Map<string, string> {
  readonly #generated = new Map<string, { text: string; pieces: readonly Piece[] }>();

  setPieces(rel: string, pieces: readonly Piece[]): this {
    const text = joinPieces(pieces);
    this.#generated.set(rel, { text, pieces });
    return this.set(rel, text);
  }

  /** The pieces of `rel`, unless its content was set otherwise since. */
  pieces(rel: string): readonly Piece[] | undefined {
    const generated = this.#generated.get(rel);
    return generated !== undefined && this.get(rel) === generated.text ? generated.pieces : undefined;
  }
}

/** Whether two lists hold the same items, by identity: how a cache of pieces tells it can serve again. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
