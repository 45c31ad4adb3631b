/**
 * What a `watch` line starts with: the local time, so a scrolled-back
 * terminal tells when each rebuild happened; and before a rebuild's status,
 * the file (or files) whose change triggered it.
 */
import path from 'node:path';
import type { FileChange } from '../pipeline/compiler.js';
import { terminalSafe } from '../diagnostics/terminal-safe.js';

/** Files named before the rest is counted. */
const MAX_NAMES = 3;

const VERBS: Record<FileChange['kind'], string> = { add: 'added', change: 'changed', unlink: 'deleted' };

/** `14:03:27`: local time, 24-hour. */
export function clock(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** `prompts/sections/rules.md changed`, or `3 files changed: a.md (added), b.md, c.md`; null when there were no changes. */
export function triggerLine(changes: readonly FileChange[], root: string): string | null {
  const last = new Map<string, FileChange['kind']>();
  for (const change of changes) last.set(change.path, change.kind);
  if (last.size === 0) return null;
  // A file name may hold what a terminal acts on: shown escaped, as diagnostics show it.
  const named = [...last].map(([file, kind]) => ({ name: terminalSafe(path.relative(root, file).split(path.sep).join('/') || file), kind }));
  if (named.length === 1) return `${named[0]!.name} ${VERBS[named[0]!.kind]}`;
  const shown = named.slice(0, MAX_NAMES).map((n) => (n.kind === 'change' ? n.name : `${n.name} (${VERBS[n.kind]})`));
  const more = named.length > MAX_NAMES ? ` … +${named.length - MAX_NAMES} more` : '';
  return `${named.length} files changed: ${shown.join(', ')}${more}`;
}

