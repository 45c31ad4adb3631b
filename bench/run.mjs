// `npm run bench`: every benchmark of the project in one run, each reported
// as a ratio against a floor measured in the same run, printed as the
// Markdown table docs/benchmarks.md carries (between its bench-table markers).
//
//   npm run bench                  1,000- and 10,000-file trees
//   npm run bench -- --quick       1,000 files only
//   npm run bench -- --docs        also rewrite the table in docs/benchmarks.md
//                                  (--readme, its old name, does the same)
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBuild } from './build.mjs';
import { benchContext } from './context.mjs';
import { benchLint } from './lint.mjs';
import { benchLsp } from './lsp.mjs';
import { benchPathological } from './pathological.mjs';
import { benchPython, hasPython } from './python.mjs';
import { benchRender } from './render.mjs';
import { benchReport } from './report.mjs';
import { benchStartup } from './startup.mjs';
import { benchAdapters } from './adapters.mjs';
import { benchAssemble } from './runtime.mjs';
import { benchWatch, PAUSE_MS } from './watch.mjs';
import { benchTokens, tokenRows } from './tokens.mjs';
import { benchUsage } from './usage.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const sizes = args.includes('--quick') ? [1000] : [1000, 10000];
const rows = [];
const row = (what, measured, floor, ratio, target) => {
  rows.push({ what, measured, floor, ratio, target });
  console.error(`${what}: ${measured} (floor ${floor}) → ${ratio} ${target}`);
};
const ms = (v) => `${v >= 100 ? Math.round(v).toLocaleString('en') : v.toFixed(1)} ms`;
const us = (ns) => `${(ns / 1000).toFixed(2)} µs`;
const x = (r) => `${r.toFixed(2)}×`;

// The small, I/O-sensitive measurements first: the build benchmarks leave
// gigabytes of written pages for the disk to flush, which slows git for a while.
const a = await benchAssemble(path.join(HERE, '..', 'dist'), { iterations: 300 });
const r = await benchRender({ iterations: 300 });
const ad = await benchAdapters(path.join(HERE, '..', 'dist'));
const c = await benchContext({ iterations: 15 });
const s = await benchStartup();
row('no-change build of this repository’s prompts (whole process)', ms(s.buildMs), `node -e 0 ${ms(s.nodeMs)}`, x(s.buildRatio), '≤ 1.6×');
row('render of the default profile (whole process)', ms(s.renderMs), `node -e 0 ${ms(s.nodeMs)}`, x(s.renderRatio), '≤ 2.5×');

