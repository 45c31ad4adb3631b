/**
 * Everything the HTML report shows, computed from one bundle (or two, for
 * the diff) and the configured models. Pure; `html/` turns it into a page.
 * Sections are listed once each, however many profiles use them.
 */
import { diffManifests, type BundleDiff } from '../bundle/bundle-diff.js';
import type { AgentEntry, SectionEntry, SourceMap } from '../runtime/manifest.js';
import { sectionsByName, textOf, type BundleContents } from './bundle-contents.js';
import { requestCost, type CostFacts, type RequestCost } from './cost.js';
import { lineRuns, wholeText, type LineRun } from './source-lines.js';
import { textChanges, type TextChanges } from './text-changes.js';
import { staticCountFor } from '../tokens/counter-names.js';
import { prefixVerdict, type PrefixVerdict } from '../cache-facts/cache-economics.js';

export interface ReportData {
  /** The bundle's label (the new one's, given two). */
  label: string;
  tool: string;
  models: CostFacts[];
  /** Tokens the full width of a profile bar stands for: the longest profile or minimum line. */
  scaleTokens: number;
  profiles: ProfileView[];
  sections: SectionView[];
  agents: AgentView[];
  diff: DiffView | null;
}

export interface ProfileView {
  id: string;
  name: string;
  description: string;
  source: string;
  boundaryIndex: number;
  staticPrefixHash: string;
  staticTokens: number;
  dynamicTokens: number;
  sections: { id: string; name: string; kind: 'static' | 'dynamic'; cache: string | null; tokens: number }[];
  /** Per model: its count of the static prefix, the price of a request, and the verdict the build's cache warning gives (null: no facts). */
  costs: { facts: CostFacts; cost: RequestCost | null; verdict: PrefixVerdict | null; staticTokens: number }[];
  /** Given two bundles: this profile's static prefix hash changed. */
  cacheBust: boolean;
}

export interface SectionView {
  id: string;
  name: string;
  kind: 'static' | 'dynamic';
  cache: string | null;
  reason: string | null;
  inputs: string[];
  optional: string[];
  tokens: number;
  bytes: number;
  source: string;
  artifact: string;
  runs: LineRun[];
  profiles: string[];
}

export interface AgentView {
  id: string;
  name: string;
  description: string;
  tools: string[];
  model: string | null;
  tokens: number;
  bytes: number;
  source: string;
  runs: LineRun[];
}

export interface DiffView {
  oldLabel: string;
  diff: BundleDiff;
  text: TextChanges;
}

export function reportData(contents: BundleContents, models: readonly CostFacts[], older: BundleContents | null = null): ReportData {
  const { manifest } = contents;
  const byName = sectionsByName(manifest);
  const sectionIds = new Map([...byName.keys()].map((name, i) => [name, `s-${i}`]));
  const diff = older ? diffManifests(older.manifest, manifest) : null;
  const busts = new Set(diff?.profiles.filter((p) => p.cacheBust).map((p) => p.name) ?? []);
  const usedBy = new Map<string, string[]>();
  // `default` first: the profile most requests use.
  const profileNames = Object.keys(manifest.profiles).sort((a, b) => Number(b === 'default') - Number(a === 'default') || (a < b ? -1 : a > b ? 1 : 0));
  const profiles = profileNames.map((name, i): ProfileView => {
    const p = manifest.profiles[name]!;
    for (const s of p.sections) (usedBy.get(s.name) ?? usedBy.set(s.name, []).get(s.name)!).push(name);
    const dynamicTokens = p.sections.reduce((n, s) => n + (s.kind === 'dynamic' ? s.tokens : 0), 0);
    return {
      id: `p-${i}`,
      name,
      description: p.description,
      source: p.source,
      boundaryIndex: p.boundaryIndex,
      staticPrefixHash: p.staticPrefixHash,
      staticTokens: p.staticTokens,
      dynamicTokens,
      sections: p.sections.map((s) => ({ id: sectionIds.get(s.name)!, name: s.name, kind: s.kind, cache: s.kind === 'dynamic' ? s.cache : null, tokens: s.tokens })),
      costs: models.map((facts) => {
        const count = staticCountFor(p, facts.model);
        const verdict = facts.minimumTokens === null ? null : prefixVerdict(count.tokens, count.error, facts.minimumTokens);
        return { facts, cost: requestCost(count.tokens, dynamicTokens, facts), verdict, staticTokens: count.tokens };
      }),
      cacheBust: busts.has(name),
    };
  });
  const longest = Math.max(1, ...profiles.map((p) => p.staticTokens + p.dynamicTokens), ...models.map((m) => m.minimumTokens ?? 0));
  return {
    label: contents.label,
    tool: `${manifest.tool.name} ${manifest.tool.version}`,
    models: [...models],
    scaleTokens: longest,
    profiles,
    sections: [...byName.values()].map((s) => sectionView(contents, s, sectionIds.get(s.name)!, usedBy.get(s.name) ?? [])),
    agents: Object.keys(manifest.agents)
      .sort()
      .map((name, i) => agentView(contents, manifest.agents[name]!, `a-${i}`)),
    diff: older && diff ? { oldLabel: older.label, diff, text: textChanges(older, contents, diff) } : null,
  };
}

function sectionView(contents: BundleContents, s: SectionEntry, id: string, profiles: string[]): SectionView {
  const dynamic = s.kind === 'dynamic' ? s : null;
  return {
    id,
    name: s.name,
    kind: s.kind,
    cache: dynamic?.cache ?? null,
    reason: dynamic?.reason ?? null,
    inputs: dynamic?.inputs ?? [],
    optional: dynamic?.optional ?? [],
    tokens: s.tokens,
    bytes: s.bytes,
    source: s.source,
    artifact: dynamic ? dynamic.template : s.file,
    runs: runsOf(contents, s),
    profiles,
  };
}

function agentView(contents: BundleContents, a: AgentEntry, id: string): AgentView {
  return {
    id,
    name: a.name,
    description: a.description,
    tools: a.tools,
    model: a.model ?? null,
    tokens: a.tokens,
    bytes: a.bytes,
    source: a.source,
    runs: runsOf(contents, a),
  };
}

function runsOf(contents: BundleContents, entry: SectionEntry | AgentEntry): LineRun[] {
  const text = textOf(contents, entry);
  const map: SourceMap | undefined = entry.map === undefined ? undefined : contents.maps.get(entry.map);
  return lineRuns(text, map?.segments ?? wholeText(entry.source, entry.line, Buffer.byteLength(text)));
}
