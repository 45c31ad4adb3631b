/**
 * `render --show-stripped`: which parts of an assembled prompt lost HTML
 * comments to the comment policy, and where (docs/authoring.md#comments: no silent text loss).
 *
 * A part is known by its text, as `render` labels parts: a candidate (a
 * static section, a dynamic section's output, an agent prompt) claims every
 * part equal to its text. Texts that lost nothing are candidates too, so
 * that where a claim could be wrong no position is given: two candidates
 * with one text but different removals say only that, and a bundle built
 * before positions were recorded says only what was removed.
 */
import type { StrippedComment, StrippedComments } from '../runtime/manifest.js';

/** What was removed from one part. */
export type PartStripped =
  /** From the part's own text: offsets are UTF-8 bytes into the part as printed. */
  | { in: 'text'; at: StrippedComment[] }
  /** From a dynamic section's template, before it rendered: offsets are UTF-8 bytes into `template` (a bundle file), not into the part. */
  | { in: 'template'; template: string; at: StrippedComment[] }
  /** Removed, but the bundle was built before positions were recorded. */
  | { in: 'unrecorded'; comments: number; bytes: number }
  /** Two candidates with different removals have this text: which one it is, and so where, is not known. */
  | { in: 'ambiguous' };

/** A text the prompt may hold, and what was removed from it (`stripped` absent: nothing). */
export type StrippedCandidate =
  /**
   * A text the runtime prints as it is emitted, trailing newlines trimmed;
   * `prefix`, when given, is printed before it in the same part (the heading
   * a proactive agent's prompt goes under).
   */
  | { kind: 'text'; text: string; prefix?: string; stripped?: StrippedComments | undefined }
  /** A dynamic section's output (trailing newlines trimmed), its comments removed from `template`. */
  | { kind: 'template'; text: string; template: string; stripped?: StrippedComments | undefined };

/** One entry per part of `system`: what was removed from it, or null when nothing was (or it is no candidate's). */
export function strippedParts(system: readonly string[], candidates: readonly StrippedCandidate[]): Array<PartStripped | null> {
  const byText = new Map<string, PartStripped | null>();
  for (const candidate of candidates) {
    const text = candidate.kind === 'text' && candidate.prefix !== undefined ? candidate.prefix + candidate.text : candidate.text;
    const found = located(candidate);
    const known = byText.get(text);
    if (known === undefined) byText.set(text, found);
    // Also when one of them lost nothing: the other's positions may not be this part's.
    else if (JSON.stringify(known) !== JSON.stringify(found)) byText.set(text, { in: 'ambiguous' });
  }
  return system.map((part) => byText.get(part) ?? null);
}

function located(candidate: StrippedCandidate): PartStripped | null {
  if (candidate.stripped === undefined) return null;
  const { comments, bytes, at } = candidate.stripped;
  if (at === undefined) return { in: 'unrecorded', comments, bytes };
  if (candidate.kind === 'template') return { in: 'template', template: candidate.template, at };
  // The runtime trims the text's final newlines: a comment removed among them is at the end of what is printed.
  const end = Buffer.byteLength(candidate.text);
  const shift = candidate.prefix === undefined ? 0 : Buffer.byteLength(candidate.prefix);
  return { in: 'text', at: at.map((c) => ({ ...c, offset: shift + Math.min(c.offset, end) })) };
}
