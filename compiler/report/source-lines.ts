/**
 * Which source file and line every line of an emitted text comes from, read
 * off its source map (byte ranges → file, line, include chain). A text
 * without a map is one piece of its source, starting at the entry's line.
 * Lines are grouped in runs: consecutive lines from the same map segment.
 */
import type { SourceMapSegment } from '../runtime/manifest.js';

export interface LineRun {
  file: string;
  /** Include chain from the entry's own source down to `file`; empty for the source itself. */
  chain: string[];
  /** Source line of the run's first line. */
  firstLine: number;
  lines: string[];
}

/** Segments for a text that has no map: all of it from `file`, from `line` on. */
export function wholeText(file: string, line: number, bytes: number): SourceMapSegment[] {
  return [{ start: 0, end: bytes, file, line, chain: [] }];
}

/**
 * A line belongs to the segment holding its first byte; a segment that
 * starts mid-line (an inline include) claims the lines after it.
 */
export function lineRuns(text: string, segments: readonly SourceMapSegment[]): LineRun[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const runs: LineRun[] = [];
  let offset = 0;
  let index = 0;
  /** Line (index in `lines`) holding the first byte of segment `index`. */
  let segmentStartLine = 0;
  let runSegment = -1;
  for (const [i, line] of lines.entries()) {
    while (index < segments.length - 1 && segments[index]!.end <= offset) {
      index++;
      segmentStartLine = lineOfOffset(lines, segments[index]!.start, i, offset);
    }
    const segment = segments[index];
    if (!segment) break;
    if (runSegment !== index) {
      runs.push({ file: segment.file, chain: segment.chain, firstLine: segment.line + (i - segmentStartLine), lines: [] });
      runSegment = index;
    }
    runs.at(-1)!.lines.push(line);
    offset += Buffer.byteLength(line) + 1;
  }
  return runs;
}

/** Index of the line holding byte `target`, searching back from line `i` (which starts at byte `offset`). */
function lineOfOffset(lines: readonly string[], target: number, i: number, offset: number): number {
  let line = i;
  let start = offset;
  while (line > 0 && start > target) {
    line--;
    start -= Buffer.byteLength(lines[line]!) + 1;
  }
  return line;
}
