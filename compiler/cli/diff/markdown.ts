/**
 * `diff --format markdown`: a pull-request comment, built as an mdast tree
 * and serialised by remark-stringify (with GFM for tables), so that section
 * text holding backticks, pipes, HTML or `</details>` cannot break out of
 * its cell or its code block. Summary first — per profile whether the static
 * prefix hash changed, tokens and warm cost per 1,000 requests before and
 * after — then each changed text as a diff in a collapsible block.
 *
 * A bundle is anyone's data (a pull request can commit its own `dist/`), so
 * every value in the comment first goes through `inline`: one visible line,
 * no line break to end a table row, paragraph or HTML block, no control,
 * invisible or direction-changing character. The tree then escapes it for
 * its context — text, code span, table cell (remark), details summary
 * (HTML-escaped here) — so only this module decides the comment's
 * structure and its verdict.
 */
import type { PhrasingContent, Root, RootContent } from 'mdast';
import { isEmptyDiff, type AgentChange, type BundleDiff, type ProfileChange, type SectionChange, type SizeChange } from '../../bundle/bundle-diff.js';
import type { Manifest } from '../../runtime/manifest.js';
import type { CostFacts } from '../../report/cost.js';
import type { TextChanges } from '../../report/text-changes.js';
import { unifiedDiff } from '../../report/text-diff.js';
import { amount, number } from '../../report/numbers.js';
import { warmCostPer1000 } from './costs.js';
import { code, heading, inline, list, markdownOf, paragraph, strong, t, table } from '../markdown-nodes.js';

export interface MarkdownInput {
  diff: BundleDiff;
  text: TextChanges | null;
  older: Manifest;
  newer: Manifest;
  models: readonly CostFacts[];
}

export function diffMarkdown(input: MarkdownInput): string {
  return markdownOf(diffTree(input));
}

export function diffTree({ diff, text, older, newer, models }: MarkdownInput): Root {
  const busts = diff.profiles.filter((p) => p.cacheBust).map((p) => p.name);
  const out: RootContent[] = [heading(3, [t('prompt-build diff')])];
  out.push(
    busts.length > 0
      ? paragraph([strong('⚠ Static prefix changed — global prompt-cache bust:'), t(' '), ...list(busts.map(code))])
      : paragraph([strong('Static prefixes unchanged'), t(' — the global prompt cache keeps hitting.')]),
  );
  if (isEmptyDiff(diff)) {
    out.push(paragraph([t('No changes: both bundles hold the same prompts.')]));
    return { type: 'root', children: out };
  }
  const changed = diff.profiles.filter((p) => p.status !== 'unchanged');
  const unchanged = diff.profiles.filter((p) => p.status === 'unchanged').map((p) => p.name);
  if (changed.length > 0) {
    const costHeads = models.map((m) => `warm cost / 1k requests, ${m.model}`);
    out.push(heading(4, [t('Profiles')]));
    out.push(
      table(
        ['profile', 'change', 'static prefix hash', 'static tokens', ...costHeads, 'boundary', 'sections'],
        ['left', 'left', 'left', 'right', ...models.map(() => 'right' as const), 'left', 'left'],
        changed.map((p) => profileRow(p, older, newer, models)),
      ),
    );
  }
  if (unchanged.length > 0) out.push(paragraph([t('Unchanged profiles: '), ...list(unchanged.map(code))]));
  if (diff.sections.length > 0) {
    out.push(heading(4, [t('Sections')]));
    out.push(table(['section', 'change', 'kind', 'bytes', 'tokens'], ['left', 'left', 'left', 'right', 'right'], diff.sections.map(sectionRow)));
  }
  if (diff.agents.length > 0) {
    out.push(heading(4, [t('Agents')]));
    out.push(table(['agent', 'change', 'what', 'bytes', 'tokens'], ['left', 'left', 'left', 'right', 'right'], diff.agents.map(agentRow)));
  }
  if (models.length > 0 && changed.length > 0) {
    out.push(paragraph([t('Costs are in input tokens at the model’s base input price, the static prefix read from the cache, the dynamic tail by its template size.')]));
  }
  const texts = [
    ...(text?.sections ?? []).map((c) => ({ what: 'section', name: c.change.name, note: sectionChange(c.change), hunks: c.hunks })),
    ...(text?.agents ?? []).map((c) => ({ what: 'agent', name: c.change.name, note: c.change.status, hunks: c.hunks })),
  ].filter((c) => c.hunks.length > 0);
  if (texts.length > 0) out.push(heading(4, [t('Changed texts')]));
  for (const c of texts) {
    // The summary is HTML, so its text is escaped as HTML; the diff is a fenced code block, whose fence remark makes longer than any run of backticks inside.
    // Each diff line is made visible too: a CR in a line would show as a line break, one `-` line looking like two.
    // The name in <code>: GitHub turns `@team` in a summary's text into a mention, and a URL into a link, but not in code.
    const title = `${c.what} ${inline(c.name)}`;
    out.push({ type: 'html', value: `<details><summary>${c.what} <code>${escapeHtml(inline(c.name))}</code> (${escapeHtml(inline(c.note))})</summary>` });
    const diffLines = unifiedDiff(`old/${title}`, `new/${title}`, c.hunks).replace(/\n$/, '').split('\n');
    out.push({ type: 'code', lang: 'diff', value: diffLines.map(inline).join('\n') });
    out.push({ type: 'html', value: '</details>' });
  }
  return { type: 'root', children: out };
}

