/**
 * `prompt-build inspect [bundle]`: what a built bundle holds — per profile the
 * sections in order with their size, the boundary, the static prefix and its
 * hash (the global cache key) — the agents, and a Claude Code project's
 * skills, commands, output styles and rules. Every value from the
 * manifest is shown through `terminalSafe` (the JSON through
 * `terminalSafeJson`): a name or description cannot act on the terminal.
 */
import path from 'node:path';
import { prefixEconomics, type PrefixEconomics } from '../../cache-facts/cache-economics.js';
import { staticCountFor } from '../../tokens/counter-names.js';
import { resolveBuildOptions } from '../../core/options.js';
import type { AgentEntry, ClaudeCodeBundle, ClaudeSkillEntry, Manifest, ProfileEntry, SectionEntry } from '../../runtime/manifest.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { readManifestArg } from '../read-manifest.js';
import { claudeCodeParts } from '../claude-code-parts.js';
import { plural, toBuildOptions } from '../shared.js';
import { terminalSafe, terminalSafeJson } from '../../diagnostics/terminal-safe.js';

export async function runInspect(options: CommonOptions, bundle: string | undefined, json: boolean, io: Io): Promise<number> {
  const build = await toBuildOptions(options);
  const target = bundle ?? (path.relative(process.cwd(), build.outDir!) || '.');
  const manifest = await readManifestArg(target);
  const { models, cacheFacts } = resolveBuildOptions(build);
  const cache = models.flatMap((model) =>
    Object.values(manifest.profiles).map((p) => ({ profile: p.name, ...prefixEconomics(model, staticCountFor(p, model), cacheFacts) })),
  );
  // A bundle of agents only has no static prefix to price: no empty table.
  const human = cache.length === 0 ? formatInspection(manifest) : `${formatInspection(manifest)}\n\n${formatCache(cache)}`;
  io.out(json ? terminalSafeJson({ ...inspection(manifest), cache }) : human);
  return 0;
}

/** Per model and profile: cached at all, and the static prefix's cost on a cold and a warm cache. */
function formatCache(rows: (PrefixEconomics & { profile: string })[]): string {
  const cells = rows.map((r) => [
    r.model,
    r.profile,
    number(r.staticTokens),
    verdictCell(r),
    number(r.cold),
    number(r.warm),
  ]);
  const title = 'cache · static prefix per request, in base-price input tokens (cold: written on the first request; warm: read while cached)';
  return [title, ...table([['model', 'profile', 'prefix', 'cached', 'cold', 'warm'], ...cells], 'llrlrr').map((l) => `  ${l}`.trimEnd())].join('\n');
}

/** The verdict the build's cache warning gives too (`prefixVerdict`), with the minimum it is judged by. */
function verdictCell(r: PrefixEconomics): string {
  if (r.verdict === null) return 'no cache facts';
  const minimum = number(r.minimumTokens!);
  return r.verdict === 'cached' ? `yes (≥ ${minimum})` : r.verdict === 'not-cached' ? `no (< ${minimum})` : `maybe (estimate near ${minimum})`;
}

/** The JSON shape: the manifest's facts without artifact paths a reader of sizes does not need. */
function inspection(manifest: Manifest) {
  return {
    profiles: Object.values(manifest.profiles).map((p) => ({
      name: p.name,
      description: p.description,
      boundaryIndex: p.boundaryIndex,
      staticPrefixHash: p.staticPrefixHash,
      staticTokens: p.staticTokens,
      sections: p.sections.map((s) => ({
        name: s.name,
        kind: s.kind,
        ...(s.kind === 'dynamic' ? { cache: s.cache, ...(s.reason === undefined ? {} : { reason: s.reason }) } : {}),
        bytes: s.bytes,
        tokens: s.tokens,
        ...(s.stripped ? { stripped: s.stripped } : {}),
        source: s.source,
      })),
    })),
    agents: Object.values(manifest.agents).map((a) => ({
      name: a.name,
      description: a.description,
      tools: a.tools,
      ...(a.model === undefined ? {} : { model: a.model }),
      bytes: a.bytes,
      tokens: a.tokens,
      ...(a.stripped ? { stripped: a.stripped } : {}),
      source: a.source,
    })),
    ...(manifest.claudeCode ? { claudeCode: manifest.claudeCode } : {}),
  };
}

