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

/**
 * Edits past which no shortest diff is searched for: Myers' work grows with
 * the edit distance times the texts' length (8,000 lines all changed: 14 s,
 * and a section may hold 50,000). Past it the old text is shown removed and
 * the new one added, a diff still, decided by the texts alone (a timeout would
 * make the output depend on the machine).
 */
export const MAX_EDIT_LENGTH = 1000;

export function diffHunks(oldText: string, newText: string, context = 3): Hunk[] {
  const patch = structuredPatch('old', 'new', oldText, newText, undefined, undefined, { context, maxEditLength: MAX_EDIT_LENGTH });
  if (patch === undefined) return [wholeReplacement(oldText, newText)];
  return patch.hunks.map((h) => ({
    header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    // "\ No newline at end of file" notes say nothing a prompt reader needs.
    lines: h.lines.filter((l) => KINDS[l[0]!] !== undefined).map((l) => ({ kind: KINDS[l[0]!]!, text: l.slice(1) })),
  }));
}

function wholeReplacement(oldText: string, newText: string): Hunk {
  const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const removed = lines(oldText);
  const added = lines(newText);
  const range = (n: number) => (n === 0 ? '0,0' : `1,${n}`);
  return {
    header: `@@ -${range(removed.length)} +${range(added.length)} @@`,
    lines: [...removed.map((text) => ({ kind: 'del' as const, text })), ...added.map((text) => ({ kind: 'add' as const, text }))],
  };
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
