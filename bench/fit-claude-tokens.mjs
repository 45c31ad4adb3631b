// Refits the Claude estimator on the training part of the calibration data
// and prints the fit, measured on the held-out part the fit never saw.
//
//   npm run build:tool && node bench/fit-claude-tokens.mjs           print
//   npm run build:tool && node bench/fit-claude-tokens.mjs --write   also rewrite compiler/tokens/claude-coefficients.ts
//
// Model choice is made by 5-fold cross-validation on the training part only
// (the variants are listed below, with their scores printed); the held-out
// part is read once, for the numbers that are reported.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCalibration } from './claude-calibration.mjs';
import { createJiti } from 'jiti';

// The fit is TypeScript outside the tool's own sources (it is not shipped in lib/): jiti compiles it as it loads.
const { claudeTokenizerOf, crossValidate, fitClaudeModel, fitQuality, isHeldOut, HELD_OUT_SHARE, predictCount, qualityOf, tokenizerThreshold } = await createJiti(import.meta.url).import('./claude-fit.ts');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, '..', 'compiler', 'tokens', 'claude-coefficients.ts');

const VARIANTS = [
  ['o200k'],
  ['o200k', 'bytes', 'words'],
  ['o200k', 'words', 'symbols', 'newlines', 'indents'],
  ['bytes', 'words', 'numbers', 'symbols', 'newlines', 'indents', 'nonAscii'],
  ['o200k', 'bytes', 'words', 'numbers', 'symbols', 'newlines', 'indents', 'nonAscii'],
];
const TOKENIZERS = ['claude-3-to-4-6', 'claude-4-7'];

export function fitAll() {
  const { rows, dropped, pieces } = readCalibration();
  const training = pieces.filter((p) => !isHeldOut(p.file));
  const heldOut = pieces.filter((p) => isHeldOut(p.file));
  const threshold = tokenizerThreshold(training);
  const group = (list, t) => list.filter((p) => claudeTokenizerOf(p, threshold) === t);
  const models = {};
  const selection = {};
  for (const t of TOKENIZERS) {
    const scored = VARIANTS.map((features) => ({ features, cv: crossValidate(group(training, t), features) }));
    selection[t] = scored;
    // Best share within ±10 % in cross-validation; on a tie, fewer features.
    const best = scored.reduce((a, b) => (b.cv.within10 > a.cv.within10 + 1e-9 ? b : a));
    const model = fitClaudeModel(group(training, t), best.features);
    models[t] = { ...model, features: best.features, training: group(training, t).length, heldOut: fitQuality(model, group(heldOut, t)) };
  }
  // Each held-out piece against the model of the tokenizer its count was made with.
  const combined = qualityOf(heldOut.map((p) => [predictCount(models[claudeTokenizerOf(p, threshold)], p), p.claudeTokens]));
  // One model for both tokenizers, as if a count's tokenizer were unknown: what a single estimator can do on these data.
  const single = fitClaudeModel(training, ['o200k', 'bytes', 'words']);
  return { rows, dropped, training: training.length, heldOut: heldOut.length, threshold, models, selection, combined, single: fitQuality(single, heldOut) };
}

const pct = (v) => `${(v * 100).toFixed(1)} %`;
const describe = (q) => `${q.pieces} pieces: total ${q.totalRatio.toFixed(3)}×, ${pct(q.within10)} within ±10 %, ${pct(q.within20)} within ±20 %, 90 % within ±${pct(q.p90Error)}`;

function coefficientsModule(fit) {
  const round = (v) => Number(v.toPrecision(10));
  const roundQuality = (q) => Object.fromEntries(Object.entries(q).map(([k, v]) => [k, round(v)]));
  const data = {
    data: `../shared/tokens/claude-counts.jsonl: ${fit.rows} pieces of Claude Code's system prompt (Piebald-AI/claude-code-system-prompts @ 391175e) with published Claude counts; ${fit.dropped.length} published as 0 tokens left out (${fit.dropped.join(', ')})`,
    split: `held out: the ${HELD_OUT_SHARE * 100} % of file names whose sha256 starts below ${HELD_OUT_SHARE} × 2^32 (${fit.heldOut} pieces); fitted on the other ${fit.training}`,
    tokenizerThreshold: round(fit.threshold),
    models: Object.fromEntries(
      Object.entries(fit.models).map(([t, m]) => [t, { overhead: round(m.overhead), weights: Object.fromEntries(Object.entries(m.weights).map(([k, v]) => [k, round(v)])), training: m.training, heldOut: roundQuality(m.heldOut) }]),
    ),
    heldOut: roundQuality(fit.combined),
    singleModelHeldOut: roundQuality(fit.single),
  };
  return `/**
 * The Claude estimator's coefficients, written by \`node bench/fit-claude-tokens.mjs --write\`
 * (do not edit by hand; the test refits the training part and expects these).
 * One model per Claude tokenizer: published count ≈ overhead + Σ weight × feature
 * (features: text-features.ts, o200k = o200k_base tokens). \`overhead\` is the fixed
 * cost of the request the published counts were made with; a text in a prompt adds
 * the rest. \`heldOut\`: measured on pieces the fit never saw.
 */
import type { ClaudeCalibration } from './claude-estimate.js';

export const CLAUDE_CALIBRATION: ClaudeCalibration = ${JSON.stringify(data, null, 2)};
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fit = fitAll();
  console.log(`${fit.rows} pieces, ${fit.dropped.length} published as 0 left out; training ${fit.training}, held out ${fit.heldOut}`);
  console.log(`tokenizer threshold (published / (o200k + 7)): ${fit.threshold.toFixed(3)}`);
  for (const [t, scored] of Object.entries(fit.selection)) {
    console.log(`\n${t}: 5-fold cross-validation on the training part`);
    for (const s of scored) console.log(`  ${s.features.join(' + ').padEnd(72)} ${describe(s.cv)}`);
    const m = fit.models[t];
    console.log(`  chosen: ${m.features.join(' + ')}; overhead ${m.overhead.toFixed(2)}, ${Object.entries(m.weights).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ')}`);
    console.log(`  held out: ${describe(m.heldOut)}`);
  }
  console.log(`\nheld out, both tokenizers: ${describe(fit.combined)}`);
  console.log(`held out, one model for both (tokenizer unknown): ${describe(fit.single)}`);
  if (process.argv.includes('--write')) {
    fs.writeFileSync(OUT, coefficientsModule(fit));
    console.log(`\nwrote ${path.relative(process.cwd(), OUT)}`);
  }
}
