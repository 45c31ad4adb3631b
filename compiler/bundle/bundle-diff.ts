/**
 * What changed between two builds, from their manifests alone: sections and
 * agents added, removed or changed (with byte and token deltas), sections
 * that crossed the boundary (static ↔ dynamic), and for each profile whether
 * its static prefix hash — the global prompt-cache key — changed. Pure: the
 * `diff` command prints it, `watch` summarises it after every rebuild and
 * `check` gates on it.
 */
import type { AgentEntry, Manifest, ProfileEntry, SectionEntry, SectionKind } from '../runtime/manifest.js';

export interface BundleDiff {
  /** Every profile of either bundle, sorted by name. */
  profiles: ProfileChange[];
  /** Sections that differ, sorted by name. A section is known by name across all profiles. */
  sections: SectionChange[];
  /** Agents that differ, sorted by name. */
  agents: AgentChange[];
}

export type Status = 'added' | 'removed' | 'changed';

/** Old and new value; null on the side where the thing does not exist. */
export interface Change<T> {
  old: T | null;
  new: T | null;
}

/** Sizes with the difference new − old (an absent side counts as 0). */
export interface SizeChange {
  old: number;
  new: number;
  delta: number;
}

export interface ProfileChange {
  name: string;
  status: Status | 'unchanged';
  staticPrefixHash: Change<string>;
  /** The profile exists on both sides and its static prefix hash differs: every cached prefix is lost. */
  cacheBust: boolean;
  staticTokens: SizeChange;
  boundaryIndex: Change<number>;
  /** Section names the profile lists now and did not before, and the reverse. */
  sectionsAdded: string[];
  sectionsRemoved: string[];
}

export interface SectionChange {
  name: string;
  status: Status;
  kind: Change<SectionKind>;
  /** Static on one side, dynamic on the other: it crossed the boundary. */
  moved: boolean;
  /** Cache policy (`cached`/`uncached`) of a dynamic section; null for a static one. */
  cache: Change<string>;
  bytes: SizeChange;
  tokens: SizeChange;
}

export interface AgentChange {
  name: string;
  status: Status;
  bytes: SizeChange;
  tokens: SizeChange;
  /** Which parts changed: `prompt` for the text, otherwise the definition field names. */
  fields: string[];
}

export function diffManifests(older: Manifest, newer: Manifest): BundleDiff {
  const sections = sectionEntries(older, newer);
  return {
    profiles: unionOfKeys(older.profiles, newer.profiles).map((name) => diffProfile(name, own(older.profiles, name), own(newer.profiles, name), sections)),
    sections: [...new Set([...sections.old.keys(), ...sections.new.keys()])]
      .sort()
      .map((name) => diffSection(name, sections.old.get(name), sections.new.get(name)))
      .filter((c): c is SectionChange => c !== null),
    agents: unionOfKeys(older.agents, newer.agents)
      .map((name) => diffAgent(name, own(older.agents, name), own(newer.agents, name)))
      .filter((c): c is AgentChange => c !== null),
  };
}

/** True when the two manifests describe the same prompts (sources may still differ). */
export function isEmptyDiff(diff: BundleDiff): boolean {
  return diff.sections.length === 0 && diff.agents.length === 0 && diff.profiles.every((p) => p.status === 'unchanged');
}

interface SectionEntries {
  old: ReadonlyMap<string, SectionEntry>;
  new: ReadonlyMap<string, SectionEntry>;
}

/**
 * The sections that can differ, by name, on each side: those of profiles
 * that are not the very same entry in both manifests. Watch mode diffs
 * consecutive builds, which share the entries of everything unchanged, so a
 * rebuild of a large bundle reads a profile or two, not every section. A
 * section's entry is the same in every profile of a manifest that lists it,
 * so a section in an unchanged profile is unchanged; one that a changed
 * profile dropped or gained is looked up in the other profiles too.
 */
function sectionEntries(older: Manifest, newer: Manifest): SectionEntries {
  const changed = (from: Manifest, to: Manifest) => Object.keys(from.profiles).filter((name) => own(from.profiles, name) !== own(to.profiles, name));
  const collect = (manifest: Manifest, names: readonly string[]) => {
    const out = new Map<string, SectionEntry>();
    for (const name of names) for (const s of manifest.profiles[name]!.sections) out.set(s.name, s);
    return out;
  };
  const oldSections = collect(older, changed(older, newer));
  const newSections = collect(newer, changed(newer, older));
  // A section only one side's changed profiles list: the other side may still list it elsewhere.
  const completeFrom = (into: Map<string, SectionEntry>, wanted: Iterable<string>, manifest: Manifest) => {
    let all: Map<string, SectionEntry> | undefined;
    for (const name of wanted) {
      if (into.has(name)) continue;
      const entry = (all ??= collect(manifest, Object.keys(manifest.profiles))).get(name);
      if (entry) into.set(name, entry);
    }
  };
  completeFrom(oldSections, [...newSections.keys()], older);
  completeFrom(newSections, [...oldSections.keys()], newer);
  return { old: oldSections, new: newSections };
}

