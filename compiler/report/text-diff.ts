/**
 * Line diffs of two texts (the `diff` library's Myers diff), as hunks for
 * the HTML report and as unified-diff text for `diff` and Markdown.
 */
import { structuredPatch } from 'diff';

export type DiffLineKind = 'add' | 'del' | 'ctx';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

export interface Hunk {
  /** `@@ -1,3 +1,4 @@` */
  header: string;
  lines: DiffLine[];
}

const KINDS: Record<string, DiffLineKind> = { '+': 'add', '-': 'del', ' ': 'ctx' };

export function diffHunks(oldText: string, newText: string, context = 3): Hunk[] {
  const patch = structuredPatch('old', 'new', oldText, newText, undefined, undefined, { context });
  return patch.hunks.map((h) => ({
    header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    // "\ No newline at end of file" notes say nothing a prompt reader needs.
    lines: h.lines.filter((l) => KINDS[l[0]!] !== undefined).map((l) => ({ kind: KINDS[l[0]!]!, text: l.slice(1) })),
  }));
}

/** `--- old/<name>` / `+++ new/<name>` and the hunks, one string, newline-terminated. */
export function unifiedDiff(oldName: string, newName: string, hunks: readonly Hunk[]): string {
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  for (const hunk of hunks) out.push(hunk.header, ...hunk.lines.map(formatLine));
  return `${out.join('\n')}\n`;
}

export function formatLine(line: DiffLine): string {
  return `${line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' '}${line.text}`;
}
