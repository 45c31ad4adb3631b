/**
 * A built bundle as the report and `diff` read it: the manifest and, by
 * artifact path, the texts a reader wants to see — static section texts,
 * agent prompts and the resolved templates (`.hbs`) of dynamic sections —
 * and the source maps. Filled by `cli/read-bundle.ts`; everything under
 * `report/` only reads it.
 */
import type { AgentEntry, Manifest, SectionEntry, SourceMap } from '../runtime/manifest.js';

export interface BundleContents {
  /** How the bundle was named on the command line, for headings. */
  label: string;
  manifest: Manifest;
  /** Artifact path → text: `static/…md`, `agents/…md`, `dynamic/…hbs`. */
  texts: ReadonlyMap<string, string>;
  /** Map path (`maps/…json`) → source map. */
  maps: ReadonlyMap<string, SourceMap>;
}

/** The text a reader sees for an entry: the static text, the agent prompt, or a dynamic section's template. */
export function textOf(contents: BundleContents, entry: SectionEntry | AgentEntry): string {
  const file = 'kind' in entry && entry.kind === 'dynamic' ? entry.template : entry.file;
  return contents.texts.get(file) ?? '';
}

/** Every section of the bundle once, by name, in order of first appearance across profiles (sorted by name). */
export function sectionsByName(manifest: Manifest): Map<string, SectionEntry> {
  const out = new Map<string, SectionEntry>();
  for (const name of Object.keys(manifest.profiles).sort()) {
    for (const section of manifest.profiles[name]!.sections) if (!out.has(section.name)) out.set(section.name, section);
  }
  return out;
}