function profileRow(p: ProfileChange, older: Manifest, newer: Manifest, models: readonly CostFacts[]): PhrasingContent[][] {
  const hash = p.cacheBust
    ? [t('⚠ '), code(short(p.staticPrefixHash.old)), t(' → '), code(short(p.staticPrefixHash.new))]
    : p.status === 'changed'
      ? [t('unchanged '), code(short(p.staticPrefixHash.new))]
      : [code(short(p.staticPrefixHash.new ?? p.staticPrefixHash.old))];
  const costs = models.map((m) => [t(beforeAfter(warmCostPer1000(older, p.name, m), warmCostPer1000(newer, p.name, m)))]);
  const boundary = p.boundaryIndex.old === p.boundaryIndex.new ? String(p.boundaryIndex.new) : `${p.boundaryIndex.old ?? '–'} → ${p.boundaryIndex.new ?? '–'}`;
  // Names go in code spans, as everywhere here: in text, `@org/team` would notify a team and `https://…` become a link.
  const sections = [...p.sectionsAdded.map((s) => [t('+'), code(s)]), ...p.sectionsRemoved.map((s) => [t('−'), code(s)])];
  return [[code(p.name)], [t(p.status)], hash, [t(size(p.staticTokens))], ...costs, [t(boundary)], sections.flatMap((pair, i) => (i === 0 ? pair : [t(' '), ...pair]))];
}

function sectionRow(s: SectionChange): PhrasingContent[][] {
  const change = s.moved ? [strong(`moved ${s.kind.old} → ${s.kind.new}`)] : [t(sectionChange(s))];
  return [[code(s.name)], change, [t((s.kind.new ?? s.kind.old)!)], [t(size(s.bytes))], [t(size(s.tokens))]];
}

function sectionChange(s: SectionChange): string {
  // Crossing the boundary moves text in or out of the cached prefix: the change most worth a reviewer's eye.
  if (s.moved) return `moved ${s.kind.old} → ${s.kind.new}`;
  if (s.status === 'changed' && s.cache.old !== s.cache.new) return `changed (${s.cache.old} → ${s.cache.new})`;
  return s.status;
}

function agentRow(a: AgentChange): PhrasingContent[][] {
  return [[code(a.name)], [t(a.status)], a.fields.length > 0 ? list(a.fields.map(code)) : [], [t(size(a.bytes))], [t(size(a.tokens))]];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** `1,200 → 1,250 (+50)`; one number when unchanged. */
export function size(s: SizeChange): string {
  if (s.delta === 0) return number(s.new);
  const sign = s.delta > 0 ? '+' : '−';
  return `${number(s.old)} → ${number(s.new)} (${sign}${number(Math.abs(s.delta))})`;
}

function beforeAfter(older: number | null, newer: number | null): string {
  const f = (n: number | null) => (n === null ? '–' : amount(n));
  return older === newer ? f(newer) : `${f(older)} → ${f(newer)}`;
}

export function short(hash: string | null): string {
  return hash === null ? '–' : hash.slice(0, 12);
}