for (const files of sizes) {
  // Medians of five: on this machine one run of either tool, and of floor (b), moves by a fifth or more (docs/benchmarks.md,
  // "Reading the numbers").
  const b = await benchBuild({ files, runs: 5 });
  row(`cold build, ${files.toLocaleString('en')} files (whole process)`, ms(b.coldMs), `(b) ${ms(b.floorBMs)}`, x(b.coldVsB), files >= 10000 ? '≤ 0.30×' : '');
  row(`cold build against Eleventy 3.1.8, ${files.toLocaleString('en')} files (whole process)`, ms(b.coldMs), `Eleventy ${ms(b.eleventyMs)}`, x(b.coldVsEleventy), files === 1000 ? '≤ 0.8×' : '');
  row(`no-change build, ${files.toLocaleString('en')} files (whole process)`, ms(b.warmMs), `(a) ${ms(b.floorAMs)}`, x(b.warmVsA), files >= 10000 ? '≤ 3×' : '');
  row(`peak RSS, ${files.toLocaleString('en')} files`, `${Math.round(b.peakRssMb)} MB`, '—', '—', files >= 10000 ? '< 1 GiB' : '');
  const li = await benchLint({ files, runs: 3 });
  row(`lint with the built-in rules, ${files.toLocaleString('en')} files (whole process, cold)`, ms(li.ms), `(b) ${ms(li.floorBMs)}`, x(li.ratio), files >= 10000 ? '≤ 1×' : '');
  const w = await benchWatch({ root: path.join(HERE, '.trees', `tree-${files}`) });
  row(`watch: fragment edit → rebuilt, ${files.toLocaleString('en')} files`, ms(w.incrementalMs), `cold ${ms(w.coldMs)}`, `${(w.ratio * 100).toFixed(2)} %`, files >= 10000 ? '≤ 2 %' : '');
  row(
    `watch: leaf edit (one section), ${files.toLocaleString('en')} files`,
    ms(w.leafMs),
    `writing + renaming its ${w.commitMegabytes.toFixed(1)} MB ${ms(w.commitFloorMs)}`,
    x(w.leafMs / w.commitFloorMs),
    '< 50 ms',
  );
  row(`watch: leaf edit ${PAUSE_MS / 1000} s after the last rebuild, ${files.toLocaleString('en')} files`, ms(w.pausedLeafMs), '—', '—', '');
  const p = await benchReport({ files });
  row(`report: read the bundle + the report's data, ${files.toLocaleString('en')} files`, ms(p.readMs + p.dataMs), '—', '—', files >= 10000 ? '< 1 s' : '');
  row(`report: the HTML page (${p.megabytes.toFixed(1)} MB), ${files.toLocaleString('en')} files`, ms(p.htmlMs), '—', '—', '');
  const l = await benchLsp({ files });
  row(`language server: start → first diagnostics, ${files.toLocaleString('en')} files`, ms(l.firstMs), `cold build ${ms(b.coldMs)}`, x(l.firstMs / b.coldMs), files >= 10000 ? '≤ 1×' : '');
  row(`language server: one-character edit → answer, a section, ${files.toLocaleString('en')} files`, ms(l.sectionMs), '—', '—', '< 100 ms');
  row(`language server: one-character edit → answer, a fragment ${l.includers} sections include, ${files.toLocaleString('en')} files`, ms(l.fragmentMs), '—', '—', '< 100 ms');
  row(`language server: peak RSS, ${files.toLocaleString('en')} files`, `${Math.round(l.peakRssMb)} MB`, '—', '—', files >= 10000 ? '< 1 GiB' : '');
}
// Hostile shapes the default limits accept (issue 12): a whole process each, built or refused within the bound.
for (const p of await benchPathological()) {
  const outcome = p.expected ? '' : ` (exit ${p.code}: not as expected)`;
  row(`${p.name}, whole process`, `${ms(p.ms)}, ${Math.round(p.peakRssMb)} MB peak RSS${outcome}`, '—', '—', '< 5 s, < 1 GiB');
}
// Token counting (issue 14): at the largest tree, and the Claude estimator's held-out fit.
tokenRows(await benchTokens({ files: sizes[sizes.length - 1], runs: 3 }), row);
row('assemble default profile, warm section cache', us(a.assembleNs), `array.join ${us(a.floorNs)}`, x(a.ratio), '≤ 3×');
row('loadBundle of this repository’s dist/', ms(a.loadBundleMs), '—', '—', '');
// The provider adapters (issue 14) against the first toSystemBlocks, on the same prompt.
for (const [name, fn] of [['anthropic', 'toAnthropicSystem'], ['bedrock', 'toBedrockSystem'], ['openai', 'toOpenAIRequest'], ['gemini', 'toGeminiSystemInstruction']]) {
  row(`${fn}, the default profile's prompt`, us(ad.ns[name]), `first toSystemBlocks ${us(ad.ns.floor)}`, x(ad.ratios[name]), '≤ 1.2×');
}
row('render a 4 KB dynamic section (thunk)', us(r.thunkNs), `template literal ${us(r.floorNs)}`, x(r.ratio), '≤ 1.5×');
row('…the same with Handlebars precompiled', us(r.handlebarsNs), `template literal ${us(r.floorNs)}`, x(r.handlebarsNs / r.floorNs), '');
// The Python runtime (issue 16), when python3 exists: its own floors, measured in the same python3 process.
if (hasPython()) {
  const py = benchPython();
  row('Python: render a 4 KB dynamic section (generated module)', us(py.renderNs), `f-string ${us(py.renderFloorNs)}`, x(py.renderRatio), '≤ 1.5×');
  row('Python: assemble default profile, warm section cache', us(py.assembleNs), `"\\n\\n".join ${us(py.assembleFloorNs)}`, x(py.assembleRatio), '≤ 3×');
  row('Python: load_bundle of this repository’s dist/', ms(py.loadBundleMs), '—', '—', '');
} else {
  row('Python runtime', 'skipped: no python3', '—', '—', '');
}
row('user context discovery, 12 levels with rules', ms(c.discoveryMs), '—', '—', '');
row('git snapshot, 3,000 changed files', ms(c.gitSnapshotMs), `slowest git command ${ms(c.slowestGitCommandMs)}`, x(c.ratio), '≤ 1.5×');
// Usage observability (issue 32), last: it writes a log of ~440 MB, and registers the OpenTelemetry SDKs in this process.
const u = await benchUsage();
row(`usage: read a log of ${u.records.toLocaleString('en')} records (${Math.round(u.logMegabytes)} MB), whole process`, `${ms(u.readMs)}, ${Math.round(u.peakRssMb)} MB peak RSS`, '—', '—', '< 10 s, < 256 MB');
const pct = (ns) => `${((ns / u.ns.assemble) * 100).toFixed(0)} %`;
row('record a response: recordUsage', us(u.ns.record), `warm assemble ${us(u.ns.assemble)}`, pct(u.ns.record), '');
row('…a recorder with the OpenTelemetry sink, no SDK registered', us(u.ns.recorderNoSdk), `warm assemble ${us(u.ns.assemble)}`, pct(u.ns.recorderNoSdk), '≤ 5 %');
row('…what that sink adds, no SDK registered (on a record made already)', us(u.ns.sinkNoSdk), `warm assemble ${us(u.ns.assemble)}`, pct(u.ns.sinkNoSdk), '');
row('…the same with the in-memory OpenTelemetry SDKs registered', us(u.ns.recorderSdk), `warm assemble ${us(u.ns.assemble)}`, pct(u.ns.recorderSdk), '');

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}.`,
  'Floors: (a) read every file + sha256; (b) read every file + gray-matter + remark-parse of every body.',
  '',
  '| measurement | result | floor (same run) | ratio | target |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.what} | ${r.measured} | ${r.floor} | ${r.ratio} | ${r.target} |`),
].join('\n');
console.log(table);

if (args.includes('--docs') || args.includes('--readme')) {
  const page = path.join(HERE, '..', 'docs', 'benchmarks.md');
  const text = await fs.readFile(page, 'utf8');
  const markers = /<!-- bench-table -->[\s\S]*<!-- \/bench-table -->/;
  if (!markers.test(text)) throw new Error('docs/benchmarks.md has no <!-- bench-table --> … <!-- /bench-table --> markers');
  await fs.writeFile(page, text.replace(markers, () => `<!-- bench-table -->\n${table}\n<!-- /bench-table -->`));
}
