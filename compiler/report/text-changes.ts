/**
 * The text behind each change of a bundle diff: for every changed section
 * (a dynamic one by its template) and every agent whose prompt changed, the
 * line diff of old against new. What `diff`, its Markdown and the report show.
 */
import { own, type AgentChange, type BundleDiff, type SectionChange } from '../bundle/bundle-diff.js';
import { sectionsByName, textOf, type BundleContents } from './bundle-contents.js';
import { diffHunks, type Hunk } from './text-diff.js';

export interface TextChange<C> {
  change: C;
  hunks: Hunk[];
}

export interface TextChanges {
  sections: TextChange<SectionChange>[];
  agents: TextChange<AgentChange>[];
}

export function textChanges(older: BundleContents, newer: BundleContents, diff: BundleDiff): TextChanges {
  const oldSections = sectionsByName(older.manifest);
  const newSections = sectionsByName(newer.manifest);
  const text = (contents: BundleContents, entry: Parameters<typeof textOf>[1] | undefined) => (entry ? textOf(contents, entry) : '');
  return {
    sections: diff.sections.map((change) => ({
      change,
      hunks: diffHunks(text(older, oldSections.get(change.name)), text(newer, newSections.get(change.name))),
    })),
    agents: diff.agents
      .filter((a) => a.status !== 'changed' || a.fields.includes('prompt'))
      .map((change) => ({
        change,
        hunks: diffHunks(text(older, own(older.manifest.agents, change.name)), text(newer, own(newer.manifest.agents, change.name))),
      })),
  };
}
