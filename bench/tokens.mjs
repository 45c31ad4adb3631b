// Token counting (issue 14): the counters' throughput, their share of a cold
// build at 10,000 files, the tokenizer's load time, and the Claude
// estimator's fit on the held-out calibration pieces.
//
//   npm run build:tool && node bench/tokens.mjs     this part alone, its rows printed
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { buildProcess, ensureTree } from './build.mjs';
import { CLAUDE_CALIBRATION } from '../lib/tokens/claude-coefficients.js';
import { loadTokenCounting } from '../lib/tokens/token-counters.js';
import { DEFAULT_MODELS } from '../lib/core/options.js';

export async function benchTokens({ files = 10000, runs = 3 } = {}) {
  const root = await ensureTree(files);
  const cold = [];
  for (let i = 0; i < runs; i++) {
    await fs.rm(path.join(root, 'node_modules/.cache/prompt-build'), { recursive: true, force: true });
    await fs.rm(path.join(root, 'dist'), { recursive: true, force: true });
    cold.push((await buildProcess(root)).ms);
  }
  const texts = await bundleTexts(path.join(root, 'dist'));
  const megabytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
  const loadMs = medianOf(await repeat(runs, loadInFreshProcess));
  // The counters a default build uses (a Claude estimate, which reads the o200k count), and o200k alone.
  const defaults = await loadTokenCounting(DEFAULT_MODELS);
  const o200k = await loadTokenCounting(['gpt-4o']);
  const countMs = medianOf(await repeat(runs, () => time(() => texts.forEach((t) => defaults.countAll(t)))));
  const o200kMs = medianOf(await repeat(runs, () => time(() => texts.forEach((t) => o200k.countAll(t)))));
  const coldMs = medianOf(cold);
  // The generated trees repeat their phrases, which the tokenizer's cache of pieces favours: real prompt files too.
  const corpus = await corpusTexts();
  const corpusMegabytes = corpus.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
  const corpusMs = corpus.length === 0 ? null : medianOf(await repeat(runs, () => time(() => corpus.forEach((t) => defaults.countAll(t)))));
  return { files, texts: texts.length, megabytes, coldMs, loadMs, countMs, o200kMs, share: (loadMs + countMs) / coldMs, corpus: corpus.length, corpusMegabytes, corpusMs, fit: CLAUDE_CALIBRATION };
}

/** Every text a build counts: static sections and agent prompts, dynamic sections' templates. */
async function bundleTexts(dist) {
  const manifest = JSON.parse(await fs.readFile(path.join(dist, 'manifest.json'), 'utf8'));
  const files = new Set();
  for (const profile of Object.values(manifest.profiles)) for (const s of profile.sections) files.add(s.kind === 'static' ? s.file : s.template);
  for (const agent of Object.values(manifest.agents)) files.add(agent.file);
  return Promise.all([...files].sort().map((f) => fs.readFile(path.join(dist, f), 'utf8')));
}

/** The third-party prompt files beside the checkout (../shared/corpus), when present. */
async function corpusTexts() {
  const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'shared', 'corpus');
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => path.join(e.parentPath, e.name)).sort();
  return Promise.all(files.map((f) => fs.readFile(f, 'utf8')));
}

/** gpt-tokenizer's o200k_base: import and first count, in a process of its own (the way a cold build pays it). */
function loadInFreshProcess() {
  const script = "const t=performance.now();const m=await import('gpt-tokenizer/encoding/o200k_base');m.countTokens('x');console.log(performance.now()-t)";
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: path.dirname(new URL(import.meta.url).pathname) }, (error, stdout) => (error ? reject(error) : resolve(Number(stdout))));
  });
}

async function time(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function repeat(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

function medianOf(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The rows `npm run bench` adds to the table in docs/benchmarks.md. */
export function tokenRows(t, row) {
  const ms = (v) => `${Math.round(v).toLocaleString('en')} ms`;
  const pct = (v) => `${(v * 100).toFixed(1)} %`;
  const n = t.files.toLocaleString('en');
  row(`token counting, default models (o200k_base + Claude estimate), ${n} files’ ${t.texts.toLocaleString('en')} texts`, `${(t.megabytes / (t.countMs / 1000)).toFixed(1)} MB/s (${t.megabytes.toFixed(1)} MB in ${ms(t.countMs)})`, `o200k_base alone ${(t.megabytes / (t.o200kMs / 1000)).toFixed(1)} MB/s`, '—', '');
  if (t.corpusMs !== null) row(`token counting, default models, the corpus’s ${t.corpus} real prompt files`, `${(t.corpusMegabytes / (t.corpusMs / 1000)).toFixed(1)} MB/s (${t.corpusMegabytes.toFixed(1)} MB in ${ms(t.corpusMs)})`, '—', '—', '');
  row('tokenizer load (gpt-tokenizer o200k_base, fresh process)', ms(t.loadMs), '—', '—', '');
  row(`token counting’s share of a cold build, ${n} files (load + count)`, ms(t.loadMs + t.countMs), `cold build ${ms(t.coldMs)}`, pct(t.share), '');
  const q = (h) => `total ${h.totalRatio.toFixed(3)}×, ${pct(h.within10)} within ±10 %, ${pct(h.within20)} within ±20 %`;
  for (const [tokenizer, model] of Object.entries(t.fit.models)) row(`Claude estimate, ${tokenizer} counts, held out (${model.heldOut.pieces} pieces)`, q(model.heldOut), '—', '—', '±5 %, ≥ 60 %, ≥ 85 %');
  row(`Claude estimate, all held-out pieces (${t.fit.heldOut.pieces})`, q(t.fit.heldOut), '—', '—', '±5 %, ≥ 60 %, ≥ 85 %');
  row('…one model for both tokenizers (not used)', q(t.fit.singleModelHeldOut), '—', '—', '');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = await benchTokens();
  tokenRows(t, (what, measured, floor, ratio, target) => console.log(`| ${what} | ${measured} | ${floor} | ${ratio} | ${target} |`));
}
