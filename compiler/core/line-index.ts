/**
 * Positions of many offsets in one text. `positionAt` counts lines from the
 * start of the text, which is fine once; a text that yields a diagnostic or
 * a source-map segment per include (120,000 of them in 1 MiB) needs its line
 * starts found once and each offset looked up by binary search.
 */
import type { Position } from '../diagnostics/diagnostics.js';

export class LineIndex {
  /** Offsets where lines start, ascending; the first is 0. */
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** The 1-based line of a UTF-16 offset. */
  lineOf(offset: number): number {
    const { starts } = this;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Line, column and line text of an offset: what `positionAt` gives, without counting lines. */
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(clamped);
    const lineStart = this.starts[line - 1]!;
    const next = this.starts[line];
    const lineEnd = next === undefined ? this.text.length : next - 1;
    return { line, column: clamped - lineStart + 1, excerpt: this.text.slice(lineStart, lineEnd) };
  }

  /** Where a 1-based line starts; the last line's start for a line past the end. */
  startOfLine(line: number): number {
    return this.starts[Math.min(Math.max(line, 1), this.starts.length) - 1]!;
  }
}

/**
 * Where a source carries its line index: a symbol-keyed, non-enumerable
 * property, made the first time it is asked for (sources are immutable, so
 * it never goes stale) — the source's own, not state of this module.
 */
const LINE_INDEX = Symbol('prompt-build.lineIndex');

export function lineIndexOf(source: { readonly text: string }): LineIndex {
  const known = (source as { [LINE_INDEX]?: LineIndex })[LINE_INDEX];
  if (known) return known;
  const index = new LineIndex(source.text);
  if (Object.isExtensible(source)) Object.defineProperty(source, LINE_INDEX, { value: index });
  return index;
}
