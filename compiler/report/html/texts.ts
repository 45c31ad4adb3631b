/**
 * Every section's and agent's text, one element per line, each line tied to
 * its source file and line (the run it is in carries file and include chain;
 * the line carries its number). Dynamic sections show their template with
 * their inputs and cache policy.
 */
import type { LineRun } from '../source-lines.js';
import type { AgentView, ReportData, SectionView } from '../report-data.js';
import { esc, number } from './escape.js';

/** Above this many texts, the sections start closed: the page stays quick to open. */
const OPEN_UP_TO = 40;

export function sectionsHtml(data: ReportData): string {
  const open = data.sections.length <= OPEN_UP_TO;
  return `<section id="sections"><h2>Sections</h2>${data.sections.map((s) => sectionHtml(s, open)).join('')}</section>`;
}

export function agentsHtml(data: ReportData): string {
  if (data.agents.length === 0) return '<section id="agents"><h2>Agents</h2><p class="muted">No agents in this bundle.</p></section>';
  const rows = data.agents.map(
    (a) =>
      `<tr><td><a href="#${a.id}">${esc(a.name)}</a></td><td>${a.tools.length > 0 ? esc(a.tools.join(', ')) : '<span class="muted">(all)</span>'}</td>` +
      `<td>${a.model === null ? '<span class="muted">(inherits)</span>' : esc(a.model)}</td><td class="n">${number(a.tokens)}</td><td>${esc(a.description)}</td></tr>`,
  );
  const table =
    '<table><thead><tr><th>agent</th><th>tools</th><th>model</th><th class="n">tokens</th><th>description</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`;
  const open = data.agents.length <= OPEN_UP_TO;
  return `<section id="agents"><h2>Agents</h2>${table}${data.agents.map((a) => agentHtml(a, open)).join('')}</section>`;
}

function sectionHtml(s: SectionView, open: boolean): string {
  const kind = s.kind === 'static' ? 'static' : `dynamic, ${s.cache}`;
  const summary = `<code>${esc(s.name)}</code> · ${kind} · ~${number(s.tokens)} tokens · <span class="mono">${esc(s.source)}</span>`;
  const facts: string[] = [`in ${s.profiles.length > 0 ? s.profiles.map(esc).join(', ') : 'no profile'}`];
  if (s.kind === 'dynamic') {
    const optional = new Set(s.optional);
    const inputs = s.inputs.map((i) => `<code>${esc(i)}</code>${optional.has(i) ? ' (optional)' : ''}`);
    facts.push(`template rendered per request from inputs: ${inputs.length > 0 ? inputs.join(', ') : 'none'}`);
    if (s.cache === 'uncached') facts.push(`<span class="warn">uncached</span>: ${esc(s.reason ?? '(no reason given)')}`);
  }
  return (
    `<details class="text-entry" id="${s.id}" data-name="${esc(s.name)}"${open ? ' open' : ''}><summary>${summary}</summary>` +
    `<p class="entry-facts">${facts.join(' · ')}</p>${linesHtml(s.runs, s.source)}</details>`
  );
}

function agentHtml(a: AgentView, open: boolean): string {
  const summary = `agent <code>${esc(a.name)}</code> · ~${number(a.tokens)} tokens · <span class="mono">${esc(a.source)}</span>`;
  return `<details class="text-entry" id="${a.id}" data-name="${esc(`agent ${a.name}`)}"${open ? ' open' : ''}><summary>${summary}</summary>${linesHtml(a.runs, a.source)}</details>`;
}

function linesHtml(runs: readonly LineRun[], ownSource: string): string {
  const html = runs.map((run) => {
    // A run from another file says so above its lines; the chain is on hover and in the source panel.
    const from = run.file === ownSource && run.chain.length === 0 ? '' : `<span class="from">from ${esc(run.file)}${run.chain.length > 0 ? ` · via ${esc(run.chain.join(' → '))}` : ''}</span>`;
    const lines = run.lines.map((line, i) => `<span class="ln" data-line="${run.firstLine + i}">${esc(line)}</span>`).join('');
    return `<span class="run" data-file="${esc(run.file)}" data-chain="${esc(run.chain.join('\n'))}">${from}${lines}</span>`;
  });
  return `<pre class="lines">${html.join('')}</pre>`;
}