function formatInspection(manifest: Manifest): string {
  const blocks = Object.values(manifest.profiles).map(formatProfile);
  const agents = Object.values(manifest.agents);
  blocks.push(agents.length === 0 ? 'agents: none' : formatAgents(agents));
  if (manifest.claudeCode) blocks.push(formatClaudeCode(manifest.claudeCode));
  return blocks.join('\n\n');
}

function formatProfile(profile: ProfileEntry): string {
  const header = ['#', 'section', 'kind', 'cache', 'bytes', 'tokens', ''];
  const lines = table([header, ...profile.sections.map(sectionRow)], 'rlllrrl').map((line) => `  ${line}`.trimEnd());
  const boundary =
    `  ── boundary · static prefix: ${plural(profile.boundaryIndex, 'section')}, ~${number(profile.staticTokens)} tokens, ` +
    `hash ${terminalSafe(profile.staticPrefixHash.slice(0, 12))} ──`;
  // Row 0 is the header, so the boundary goes after row `boundaryIndex`.
  lines.splice(profile.boundaryIndex + 1, 0, boundary);
  return [terminalSafe(`profile ${profile.name}${profile.description ? ` — ${profile.description}` : ''}`), ...lines].join('\n');
}

function sectionRow(s: SectionEntry, index: number): string[] {
  const cache = s.kind === 'dynamic' ? s.cache : '';
  const note = [s.kind === 'dynamic' && s.reason ? `(${s.reason})` : '', strippedNote(s)].filter(Boolean).join(' ');
  return [String(index + 1), s.name, s.kind, cache, number(s.bytes), number(s.tokens), note];
}

/** Comments removed by the comment policy: text the model does not see, so said where sizes are read. */
function strippedNote({ stripped }: SectionEntry | AgentEntry): string {
  return stripped ? `${plural(stripped.comments, 'comment')} stripped (${number(stripped.bytes)} bytes)` : '';
}

/**
 * The tools cell at most this wide: an agent listing ~90 MCP tools made the
 * table 5,786 characters wide. The names that fit, then how many more
 * (`--json` lists them all).
 */
const TOOLS_WIDTH = 48;

function toolsCell(tools: readonly string[]): string {
  if (tools.length === 0) return '(all)';
  const shown: string[] = [];
  for (const tool of tools) {
    const more = tools.length - shown.length - 1;
    const next = [...shown, tool].join(', ') + (more > 0 ? `, … +${more}` : '');
    if (terminalSafe(next).length > TOOLS_WIDTH && shown.length > 0) break;
    shown.push(tool);
  }
  const rest = tools.length - shown.length;
  return rest === 0 ? shown.join(', ') : `${shown.join(', ')}, … +${rest}`;
}

function formatAgents(agents: AgentEntry[]): string {
  const rows = agents.map((a) => [a.name, toolsCell(a.tools), a.model ?? '', number(a.bytes), number(a.tokens), strippedNote(a)]);
  return ['agents', ...table([['name', 'tools', 'model', 'bytes', 'tokens', ''], ...rows], 'lllrrl').map((l) => `  ${l}`.trimEnd())].join('\n');
}

/** A Claude Code project's texts by kind and key (docs/claude-code.md), a skill's reference files under it; the files Claude Code skips counted. */
function formatClaudeCode(claudeCode: ClaudeCodeBundle): string {
  const rows: string[][] = [];
  for (const [entries, kind] of claudeCodeParts(claudeCode)) {
    for (const entry of Object.values(entries ?? {})) {
      rows.push([kind, entry.name, number(entry.bytes), number(entry.tokens), entry.source]);
      for (const file of Object.values((entry as ClaudeSkillEntry).files ?? {})) rows.push(['', `  ${file.name}`, number(file.bytes), number(file.tokens), file.source]);
    }
  }
  const skipped = Object.keys(claudeCode.skipped ?? {}).length;
  const lines = ['claude code', ...table([['kind', 'name', 'bytes', 'tokens', 'source'], ...rows], 'llrrl').map((l) => `  ${l}`.trimEnd())];
  if (skipped > 0) lines.push(`  ${plural(skipped, 'file')} Claude Code skips (the manifest's claudeCode.skipped)`);
  return lines.join('\n');
}

/** Aligns columns; `align` is one `l` or `r` per column. Cells are made safe first, so widths are those shown. */
function table(cells: string[][], align: string): string[] {
  const rows = cells.map((row) => row.map(terminalSafe));
  const widths = [...align].map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((row) => row.map((cell, c) => (align[c] === 'r' ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  '));
}

function number(n: number): string {
  return n.toLocaleString('en-US');
}
