/**
 * Is a file's content text we may compile? UTF-8 only: invalid bytes would
 * turn into U+FFFD in the compiled text (and the static prefix) without a
 * word, a UTF-16 file decodes to NULs and mojibake, and a NUL is never text.
 *
 * The check that runs for every file is two linear scans in native code
 * (`isUtf8`, `indexOf(0)`); positions are computed only for a file that fails.
 */
import { isUtf8 } from 'node:buffer';

/** Where a problem is, in the normalised text (BOM removed, CRLF → LF) as every other diagnostic counts. */
export interface TextPosition {
  line: number;
  /** 1-based, in UTF-16 code units like `positionAt`. */
  column: number;
  /** That line, lossily decoded, the bad byte shown as U+FFFD (a NUL as ␀). */
  excerpt: string;
}

export type TextProblem =
  /** A NUL in the first 8 KiB: a binary file, refused as a whole (docs/authoring.md#text-files-only). */
  | { kind: 'binary' }
  /** A NUL further on, in what otherwise reads as text. */
  | { kind: 'nul'; at: TextPosition }
  | { kind: 'utf-16' }
  | { kind: 'invalid-utf8'; byte: number; at: TextPosition };

const BINARY_WINDOW = 8192;

export function textProblem(bytes: Uint8Array): TextProblem | null {
  if (hasUtf16Bom(bytes)) return { kind: 'utf-16' };
  const nul = bytes.indexOf(0);
  const valid = isUtf8(bytes);
  if (nul === -1 && valid) return null;
  if (looksUtf16(bytes)) return { kind: 'utf-16' };
  if (nul !== -1 && nul < BINARY_WINDOW) return { kind: 'binary' };
  const invalid = valid ? -1 : firstInvalidUtf8(bytes);
  if (nul !== -1 && (invalid === -1 || nul < invalid)) return { kind: 'nul', at: positionOfByte(bytes, nul) };
  return { kind: 'invalid-utf8', byte: bytes[invalid]!, at: positionOfByte(bytes, invalid) };
}

/** The problem as the end of a sentence whose subject is the file ("source …", "'./a.md' …"). */
export function describeTextProblem(problem: TextProblem): string {
  switch (problem.kind) {
    case 'binary':
      return 'is not a text file (NUL byte in its first 8 KiB)';
    case 'nul':
      return `holds a NUL byte at line ${problem.at.line}, column ${problem.at.column}: it is not a text file`;
    case 'utf-16':
      return 'is UTF-16: save it as UTF-8';
    case 'invalid-utf8': {
      const byte = problem.byte.toString(16).toUpperCase().padStart(2, '0');
      return `is not valid UTF-8 (byte 0x${byte} at line ${problem.at.line}, column ${problem.at.column}): save it as UTF-8`;
    }
  }
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/**
 * UTF-16 without a BOM: text in a Latin script has a NUL in every other
 * byte, on one side only. Judged on the first 4 KiB.
 */
function looksUtf16(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 4096) & ~1;
  if (end === 0) return false;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < end; i += 2) {
    if (bytes[i] === 0) evenNuls++;
    if (bytes[i + 1] === 0) oddNuls++;
  }
  const pairs = end / 2;
  const [many, few] = evenNuls > oddNuls ? [evenNuls, oddNuls] : [oddNuls, evenNuls];
  return many >= pairs / 2 && few <= pairs / 20;
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode Table 3-7), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    // The second byte's range is narrower after a few leads: no overlong forms, no surrogates, nothing above U+10FFFF.
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

/** The position of byte `offset`, every byte before it being valid, NUL-free UTF-8. */
function positionOfByte(bytes: Uint8Array, offset: number): TextPosition {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let before = buffer.toString('utf8', 0, offset);
  if (before.charCodeAt(0) === 0xfeff) before = before.slice(1);
  before = before.replace(/\r\n?/g, '\n');
  const lineStart = before.lastIndexOf('\n') + 1;
  let lineEnd = offset;
  while (lineEnd < bytes.length && bytes[lineEnd] !== 0x0a && bytes[lineEnd] !== 0x0d) lineEnd++;
  const rest = buffer.toString('utf8', offset + 1, lineEnd).replaceAll('\0', '\u2400');
  const shown = bytes[offset] === 0 ? '\u2400' : '\ufffd';
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
  return { line, column: before.length - lineStart + 1, excerpt: before.slice(lineStart) + shown + rest };
}
