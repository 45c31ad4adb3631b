/**
 * `prompt-build diff OLD NEW`: what changed between two builds, as Markdown
 * meant to be pasted into a pull request (or `--json`). It reports and does
 * not judge: the exit code is 0 whatever changed; `check` is the gate.
 */
import { diffManifests, isEmptyDiff, type AgentChange, type BundleDiff, type ProfileChange, type SectionChange, type SizeChange } from '../../bundle/bundle-diff.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { readManifestArg } from '../read-manifest.js';

export async function runDiff(_options: CommonOptions, oldPath: string, newPath: string, json: boolean, io: Io): Promise<number> {
  const [older, newer] = await Promise.all([readManifestArg(oldPath), readManifestArg(newPath)]);
  const diff = diffManifests(older, newer);
  io.out(json ? JSON.stringify({ ...diff, cacheBust: cacheBusts(diff) }, null, 2) : formatDiffMarkdown(diff));
  return 0;
}

function formatDiffMarkdown(diff: BundleDiff): string {
  const busts = cacheBusts(diff);
  const out = ['### prompt-build diff', ''];
  out.push(
    busts.length > 0
      ? `**⚠ Static prefix changed — global prompt-cache bust:** ${busts.map(code).join(', ')}`
      : '**Static prefixes unchanged** — the global prompt cache keeps hitting.',
  );
  if (isEmptyDiff(diff)) {
    out.push('', 'No changes: both bundles hold the same prompts.');
    return out.join('\n');
  }
  const profiles = diff.profiles.filter((p) => p.status !== 'unchanged');
  const unchanged = diff.profiles.filter((p) => p.status === 'unchanged').map((p) => p.name);
  if (profiles.length > 0) {
    out.push('', '#### Profiles', '', '| profile | change | static prefix hash | static tokens | boundary | sections |', '|---|---|---|---:|---|---|');
    out.push(...profiles.map(profileRow));
  }
  if (unchanged.length > 0) out.push('', `Unchanged profiles: ${unchanged.map(code).join(', ')}`);
  if (diff.sections.length > 0) {
    out.push('', '#### Sections', '', '| section | change | kind | bytes | tokens |', '|---|---|---|---:|---:|');
    out.push(...diff.sections.map(sectionRow));
  }
  if (diff.agents.length > 0) {
    out.push('', '#### Agents', '', '| agent | change | what | bytes | tokens |', '|---|---|---|---:|---:|');
    out.push(...diff.agents.map(agentRow));
  }
  return out.join('\n');
}

function cacheBusts(diff: BundleDiff): string[] {
  return diff.profiles.filter((p) => p.cacheBust).map((p) => p.name);
}

function profileRow(p: ProfileChange): string {
  const hash = p.cacheBust
    ? `⚠ ${code(short(p.staticPrefixHash.old))} → ${code(short(p.staticPrefixHash.new))}`
    : p.status === 'changed'
      ? `unchanged ${code(short(p.staticPrefixHash.new))}`
      : code(short(p.staticPrefixHash.new ?? p.staticPrefixHash.old));
  const boundary = p.boundaryIndex.old === p.boundaryIndex.new ? String(p.boundaryIndex.new) : `${p.boundaryIndex.old ?? '–'} → ${p.boundaryIndex.new ?? '–'}`;
  const sections = [...p.sectionsAdded.map((s) => `+${s}`), ...p.sectionsRemoved.map((s) => `−${s}`)].join(' ');
  return row([code(p.name), p.status, hash, size(p.staticTokens), boundary, sections]);
}

function sectionRow(s: SectionChange): string {
  return row([code(s.name), sectionChange(s), (s.kind.new ?? s.kind.old)!, size(s.bytes), size(s.tokens)]);
}

function sectionChange(s: SectionChange): string {
  // Crossing the boundary moves text in or out of the cached prefix: the change most worth a reviewer's eye.
  if (s.moved) return `**moved ${s.kind.old} → ${s.kind.new}**`;
  if (s.status === 'changed' && s.cache.old !== s.cache.new) return `changed (${s.cache.old} → ${s.cache.new})`;
  return s.status;
}

function agentRow(a: AgentChange): string {
  return row([code(a.name), a.status, a.fields.join(', '), size(a.bytes), size(a.tokens)]);
}

/** `1,200 → 1,250 (+50)`; one number when unchanged. */
function size(s: SizeChange): string {
  if (s.delta === 0) return number(s.new);
  const sign = s.delta > 0 ? '+' : '−';
  return `${number(s.old)} → ${number(s.new)} (${sign}${number(Math.abs(s.delta))})`;
}

function row(cells: string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}

function short(hash: string | null): string {
  return hash === null ? '–' : hash.slice(0, 12);
}

function code(text: string): string {
  return `\`${text}\``;
}

function number(n: number): string {
  return n.toLocaleString('en-US');
}
