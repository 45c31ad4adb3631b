/**
 * One emitted text's artifacts and sizes: the content-addressed file, its
 * source map when it is more than one piece of its source, its byte and
 * token counts, and what the comment policy took out.
 */
import type { CompiledText } from '../definitions/compile-text.js';
import type { SectionEntry, SourceMap, StrippedComments, TokenCount } from '../runtime/manifest.js';
import type { TokenCounting } from '../tokens/token-counters.js';
import { sha256, shortHash, stableStringify } from '../core/hash.js';

/**
 * What the comment policy removed, when it removed anything: counted by
 * `inspect`, marked where it was by `render --show-stripped`. Positions are
 * UTF-8 byte offsets, as in the source map.
 */
export function strippedComments({ text, stripped }: CompiledText): { stripped?: StrippedComments } {
  if (stripped.comments === 0) return {};
  let bytes = 0;
  let chars = 0;
  const at = stripped.removed.map(({ at: offset, file, line, bytes: removed }) => {
    bytes += Buffer.byteLength(text.slice(chars, offset));
    chars = offset;
    return { offset: bytes, file, line, bytes: removed };
  });
  return { stripped: { comments: stripped.comments, bytes: stripped.bytes, ...(at.length > 0 ? { at } : {}) } };
}

/** `<dir>/<name>.<hash8><ext>`: unchanged content never changes a file name. */
export function addArtifact(files: Map<string, string>, dir: string, name: string, ext: string, content: string) {
  const hash = sha256(content);
  const file = `${dir}/${name}.${shortHash(hash)}${ext}`;
  files.set(file, content);
  return { file, hash };
}

/**
 * Where the text starts in its source, and a source map when it is more than
 * one piece of it (includes, removed comments). Most texts are one piece: no
 * map file for those, which halves the files of a large bundle. Maps name
 * themselves by their own content, like every other artifact.
 */
export function sourceMap(files: Map<string, string>, output: string, compiled: CompiledText): { line: number; map?: string; mapHash?: string } {
  const [first] = compiled.segments;
  const line = first?.line ?? 1;
  if (!first || (compiled.segments.length === 1 && first.chain.length === 0)) return { line };
  const map: SourceMap = { output, segments: byteSegments(compiled) };
  const name = output.replace(/^[a-z]+\//, '').replace(/\.[^.]+\.[a-z]+$/, '');
  const kind = output.slice(0, output.indexOf('/'));
  // Hashed like every text, so a reader checks the map before using it.
  const { file, hash } = addArtifact(files, `maps/${kind}`, name, '.json', stableStringify(map));
  return { line, map: file, mapHash: hash };
}

/** The compiler works in UTF-16 offsets; the map promises UTF-8 byte offsets. */
function byteSegments(compiled: CompiledText): SourceMap['segments'] {
  let bytes = 0;
  let chars = 0;
  return compiled.segments.map(({ start, end, file, line, chain }) => {
    bytes += Buffer.byteLength(compiled.text.slice(chars, start));
    const byteStart = bytes;
    bytes += Buffer.byteLength(compiled.text.slice(start, end));
    chars = end;
    return { start: byteStart, end: bytes, file, line, chain };
  });
}

export function textSize(text: string, tokens: TokenCounting): { bytes: number; tokens: number; tokenCounts: Record<string, TokenCount> } {
  return { bytes: Buffer.byteLength(text), ...tokens.countAll(text) };
}

/** Per counter, the sum of the parts' counts: exact only when every part was counted exactly. */
export function sumCounts(sections: readonly SectionEntry[]): Record<string, TokenCount> {
  const sums: Record<string, TokenCount> = {};
  for (const section of sections) {
    for (const [name, { tokens, method }] of Object.entries(section.tokenCounts ?? {})) {
      const sum = (sums[name] ??= { tokens: 0, method: 'exact' });
      sum.tokens += tokens;
      if (method === 'estimate') sum.method = 'estimate';
    }
  }
  return sums;
}
