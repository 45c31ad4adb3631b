/**
 * Where each part of a text node's value was written. A text node's value is
 * not its source: escapes (`\*`) and character references (`&amp;`) are
 * decoded, a block quote's `> ` and a list item's indent are left out. The
 * include directives are found in the source (markdown/scan.ts reads it so),
 * so to cut a text node at a directive the cut must be carried from the
 * source to the value: mdast-util-from-markdown is watched as it appends to
 * text nodes, and each append is recorded with the source it came from.
 */
import type { Nodes, Text } from 'mdast';
import type { CompileContext, Extension as FromMarkdownExtension, Token } from 'mdast-util-from-markdown';

/** One append to a text node's value: the source `[from, to)` gave the value up to `valueEnd`. */
export interface Piece {
  from: number;
  to: number;
  valueEnd: number;
}

/** Each text node's pieces, in order: one map per processor, keyed by nodes no other document holds. */
export type Pieces = WeakMap<Text, Piece[]>;

/** A from-markdown extension that only listens: every token's exit that made a text node's value longer is a piece. */
export function pieceRecorder(pieces: Pieces): FromMarkdownExtension {
  return {
    afterExit(this: CompileContext, token: Token) {
      const top = this.stack[this.stack.length - 1] as Nodes | undefined;
      const tail = top?.type === 'text' ? top : top && 'children' in top ? top.children[top.children.length - 1] : undefined;
      if (tail?.type !== 'text') return;
      let list = pieces.get(tail);
      const before = list?.at(-1)?.valueEnd ?? 0;
      if (tail.value.length <= before) return;
      if (!list) pieces.set(tail, (list = []));
      list.push({ from: token.start.offset, to: token.end.offset, valueEnd: tail.value.length });
    },
  };
}

/**
 * The index in `node.value` of source offset `at` (inside the node's
 * source): where the value stands once everything written before `at` is
 * appended. An offset inside an escape or a reference counts as before it.
 */
export function valueIndex(node: Text, pieces: readonly Piece[] | undefined, at: number): number {
  if (!pieces) return Math.min(node.value.length, at - node.position!.start.offset!);
  let valueStart = 0;
  for (const piece of pieces) {
    if (at <= piece.from) return valueStart;
    if (at < piece.to) {
      const verbatim = piece.to - piece.from === piece.valueEnd - valueStart;
      return verbatim ? valueStart + (at - piece.from) : valueStart;
    }
    valueStart = piece.valueEnd;
  }
  return node.value.length;
}
