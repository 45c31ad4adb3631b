/**
 * `diff` for a terminal: what changed, loudest first (static prefix hashes),
 * then per changed section and agent a unified diff of its text — a dynamic
 * section's by its template — with the static/dynamic side it is on.
 *
 * Every name and text line from the bundles goes through `show`: by default
 * made visible as diagnostics are (a `\r\e[K` in a line would otherwise
 * erase it from the reviewer's terminal); `--raw` prints them exactly.
 */
import type pc from 'picocolors';

type Colors = ReturnType<typeof pc.createColors>;
import { isEmptyDiff, type BundleDiff, type ProfileChange, type SectionChange } from '../../bundle/bundle-diff.js';
import type { TextChange, TextChanges } from '../../report/text-changes.js';
import { formatLine, type Hunk } from '../../report/text-diff.js';
import { short, size } from './markdown.js';

type Show = (text: string) => string;

export function diffText(diff: BundleDiff, text: TextChanges, labels: { old: string; new: string }, c: Colors, show: Show = (s) => s): string {
  const out = [c.bold(`prompt-build diff ${show(labels.old)} → ${show(labels.new)}`)];
  const busts = diff.profiles.filter((p) => p.cacheBust).map((p) => show(p.name));
  out.push(
    busts.length > 0
      ? c.red(c.bold(`⚠ static prefix changed — global prompt-cache bust: ${busts.join(', ')}`))
      : c.green('static prefixes unchanged — the global prompt cache keeps hitting'),
  );
  if (isEmptyDiff(diff)) return [...out, 'No changes: both bundles hold the same prompts.'].join('\n');
  out.push('');
  const unchanged = diff.profiles.filter((p) => p.status === 'unchanged').map((p) => show(p.name));
  for (const p of diff.profiles.filter((p) => p.status !== 'unchanged')) out.push(profileLine(p, c, show));
  if (unchanged.length > 0) out.push(c.dim(`unchanged profiles: ${unchanged.join(', ')}`));
  for (const s of text.sections) out.push('', c.bold(`section ${show(s.change.name)}: ${show(sectionNote(s.change))}`), ...hunks(s, c, show));
  for (const a of text.agents) out.push('', c.bold(show(`agent ${a.change.name}: ${a.change.status}${a.change.fields.length > 0 ? ` (${a.change.fields.join(', ')})` : ''}`)), ...hunks(a, c, show));
  const otherAgents = diff.agents.filter((a) => !text.agents.some((t) => t.change === a));
  for (const a of otherAgents) out.push('', c.bold(show(`agent ${a.name}: ${a.status} (${a.fields.join(', ')})`)));
  return out.join('\n');
}

function profileLine(p: ProfileChange, c: Colors, show: Show): string {
  if (p.status !== 'changed') return `profile ${show(p.name)}: ${p.status}`;
  const parts = [`profile ${show(p.name)}: changed`];
  parts.push(p.cacheBust ? c.red(`⚠ static prefix ${short(p.staticPrefixHash.old)} → ${short(p.staticPrefixHash.new)}`) : `static prefix unchanged ${short(p.staticPrefixHash.new)}`);
  parts.push(`static tokens ${size(p.staticTokens)}`);
  if (p.boundaryIndex.old !== p.boundaryIndex.new) parts.push(`boundary ${p.boundaryIndex.old} → ${p.boundaryIndex.new}`);
  const sections = [...p.sectionsAdded.map((s) => `+${show(s)}`), ...p.sectionsRemoved.map((s) => `−${show(s)}`)];
  if (sections.length > 0) parts.push(`sections ${sections.join(' ')}`);
  return parts.join(' · ');
}

function sectionNote(s: SectionChange): string {
  if (s.moved) return `moved ${s.kind.old} → ${s.kind.new}, across the boundary`;
  const kind = s.kind.new ?? s.kind.old;
  const where = kind === 'static' ? 'static, before the boundary' : `dynamic (${s.cache.new ?? s.cache.old}), after the boundary`;
  const cache = s.status === 'changed' && s.cache.old !== s.cache.new ? ` · ${s.cache.old} → ${s.cache.new}` : '';
  return `${s.status} · ${where}${cache} · bytes ${size(s.bytes)}`;
}

function hunks(change: TextChange<{ name: string }>, c: Colors, show: Show): string[] {
  if (change.hunks.length === 0) return [c.dim('  (text unchanged)')];
  return [c.red(`--- old/${show(change.change.name)}`), c.green(`+++ new/${show(change.change.name)}`), ...change.hunks.flatMap((h) => hunkLines(h, c, show))];
}

function hunkLines(hunk: Hunk, c: Colors, show: Show): string[] {
  const line = (l: Hunk['lines'][number]) => show(formatLine(l));
  return [c.cyan(hunk.header), ...hunk.lines.map((l) => (l.kind === 'add' ? c.green(line(l)) : l.kind === 'del' ? c.red(line(l)) : line(l)))];
}