function diffProfile(name: string, older: ProfileEntry | undefined, newer: ProfileEntry | undefined, sections: SectionEntries): ProfileChange {
  const change: ProfileChange = {
    name,
    status: statusOf(older, newer),
    staticPrefixHash: { old: older?.staticPrefixHash ?? null, new: newer?.staticPrefixHash ?? null },
    cacheBust: older !== undefined && newer !== undefined && older.staticPrefixHash !== newer.staticPrefixHash,
    staticTokens: size(older?.staticTokens, newer?.staticTokens),
    boundaryIndex: { old: older?.boundaryIndex ?? null, new: newer?.boundaryIndex ?? null },
    sectionsAdded: [],
    sectionsRemoved: [],
  };
  // The very same entry (consecutive builds in watch mode): nothing in it changed.
  if (older !== undefined && older === newer) return { ...change, status: 'unchanged' };
  const oldNames = older?.sections.map((s) => s.name) ?? [];
  const newNames = newer?.sections.map((s) => s.name) ?? [];
  const oldSet = new Set(oldNames);
  const newSet = new Set(newNames);
  change.sectionsAdded = newNames.filter((n) => !oldSet.has(n));
  change.sectionsRemoved = oldNames.filter((n) => !newSet.has(n));
  if (change.status === 'changed' && older && newer) {
    const same =
      older.description === newer.description &&
      older.staticPrefixHash === newer.staticPrefixHash &&
      oldNames.join('\n') === newNames.join('\n') &&
      newNames.every((n) => sameSection(sections.old.get(n), sections.new.get(n)));
    if (same) change.status = 'unchanged';
  }
  return change;
}

function diffSection(name: string, older: SectionEntry | undefined, newer: SectionEntry | undefined): SectionChange | null {
  if (older && newer && sameSection(older, newer)) return null;
  return {
    name,
    status: statusOf(older, newer),
    kind: { old: older?.kind ?? null, new: newer?.kind ?? null },
    moved: older !== undefined && newer !== undefined && older.kind !== newer.kind,
    cache: { old: cacheOf(older), new: cacheOf(newer) },
    bytes: size(older?.bytes, newer?.bytes),
    tokens: size(older?.tokens, newer?.tokens),
  };
}

function diffAgent(name: string, older: AgentEntry | undefined, newer: AgentEntry | undefined): AgentChange | null {
  const fields = older && newer ? changedAgentFields(older, newer) : [];
  if (older && newer && fields.length === 0) return null;
  return { name, status: statusOf(older, newer), bytes: size(older?.bytes, newer?.bytes), tokens: size(older?.tokens, newer?.tokens), fields };
}

const AGENT_FIELDS = ['description', 'tools', 'model', 'temperature', 'maxTokens', 'extra'] as const;

function changedAgentFields(older: AgentEntry, newer: AgentEntry): string[] {
  const fields = older.hash === newer.hash ? [] : ['prompt'];
  for (const key of AGENT_FIELDS) {
    if (JSON.stringify(older[key]) !== JSON.stringify(newer[key])) fields.push(key);
  }
  return fields;
}

function sameSection(a: SectionEntry | undefined, b: SectionEntry | undefined): boolean {
  // Watch mode diffs consecutive builds, which share the entries of everything unchanged.
  if (a !== undefined && a === b) return true;
  return a !== undefined && b !== undefined && a.hash === b.hash && a.kind === b.kind && cacheOf(a) === cacheOf(b);
}

function cacheOf(entry: SectionEntry | undefined): string | null {
  return entry?.kind === 'dynamic' ? entry.cache : null;
}

function statusOf(older: unknown, newer: unknown): Status {
  if (older === undefined) return 'added';
  if (newer === undefined) return 'removed';
  return 'changed';
}

function size(older: number | undefined, newer: number | undefined): SizeChange {
  return { old: older ?? 0, new: newer ?? 0, delta: (newer ?? 0) - (older ?? 0) };
}

/**
 * The entry a manifest has under `name`, or undefined: its own property only.
 * Names are the author's, and `constructor` or `toString` must not find
 * what every object inherits.
 */
export function own<T>(record: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

function unionOfKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}
