/**
 * The one line `watch` prints after a good rebuild: what changed, whether a
 * static prefix (the global prompt-cache key) changed, and how long it took.
 *
 *   rebuilt in 12 ms · sections: rules, env-info (added) · agents: explore · ⚠ cache-bust: default
 */
import { isEmptyDiff, type BundleDiff, type SectionChange, type Status } from '../bundle/bundle-diff.js';

/** Names listed before the rest is counted: one line must stay one line. */
const MAX_NAMES = 8;

export function formatRebuildLine(diff: BundleDiff, ms: number): string {
  const parts = [`rebuilt in ${Math.round(ms)} ms`];
  if (isEmptyDiff(diff)) return [...parts, 'no prompt changed'].join(' · ');
  // A profile is named when it appears, disappears or lists other sections; changes inside its sections are named below.
  const profiles = diff.profiles.filter((p) => p.status !== 'unchanged' && (p.status !== 'changed' || p.sectionsAdded.length + p.sectionsRemoved.length > 0));
  if (profiles.length > 0) parts.push(`profiles: ${names(profiles.map((p) => label(p.name, p.status)))}`);
  if (diff.sections.length > 0) parts.push(`sections: ${names(diff.sections.map(sectionLabel))}`);
  if (diff.agents.length > 0) parts.push(`agents: ${names(diff.agents.map((a) => label(a.name, a.status)))}`);
  const busts = diff.profiles.filter((p) => p.cacheBust).map((p) => p.name);
  parts.push(busts.length > 0 ? `⚠ cache-bust: ${names(busts)}` : 'static prefixes unchanged');
  return parts.join(' · ');
}

function sectionLabel(s: SectionChange): string {
  return s.moved ? `${s.name} (${s.kind.old} → ${s.kind.new})` : label(s.name, s.status);
}

function label(name: string, status: Status | 'unchanged'): string {
  return status === 'changed' ? name : `${name} (${status})`;
}

function names(list: string[]): string {
  const shown = list.slice(0, MAX_NAMES).join(', ');
  return list.length > MAX_NAMES ? `${shown} … +${list.length - MAX_NAMES} more` : shown;
}
