/**
 * The report as one self-contained HTML document: inline style and script,
 * nothing loaded from anywhere. The Content-Security-Policy allows exactly
 * that — no network, no other script than the one whose hash it names — so
 * even markup that escaped escaping could run nothing.
 */
import { createHash } from 'node:crypto';
import type { ReportData } from '../report-data.js';
import { changesHtml } from './changes.js';
import { html, join, plural, trusted, type Markup } from './escape.js';
import { profilesHtml } from './profiles.js';
import { LIVE_SCRIPT, PAGE_SCRIPT } from './script.js';
import { PAGE_STYLE } from './style.js';
import { agentsHtml, sectionsHtml } from './texts.js';

/** The first bytes of every report: how `report` recognises a file it may overwrite. */
export const REPORT_MARK = '<!doctype html>\n<!-- prompt-build report -->';

const SCRIPT_HASH = createHash('sha256').update(PAGE_SCRIPT).digest('base64');

/** What the page served by `watch --serve` adds: a script that reloads on rebuild, and the diagnostics of a failed one. */
export interface LiveParts {
  /** Diagnostics of the last build when it failed (the page still shows the last good bundle); null when it built. */
  failure: string[] | null;
}

const LIVE_HASH = createHash('sha256').update(LIVE_SCRIPT).digest('base64');

export function contentSecurityPolicy(live: boolean): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src 'sha256-${SCRIPT_HASH}'${live ? ` 'sha256-${LIVE_HASH}'` : ''}`,
    ...(live ? ["connect-src 'self'"] : []),
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy(false);

/**
 * `usage`: the usage view (`report --usage LOG…`), made by the command from
 * the logs with the same `html` tag — the report does not read logs itself.
 */
export function reportHtml(data: ReportData | null, live: LiveParts | null = null, usage: Markup | null = null): string {
  const title = !data ? 'prompt-build preview' : data.diff ? `prompt-build report: ${data.diff.oldLabel} → ${data.label}` : `prompt-build report: ${data.label}`;
  const body = data ? reportBody(data, usage) : html`<div class="layout"><main><p class="muted">No good build yet: fix the errors above and save.</p></main></div>`;
  return join(
    [
      trusted(REPORT_MARK),
      html`<html lang="en"><head><meta charset="utf-8">`,
      html`<meta http-equiv="Content-Security-Policy" content="${trusted(contentSecurityPolicy(live !== null))}">`,
      html`<meta name="viewport" content="width=device-width, initial-scale=1">`,
      html`<title>${title}</title><style>${trusted(PAGE_STYLE)}</style></head><body>`,
      live?.failure ? failureHtml(live.failure, data !== null) : html``,
      body,
      html`<script>${trusted(PAGE_SCRIPT)}</script>`,
      live ? html`<script>${trusted(LIVE_SCRIPT)}</script>` : html``,
      html`</body></html>`,
      html``,
    ],
    '\n',
  ).value;
}

function reportBody(data: ReportData, usage: Markup | null): Markup {
  const title = data.diff ? `prompt-build report: ${data.diff.oldLabel} → ${data.label}` : `prompt-build report: ${data.label}`;
  const models = data.models.length > 0 ? data.models.map((m) => m.model).join(', ') : 'none';
  const meta = html`bundle <code>${data.label}</code> · ${data.tool} · ${plural(data.profiles.length, 'profile')} · ${plural(data.sections.length, 'section')} · ${plural(data.agents.length, 'agent')} · models: ${models}`;
  const nav = html`${data.diff ? html`<a href="#changes">Changes</a>` : ''}${usage ? html`<a href="#usage">Usage</a>` : ''}<a href="#profiles">Profiles</a><a href="#sections">Sections</a><a href="#agents">Agents</a>`;
  return join(
    [
      html`<header><h1>${title}</h1><p class="muted">${meta}</p><nav>${nav}</nav></header>`,
      html`<div class="layout"><main>`,
      data.diff ? changesHtml(data.diff, data.label) : html``,
      usage ?? html``,
      profilesHtml(data),
      sectionsHtml(data),
      agentsHtml(data),
      html`</main><aside id="source-panel" aria-live="polite"><h2>Source</h2>`,
      html`<p id="source-where">Click a line of any text to see where it is written.</p>`,
      html`<p id="source-section" class="muted"></p><p id="source-chain" class="muted"></p><pre id="source-text"></pre></aside></div>`,
    ],
    '\n',
  );
}

function failureHtml(diagnostics: readonly string[], hasGood: boolean): Markup {
  const note = hasGood ? 'showing the last good build below' : 'nothing has built yet';
  return html`<div class="failure" id="build-failure" role="alert"><strong>✖ Build failed — ${note}</strong><pre>${diagnostics.join('\n\n')}</pre></div>`;
}
