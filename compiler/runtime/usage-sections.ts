/**
 * The sections behind a `system_changed` miss: the static sections of two
 * prompts' prefixes compared by name and hash, and the sentence that says it
 * (docs/usage.md#miss-reasons).
 */
import type { StaticSection } from './usage-bundle.js';
import type { CacheMiss, ChangedSection, UsageRecord } from './usage.js';

/** Sections of `after` changed or added (in its order), then those removed, then those kept but moved. */
export function sectionChanges(before: readonly StaticSection[], after: readonly StaticSection[]): ChangedSection[] {
  const old = new Map(before);
  const now = new Map(after);
  const changes: ChangedSection[] = [];
  for (const [name, hash] of after) {
    if (!old.has(name)) changes.push({ name, change: 'added' });
    else if (old.get(name) !== hash) changes.push({ name, change: 'changed' });
  }
  for (const [name] of before) if (!now.has(name)) changes.push({ name, change: 'removed' });
  // Kept sections, each in the other's order: one standing elsewhere among them has moved.
  const keptBefore = before.filter(([name]) => now.has(name)).map(([name]) => name);
  const keptAfter = after.filter(([name]) => old.has(name)).map(([name]) => name);
  keptAfter.forEach((name, index) => {
    if (keptBefore[index] !== name && old.get(name) === now.get(name)) changes.push({ name, change: 'moved' });
  });
  return changes;
}

/**
 * A miss in words: "section `tone` changed in the static prefix of profile
 * `default`", or the provider's reason when no sections are known.
 */
export function describeMiss(miss: CacheMiss, record: Pick<UsageRecord, 'profile' | 'agent'>): string {
  const prefix = record.profile !== null ? `profile \`${record.profile}\`` : record.agent !== null ? `agent \`${record.agent}\`` : 'the prompt';
  const missed = miss.missedTokens === null ? '' : ` (${miss.missedTokens} tokens not read)`;
  if (miss.sections === undefined) return `${miss.reason}${missed}`;
  if (miss.sections.length === 0) return `${miss.reason}: the static prefix of ${prefix} is unchanged, so the dynamic tail changed${missed}`;
  const each = miss.sections.map((section) => `section \`${section.name}\` ${section.change}`).join(', ');
  return `${miss.reason}: ${each} in the static prefix of ${prefix}${missed}`;
}
