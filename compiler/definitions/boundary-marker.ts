/**
 * The runtime places `SYSTEM_PROMPT_DYNAMIC_BOUNDARY` between the static
 * prefix and the dynamic tail, and finds it again by its value: a section
 * whose text is the marker is dropped, and every static section after it
 * leaves the globally cached block; a text that merely contains it splits
 * wrong for any reader that splits on it. So no compiled text may hold it.
 */
import { diagnostic, positionAt, type Diagnostic, type RuleId } from '../diagnostics/diagnostics.js';
import type { TextSegment } from '../include/expand.js';
import { SYSTEM_PROMPT_DYNAMIC_BOUNDARY } from '../runtime/system-prompt.js';
import type { Source } from '../markdown/source.js';

const MARKER = SYSTEM_PROMPT_DYNAMIC_BOUNDARY;

/** Each place the marker appears in a compiled text, positioned in the file it was written in (through includes). */
export function boundaryMarkerDiagnostics(
  rule: Extract<RuleId, `${string}/boundary-marker`>,
  compiled: { text: string; segments: readonly TextSegment[] },
  lookup: (rel: string) => Pick<Source, 'text'> | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { text } = compiled;
  for (let offset = text.indexOf(MARKER); offset !== -1; offset = text.indexOf(MARKER, offset + MARKER.length)) {
    const segment = compiled.segments.find((s) => offset >= s.start && offset < s.end);
    if (!segment) continue; // every character of a compiled text comes from a segment
    const at = positionAt(lookup(segment.file)?.text ?? '', segment.offset + (offset - segment.start));
    const route = segment.chain.length > 0 ? ` (reached through ${segment.chain.join(' → ')})` : '';
    out.push(
      diagnostic(rule, segment.file, at, `'${MARKER}' is the runtime's dynamic boundary marker: no prompt text may hold it`, {
        note: `the runtime finds the boundary by this value: a static section holding it would be dropped and the static sections after it would leave the global cache${route}; reword it`,
      }),
    );
  }
  return out;
}
