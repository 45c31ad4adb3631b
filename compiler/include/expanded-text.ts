/**
 * The text an expansion builds (expand.ts): slices of the sources appended
 * in order, with the source map of where each came from, and the text's
 * length, UTF-8 size and the source map's size kept as it grows, so the walk
 * can stop at the limits without building anything larger.
 */
import { lineIndexOf } from '../core/line-index.js';
import type { SourceMapSegment } from '../runtime/manifest.js';
import type { Source } from '../markdown/source.js';

/** A source-map segment that also knows the UTF-16 offset in its file's text where it starts. */
export interface TextSegment extends SourceMapSegment {
  offset: number;
}

/** A file whose body slices are appended. */
export interface SliceSource {
  source: Source;
  /** Every character of the body is ASCII: a slice's UTF-8 length is its length. */
  ascii: boolean;
}

/** A segment's include chain, with what it adds to the map (pretty JSON: each path quoted, indented, on a line). */
export interface Chain {
  files: string[];
  mapBytes: number;
}

export const NO_CHAIN: Chain = { files: [], mapBytes: 0 };

export function chainThrough(parent: Chain, includer: string, file: string): Chain {
  const files = [...(parent.files.length > 0 ? parent.files : [includer]), file];
  return { files, mapBytes: (parent.files.length > 0 ? parent.mapBytes : includer.length + 12) + file.length + 12 };
}

/** The expanded text in slices of the sources, with its source map, its length and its UTF-8 size kept as it grows. */
export class TextBuilder {
  readonly segments: TextSegment[] = [];
  length = 0;
  bytes = 0;
  /** Body offset, in the file of the slice that did it, of the character that last took the size over the limit. */
  crossedAt = 0;
  /** About the size of the source map as pretty JSON, with the positions of removed comments the manifest lists. */
  mapBytes = 0;
  private readonly parts: string[] = [];

  constructor(private readonly limit: number) {}

  copy(node: SliceSource, from: number, to: number, chain: Chain): void {
    if (to <= from) return;
    const text = node.source.body.slice(from, to);
    const bytes = node.ascii ? text.length : Buffer.byteLength(text);
    if (this.append(node, from, text, bytes, chain)) this.crossedAt = from + charsWithin(text, this.limit - (this.bytes - bytes), node.ascii);
  }

  /** Text that is not in the source (a constant's value), mapped to where the source refers to it (`at`, a body offset). */
  insert(node: SliceSource, at: number, text: string, chain: Chain): void {
    if (text !== '' && this.append(node, at, text, Buffer.byteLength(text), chain)) this.crossedAt = at;
  }

  /** Adds `text` with its segment; true when it took the size over the limit. */
  private append(node: SliceSource, at: number, text: string, bytes: number, chain: Chain): boolean {
    const { source } = node;
    const offset = source.bodyOffset + at;
    this.segments.push({ start: this.length, end: this.length + text.length, file: source.rel, line: lineIndexOf(source).lineOf(offset), chain: chain.files, offset });
    // Its keys, braces and numbers (about 100 bytes), its file, its chain.
    this.mapBytes += 100 + source.rel.length + chain.mapBytes;
    this.parts.push(text);
    this.length += text.length;
    const before = this.bytes;
    this.bytes += bytes;
    return before <= this.limit && this.bytes > this.limit;
  }

  /**
   * A comment removed from `file`: no text, but a position in the manifest.
   * Counted with the map, so that a comment-only fragment included a million
   * times cannot make a manifest of a hundred megabytes from an empty text.
   */
  noteRemovedComment(file: string): void {
    // Its keys, braces and numbers (about 80 bytes), its file.
    this.mapBytes += 80 + file.length;
  }

  /** Drops the text's last character if it is a newline written since `since`. */
  dropFinalNewline(since: number): void {
    const last = this.parts[this.parts.length - 1];
    if (this.length <= since || last === undefined || !last.endsWith('\n')) return;
    if (last.length === 1) this.parts.pop();
    else this.parts[this.parts.length - 1] = last.slice(0, -1);
    this.length--;
    this.bytes--;
    const segment = this.segments[this.segments.length - 1]!;
    if (segment.end - 1 === segment.start) this.segments.pop();
    else this.segments[this.segments.length - 1] = { ...segment, end: segment.end - 1 };
  }

  text(): string {
    return this.parts.join('');
  }
}

/** How many characters of `text` fit in `bytes` UTF-8 bytes. */
function charsWithin(text: string, bytes: number, ascii: boolean): number {
  if (ascii) return bytes;
  let used = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (used + size > bytes) break;
    used += size;
    i += code >= 0x10000 ? 2 : 1;
  }
  return i;
}
