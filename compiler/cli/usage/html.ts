/**
 * `prompt-build report --usage LOG…`: the usage view of the HTML report — the
 * table `prompt-build usage` gives per profile × static prefix × model, each
 * prefix's misses by cause and the TTL advisor's verdict — in the words of
 * the other formats (describe.ts). A log is anyone's data: every value goes
 * through the report's `html` tag, which escapes it.
 */
import { html, type Markup } from '../../report/html/escape.js';
import { MISS_CAUSES } from '../../usage/miss-causes.js';
import type { UsageReport } from '../../usage/usage-report.js';
import type { PrefixUsage } from '../../usage/usage-tally.js';
import { changedLine, costLine, count, neverHitLine, percent, prefixLine, prefixOwner, shortHash, ttlLine } from './describe.js';
import { summary } from './text.js';

export function usageHtml(report: UsageReport): Markup {
  const skipped = report.skipped.count > 0 ? html`<p class="warn">${count(report.skipped.count)} line(s) of the logs were not usage records and were skipped${skippedNames(report)}.</p>` : '';
  const table = report.prefixes.length === 0 ? '' : html`<table class="usage"><thead><tr><th>profile / agent</th><th>prefix</th><th>model</th><th>requests</th><th>hit rate</th><th>read</th><th>written</th><th>uncached</th><th>cost (base input tokens)</th><th>saved</th></tr></thead><tbody>${report.prefixes.map(rowHtml)}</tbody></table>`;
  return html`<section id="usage"><h2>Usage</h2><p class="muted">${summary(report)}</p>${table}${report.prefixes.map(prefixHtml)}${skipped}</section>`;
}

function rowHtml(u: PrefixUsage): Markup {
  const saved = u.cost === null || u.cost.uncached === 0 ? '–' : percent(u.cost.saved / u.cost.uncached);
  const owner = u.profile ?? (u.agent === null ? '–' : `agent ${u.agent}`);
  return html`<tr><td>${owner}</td><td><code>${shortHash(u.staticPrefixHash)}</code></td><td>${u.model ?? '–'}</td><td class="n">${count(u.requests)}</td><td class="n">${percent(u.hitRate)}</td><td class="n">${count(u.tokens.read)}</td><td class="n">${count(u.tokens.written)}</td><td class="n">${count(u.tokens.uncached)}</td><td class="n">${u.cost === null ? '–' : count(u.cost.actual)}</td><td class="n">${saved}</td></tr>`;
}

/** A prefix's notes: what it is against the minimum, what changed, each miss with its cause, the TTL verdict. */
function prefixHtml(u: PrefixUsage): Markup | '' {
  const facts = [['cost', costLine(u)], ['prefix', prefixLine(u)], ['changed', changedLine(u)], ['', neverHitLine(u)], ['TTL', ttlLine(u)]].filter((fact): fact is [string, string] => fact[1] !== null);
  if (facts.length === 0 && u.misses.length === 0) return '';
  const misses =
    u.misses.length === 0
      ? ''
      : html`<table class="usage-misses"><thead><tr><th>miss</th><th>requests</th><th>tokens not read</th><th>likely cause</th></tr></thead><tbody>${u.misses.map(
          (m) => html`<tr><td>${m.key}</td><td class="n">${count(m.requests)}</td><td class="n">${m.missedTokens > 0 ? count(m.missedTokens) : '–'}</td><td>${MISS_CAUSES[m.cause]}</td></tr>`,
        )}</tbody></table>`;
  return html`<article class="usage-prefix"><h3>${prefixOwner(u)} <small><code>${shortHash(u.staticPrefixHash)}</code> · ${u.model ?? 'model not named'} (${u.provider})</small></h3><ul>${facts.map(([label, text]) => html`<li>${label ? html`<strong>${label}</strong> ` : ''}${text}</li>`)}</ul>${misses}</article>`;
}

function skippedNames(report: UsageReport): Markup | '' {
  const first = report.skipped.first[0];
  return first === undefined ? '' : html` (the first: ${first.file}:${first.line}, ${first.problem})`;
}
