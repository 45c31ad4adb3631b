/**
 * Given two bundles: what changed, loudest first — the profiles whose static
 * prefix hash changed (every cached prefix lost), sections moved across the
 * boundary — then each changed text as a line diff.
 */
import type { ProfileChange, SectionChange, SizeChange } from '../../bundle/bundle-diff.js';
import type { DiffView } from '../report-data.js';
import type { TextChange } from '../text-changes.js';
import type { Hunk } from '../text-diff.js';
import { esc, number } from './escape.js';

export function changesHtml(view: DiffView, newLabel: string): string {
  const { diff, text } = view;
  const busts = diff.profiles.filter((p) => p.cacheBust);
  const banner =
    busts.length > 0
      ? `<div class="bust-banner" role="alert"><strong>⚠ Static prefix changed — global prompt-cache bust</strong><br>` +
        `${busts.map((p) => `<code>${esc(p.name)}</code>`).join(', ')}: every cached prefix of ${busts.length === 1 ? 'this profile' : 'these profiles'} is lost on the next request.</div>`
      : '<p class="ok"><strong>Static prefixes unchanged</strong> — the global prompt cache keeps hitting.</p>';
  const moved = diff.sections.filter((s) => s.moved);
  const movedHtml =
    moved.length > 0
      ? `<p class="warn">Moved across the boundary: ${moved.map((s) => `<code>${esc(s.name)}</code> (${s.kind.old} → ${s.kind.new})`).join(', ')}</p>`
      : '';
  const changed = diff.profiles.filter((p) => p.status !== 'unchanged');
  const table =
    changed.length > 0
      ? '<table><thead><tr><th>profile</th><th>change</th><th>static prefix hash</th><th class="n">static tokens</th><th>boundary</th><th>sections</th></tr></thead>' +
        `<tbody>${changed.map(profileRow).join('')}</tbody></table>`
      : '<p class="muted">No profile changed.</p>';
  const sections = text.sections.map((c) => textChangeHtml(`section ${c.change.name}`, sectionNote(c.change), c));
  const agents = text.agents.map((c) => textChangeHtml(`agent ${c.change.name}`, c.change.status, c));
  return (
    `<section id="changes"><h2>Changes from <code>${esc(view.oldLabel)}</code> to <code>${esc(newLabel)}</code></h2>` +
    `${banner}${movedHtml}${table}${sections.join('')}${agents.join('')}</section>`
  );
}

function profileRow(p: ProfileChange): string {
  const short = (h: string | null) => (h === null ? '–' : esc(h.slice(0, 12)));
  const hash = p.cacheBust
    ? `<span class="warn">⚠ <code>${short(p.staticPrefixHash.old)}</code> → <code>${short(p.staticPrefixHash.new)}</code></span>`
    : `<code>${short(p.staticPrefixHash.new ?? p.staticPrefixHash.old)}</code>`;
  const boundary = p.boundaryIndex.old === p.boundaryIndex.new ? String(p.boundaryIndex.new) : `${p.boundaryIndex.old ?? '–'} → ${p.boundaryIndex.new ?? '–'}`;
  const sections = [...p.sectionsAdded.map((s) => `+${esc(s)}`), ...p.sectionsRemoved.map((s) => `−${esc(s)}`)].join(' ');
  return `<tr${p.cacheBust ? ' class="bust-row"' : ''}><td><code>${esc(p.name)}</code></td><td>${p.status}</td><td>${hash}</td><td class="n">${size(p.staticTokens)}</td><td>${boundary}</td><td>${sections}</td></tr>`;
}

function sectionNote(s: SectionChange): string {
  if (s.moved) return `moved ${s.kind.old} → ${s.kind.new}`;
  const kind = s.kind.new ?? s.kind.old;
  return `${s.status} · ${kind} · bytes ${size(s.bytes)}`;
}

function textChangeHtml(title: string, note: string, change: TextChange<{ name: string }>): string {
  return (
    `<details class="text-entry change" open data-name="${esc(title)}"><summary><code>${esc(title)}</code> · ${esc(note)}</summary>` +
    `<pre class="diff">${change.hunks.map(hunkHtml).join('') || '<span class="dl muted">(text unchanged)</span>'}</pre></details>`
  );
}

function hunkHtml(hunk: Hunk): string {
  const lines = hunk.lines.map((l) => `<span class="dl ${l.kind}">${l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}${esc(l.text)}</span>`);
  return `<span class="dl hunk">${esc(hunk.header)}</span>${lines.join('')}`;
}

function size(s: SizeChange): string {
  return s.delta === 0 ? number(s.new) : `${number(s.old)} → ${number(s.new)}`;
}
