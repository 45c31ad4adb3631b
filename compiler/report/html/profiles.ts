/** Each profile as a bar of its sections to scale, with the boundary, the minimum cacheable lines and the costs. */
import type { ProfileView, ReportData } from '../report-data.js';
import { amount, esc, number, percent, plural } from './escape.js';

export function profilesHtml(data: ReportData): string {
  const legend =
    '<p class="legend"><span><i class="swatch" style="background:var(--static)"></i>static</span>' +
    '<span><i class="swatch" style="background:var(--cached)"></i>dynamic, cached per session</span>' +
    '<span><i class="swatch" style="background:var(--uncached)"></i>dynamic, uncached</span>' +
    '<span>▌ boundary</span><span style="color:#7b3fa0">┆ minimum cacheable prefix per model</span>' +
    `<span class="muted">full width = ${number(data.scaleTokens)} tokens</span></p>` +
    '<p class="muted">Costs are in input tokens at the model’s base input price, cache writes and reads weighted by the provider’s multipliers; ' +
    'the dynamic tail is counted at base price, by its template size.</p>';
  return `<section id="profiles"><h2>Profiles</h2>${legend}${data.profiles.map((p) => profileHtml(p, data)).join('')}</section>`;
}

function profileHtml(p: ProfileView, data: ReportData): string {
  const description = p.description ? ` <small>${esc(p.description)}</small>` : '';
  const bust = p.cacheBust ? '<p class="warn" role="alert">⚠ static prefix changed: the global prompt cache is lost for this profile</p>' : '';
  return (
    `<article class="profile${p.cacheBust ? ' bust' : ''}" id="${p.id}" data-profile="${esc(p.name)}">` +
    `<h3>${esc(p.name)}${description}</h3>${bust}${barHtml(p, data)}` +
    `<p class="facts">static prefix ~${number(p.staticTokens)} tokens in ${plural(p.boundaryIndex, 'section')} · hash <code>${esc(p.staticPrefixHash.slice(0, 12))}</code>` +
    ` · dynamic tail ~${number(p.dynamicTokens)} tokens (template size) · <span class="mono">${esc(p.source)}</span></p>` +
    `${costTable(p)}</article>`
  );
}

function barHtml(p: ProfileView, data: ReportData): string {
  const total = p.staticTokens + p.dynamicTokens;
  const segments = p.sections.map((s, i) => {
    const kind = s.kind === 'static' ? 'static' : s.cache === 'uncached' ? 'dynamic uncached' : 'dynamic cached';
    const boundary = i === p.boundaryIndex ? boundaryMark(p) : '';
    const label = `${s.name} · ${s.kind}${s.cache ? `, ${s.cache}` : ''} · ~${number(s.tokens)} tokens`;
    return `${boundary}<a class="seg ${kind}" href="#${s.id}" style="flex-grow:${Math.max(s.tokens, 1)}" title="${esc(label)}" aria-label="${esc(label)}"></a>`;
  });
  if (p.boundaryIndex === p.sections.length) segments.push(boundaryMark(p));
  const lines = data.models
    .filter((m) => m.minimumTokens !== null)
    .map(
      (m, i) =>
        `<div class="min" style="left:${percent(m.minimumTokens!, data.scaleTokens)}" title="${esc(`${m.model} caches prefixes of ${number(m.minimumTokens!)} tokens or more`)}">` +
        // A line near the right end carries its label on its left, inside the track.
        `<span style="top:${-18 - 13 * i}px${m.minimumTokens! > 0.75 * data.scaleTokens ? ';left:auto;right:4px' : ''}">${esc(m.model)} ≥ ${number(m.minimumTokens!)}</span></div>`,
    );
  return `<div class="track"><div class="bar" style="width:${percent(total, data.scaleTokens)}">${segments.join('')}</div>${lines.join('')}</div>`;
}

function boundaryMark(p: ProfileView): string {
  return `<span class="boundary" title="${esc(`boundary: ${p.boundaryIndex} static sections before it, ~${number(p.staticTokens)} tokens`)}"></span>`;
}

function costTable(p: ProfileView): string {
  if (p.costs.length === 0) return '';
  const rows = p.costs.map(({ facts, cost }) => {
    if (facts.minimumTokens === null) return `<tr><td>${esc(facts.model)}</td><td colspan="5" class="warn">no cache facts known for this model</td></tr>`;
    const cached = cost?.cacheable ?? p.staticTokens >= facts.minimumTokens;
    const verdict = cached ? '<span class="ok">yes</span>' : `<span class="warn">no — ${number(facts.minimumTokens - p.staticTokens)} tokens short</span>`;
    const prices = cost
      ? `<td class="n">${amount(cost.cold)}</td><td class="n">${amount(cost.warm)}</td><td class="n">${amount(cost.savedPer1000)}</td>`
      : '<td colspan="3" class="muted">no price facts for this model</td>';
    return `<tr><td>${esc(facts.model)}</td><td class="n">${number(facts.minimumTokens)}</td><td>${verdict}</td>${prices}</tr>`;
  });
  return (
    '<table class="costs"><thead><tr><th>model</th><th class="n">minimum</th><th>static prefix cached?</th>' +
    '<th class="n">cold request</th><th class="n">warm request</th><th class="n">saved per 1,000 requests</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}
