/**
 * Given two bundles: what changed, loudest first — the profiles whose static
 * prefix hash changed (every cached prefix lost), sections moved across the
 * boundary — then each changed text as a line diff.
 */
import type { ProfileChange, SectionChange, SizeChange } from '../../bundle/bundle-diff.js';
import type { DiffView } from '../report-data.js';
import type { TextChange } from '../text-changes.js';
import type { Hunk } from '../text-diff.js';
import { html, join, number, type Markup } from './escape.js';

export function changesHtml(view: DiffView, newLabel: string): Markup {
  const { diff, text } = view;
  const busts = diff.profiles.filter((p) => p.cacheBust);
  const banner =
    busts.length > 0
      ? html`<div class="bust-banner" role="alert"><strong>⚠ Static prefix changed — global prompt-cache bust</strong><br>${join(
          busts.map((p) => html`<code>${p.name}</code>`),
          ', ',
        )}: every cached prefix of ${busts.length === 1 ? 'this profile' : 'these profiles'} is lost on the next request.</div>`
      : html`<p class="ok"><strong>Static prefixes unchanged</strong> — the global prompt cache keeps hitting.</p>`;
  const moved = diff.sections.filter((s) => s.moved);
  const movedHtml =
    moved.length > 0
      ? html`<p class="warn">Moved across the boundary: ${join(
          moved.map((s) => html`<code>${s.name}</code> (${s.kind.old} → ${s.kind.new})`),
          ', ',
        )}</p>`
      : '';
  const changed = diff.profiles.filter((p) => p.status !== 'unchanged');
  const table =
    changed.length > 0
      ? html`<table><thead><tr><th>profile</th><th>change</th><th>static prefix hash</th><th class="n">static tokens</th><th>boundary</th><th>sections</th></tr></thead><tbody>${changed.map(profileRow)}</tbody></table>`
      : html`<p class="muted">No profile changed.</p>`;
  const sections = text.sections.map((c) => textChangeHtml(`section ${c.change.name}`, sectionNote(c.change), c));
  const agents = text.agents.map((c) => textChangeHtml(`agent ${c.change.name}`, c.change.status, c));
  return html`<section id="changes"><h2>Changes from <code>${view.oldLabel}</code> to <code>${newLabel}</code></h2>${banner}${movedHtml}${table}${sections}${agents}</section>`;
}

function profileRow(p: ProfileChange): Markup {
  const short = (h: string | null) => (h === null ? '–' : String(h).slice(0, 12));
  const hash = p.cacheBust
    ? html`<span class="warn">⚠ <code>${short(p.staticPrefixHash.old)}</code> → <code>${short(p.staticPrefixHash.new)}</code></span>`
    : html`<code>${short(p.staticPrefixHash.new ?? p.staticPrefixHash.old)}</code>`;
  const boundary = p.boundaryIndex.old === p.boundaryIndex.new ? String(p.boundaryIndex.new) : `${p.boundaryIndex.old ?? '–'} → ${p.boundaryIndex.new ?? '–'}`;
  const sections = [...p.sectionsAdded.map((s) => `+${s}`), ...p.sectionsRemoved.map((s) => `−${s}`)].join(' ');
  return html`<tr${p.cacheBust ? html` class="bust-row"` : ''}><td><code>${p.name}</code></td><td>${p.status}</td><td>${hash}</td><td class="n">${size(p.staticTokens)}</td><td>${boundary}</td><td>${sections}</td></tr>`;
}

function sectionNote(s: SectionChange): string {
  if (s.moved) return `moved ${s.kind.old} → ${s.kind.new}`;
  const kind = s.kind.new ?? s.kind.old;
  return `${s.status} · ${kind} · bytes ${size(s.bytes)}`;
}

function textChangeHtml(title: string, note: string, change: TextChange<{ name: string }>): Markup {
  const hunks = change.hunks.length > 0 ? change.hunks.map(hunkHtml) : html`<span class="dl muted">(text unchanged)</span>`;
  return html`<details class="text-entry change" open data-name="${title}"><summary><code>${title}</code> · ${note}</summary><pre class="diff">${hunks}</pre></details>`;
}

function hunkHtml(hunk: Hunk): Markup {
  const lines = hunk.lines.map((l) => html`<span class="dl ${l.kind}">${l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}${l.text}</span>`);
  return html`<span class="dl hunk">${hunk.header}</span>${lines}`;
}

function size(s: SizeChange): string {
  return s.delta === 0 ? number(s.new) : `${number(s.old)} → ${number(s.new)}`;
}
