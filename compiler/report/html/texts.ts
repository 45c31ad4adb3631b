/**
 * Every section's and agent's text, one element per line, each line tied to
 * its source file and line (the run it is in carries file and include chain;
 * the line carries its number). Dynamic sections show their template with
 * their inputs and cache policy.
 */
import type { LineRun } from '../source-lines.js';
import type { AgentView, ReportData, SectionView } from '../report-data.js';
import { html, join, number, type Markup } from './escape.js';

/** Above this many texts, the sections start closed: the page stays quick to open. */
const OPEN_UP_TO = 40;

export function sectionsHtml(data: ReportData): Markup {
  const open = data.sections.length <= OPEN_UP_TO;
  return html`<section id="sections"><h2>Sections</h2>${data.sections.map((s) => sectionHtml(s, open))}</section>`;
}

export function agentsHtml(data: ReportData): Markup {
  if (data.agents.length === 0) return html`<section id="agents"><h2>Agents</h2><p class="muted">No agents in this bundle.</p></section>`;
  const table = html`<table><thead><tr><th>agent</th><th>tools</th><th>model</th><th class="n">tokens</th><th>description</th></tr></thead><tbody>${data.agents.map(agentRow)}</tbody></table>`;
  const open = data.agents.length <= OPEN_UP_TO;
  return html`<section id="agents"><h2>Agents</h2>${table}${data.agents.map((a) => agentHtml(a, open))}</section>`;
}

function agentRow(a: AgentView): Markup {
  const tools = a.tools.length > 0 ? a.tools.join(', ') : html`<span class="muted">(all)</span>`;
  const model = a.model === null ? html`<span class="muted">(inherits)</span>` : a.model;
  return html`<tr><td><a href="#${a.id}">${a.name}</a></td><td>${tools}</td><td>${model}</td><td class="n">${number(a.tokens)}</td><td>${a.description}</td></tr>`;
}

function sectionHtml(s: SectionView, open: boolean): Markup {
  const kind = s.kind === 'static' ? 'static' : `dynamic, ${s.cache}`;
  const summary = html`<code>${s.name}</code> · ${kind} · ~${number(s.tokens)} tokens · <span class="mono">${s.source}</span>`;
  const facts: Markup[] = [html`in ${s.profiles.length > 0 ? s.profiles.join(', ') : 'no profile'}`];
  if (s.kind === 'dynamic') {
    const optional = new Set(s.optional);
    const inputs = s.inputs.map((i) => html`<code>${i}</code>${optional.has(i) ? ' (optional)' : ''}`);
    facts.push(html`template rendered per request from inputs: ${inputs.length > 0 ? join(inputs, ', ') : 'none'}`);
    if (s.cache === 'uncached') facts.push(html`<span class="warn">uncached</span>: ${s.reason ?? '(no reason given)'}`);
  }
  return html`<details class="text-entry" id="${s.id}" data-name="${s.name}"${open ? html` open` : ''}><summary>${summary}</summary><p class="entry-facts">${join(facts, ' · ')}</p>${linesHtml(s.runs, s.source)}</details>`;
}

function agentHtml(a: AgentView, open: boolean): Markup {
  const summary = html`agent <code>${a.name}</code> · ~${number(a.tokens)} tokens · <span class="mono">${a.source}</span>`;
  return html`<details class="text-entry" id="${a.id}" data-name="${`agent ${a.name}`}"${open ? html` open` : ''}><summary>${summary}</summary>${linesHtml(a.runs, a.source)}</details>`;
}

function linesHtml(runs: readonly LineRun[], ownSource: string): Markup {
  const pieces = runs.map((run) => {
    // A run from another file says so above its lines; the chain is on hover and in the source panel.
    const from = run.file === ownSource && run.chain.length === 0 ? '' : html`<span class="from">from ${run.file}${run.chain.length > 0 ? ` · via ${run.chain.join(' → ')}` : ''}</span>`;
    // The line number is the manifest's or a source map's: a crafted bundle may hold a string there, so it is escaped like any value.
    const lines = run.lines.map((line, i) => html`<span class="ln" data-line="${run.firstLine + i}">${line}</span>`);
    return html`<span class="run" data-file="${run.file}" data-chain="${run.chain.join('\n')}">${from}${lines}</span>`;
  });
  return html`<pre class="lines">${pieces}</pre>`;
}
