/** Each profile as a bar of its sections to scale, with the boundary, the minimum cacheable lines and the costs. */
import type { ProfileView, ReportData } from '../report-data.js';
import { amount, html, join, number, percent, plural, type Markup } from './escape.js';

export function profilesHtml(data: ReportData): Markup {
  const legend = join([
    html`<p class="legend"><span><i class="swatch" style="background:var(--static)"></i>static</span>`,
    html`<span><i class="swatch" style="background:var(--cached)"></i>dynamic, cached per session</span>`,
    html`<span><i class="swatch" style="background:var(--uncached)"></i>dynamic, uncached</span>`,
    html`<span>▌ boundary</span><span style="color:#7b3fa0">┆ minimum cacheable prefix per model</span>`,
    html`<span class="muted">full width = ${number(data.scaleTokens)} tokens</span></p>`,
    html`<p class="muted">Costs are in input tokens at the model’s base input price, cache writes and reads weighted by the provider’s multipliers; `,
    html`the dynamic tail is counted at base price, by its template size.</p>`,
  ]);
  return html`<section id="profiles"><h2>Profiles</h2>${legend}${data.profiles.map((p) => profileHtml(p, data))}</section>`;
}

function profileHtml(p: ProfileView, data: ReportData): Markup {
  const description = p.description ? html` <small>${p.description}</small>` : '';
  const bust = p.cacheBust ? html`<p class="warn" role="alert">⚠ static prefix changed: the global prompt cache is lost for this profile</p>` : '';
  return html`<article class="profile${p.cacheBust ? ' bust' : ''}" id="${p.id}" data-profile="${p.name}"><h3>${p.name}${description}</h3>${bust}${barHtml(p, data)}<p class="facts">static prefix ~${number(p.staticTokens)} tokens in ${plural(p.boundaryIndex, 'section')} · hash <code>${String(p.staticPrefixHash).slice(0, 12)}</code> · dynamic tail ~${number(p.dynamicTokens)} tokens (template size) · <span class="mono">${p.source}</span></p>${costTable(p)}</article>`;
}

function barHtml(p: ProfileView, data: ReportData): Markup {
  const total = p.staticTokens + p.dynamicTokens;
  const segments = p.sections.map((s, i) => {
    const kind = s.kind === 'static' ? 'static' : s.cache === 'uncached' ? 'dynamic uncached' : 'dynamic cached';
    const boundary = i === p.boundaryIndex ? boundaryMark(p) : '';
    const label = `${s.name} · ${s.kind}${s.cache ? `, ${s.cache}` : ''} · ~${number(s.tokens)} tokens`;
    return html`${boundary}<a class="seg ${kind}" href="#${s.id}" style="flex-grow:${Math.max(s.tokens, 1)}" title="${label}" aria-label="${label}"></a>`;
  });
  if (p.boundaryIndex === p.sections.length) segments.push(boundaryMark(p));
  const lines = data.models
    .filter((m) => m.minimumTokens !== null)
    .map(
      (m, i) =>
        // A line near the right end carries its label on its left, inside the track.
        html`<div class="min" style="left:${percent(m.minimumTokens!, data.scaleTokens)}" title="${`${m.model} caches prefixes of ${number(m.minimumTokens!)} tokens or more`}"><span style="top:${-18 - 13 * i}px${m.minimumTokens! > 0.75 * data.scaleTokens ? ';left:auto;right:4px' : ''}">${m.model} ≥ ${number(m.minimumTokens!)}</span></div>`,
    );
  return html`<div class="track"><div class="bar" style="width:${percent(total, data.scaleTokens)}">${segments}</div>${lines}</div>`;
}

function boundaryMark(p: ProfileView): Markup {
  return html`<span class="boundary" title="${`boundary: ${p.boundaryIndex} static sections before it, ~${number(p.staticTokens)} tokens`}"></span>`;
}

function costTable(p: ProfileView): Markup | '' {
  if (p.costs.length === 0) return '';
  const rows = p.costs.map(({ facts, cost, verdict: judged, staticTokens }) => {
    if (facts.minimumTokens === null || judged === null) return html`<tr><td>${facts.model}</td><td colspan="5" class="warn">no cache facts known for this model</td></tr>`;
    const verdict =
      judged === 'cached'
        ? html`<span class="ok">yes</span>`
        : judged === 'not-cached'
          ? html`<span class="warn">no — ${number(facts.minimumTokens - staticTokens)} tokens short</span>`
          : html`<span class="warn">maybe — the estimate is within its error of the minimum</span>`;
    const prices = cost
      ? html`<td class="n">${amount(cost.cold)}</td><td class="n">${amount(cost.warm)}</td><td class="n">${amount(cost.savedPer1000)}</td>`
      : html`<td colspan="3" class="muted">no price facts for this model</td>`;
    return html`<tr><td>${facts.model}</td><td class="n">${number(facts.minimumTokens)}</td><td>${verdict}</td>${prices}</tr>`;
  });
  return html`<table class="costs"><thead><tr><th>model</th><th class="n">minimum</th><th>static prefix cached?</th><th class="n">cold request</th><th class="n">warm request</th><th class="n">saved per 1,000 requests</th></tr></thead><tbody>${rows}</tbody></table>`;
}
