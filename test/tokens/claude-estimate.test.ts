/**
 * The Claude estimator against the published counts it was calibrated on
 * (../shared/tokens/claude-counts.jsonl). Two checks keep the reported error
 * honest: refitting the training part must give the committed coefficients
 * again (coefficients fitted on the held-out part would not), and the targets
 * are measured here, on the held-out part, from the committed coefficients.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CALIBRATION } from '../../compiler/tokens/claude-coefficients.js';
import { claudeTokenizerFor } from '../../compiler/tokens/claude-estimate.js';
import { claudeTokenizerOf, fitClaudeModel, fitQuality, isHeldOut, predictCount, tokenizerThreshold, type CalibrationPiece, type ClaudeTokenizer, type FeatureName } from '../../bench/claude-fit.js';
import { loadO200k } from '../../compiler/tokens/o200k.js';
import { textFeatures } from '../../compiler/tokens/text-features.js';
import { loadTokenCounting } from '../../compiler/tokens/token-counters.js';
import { REPO } from '../helpers/tree.js';

const DATA = path.resolve(REPO, '../shared/tokens/claude-counts.jsonl');
const present = fs.existsSync(DATA);
const rows = present ? fs.readFileSync(DATA, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { file: string; claudeTokens: number; text: string }) : [];
const o200k = await loadO200k();
const pieces: CalibrationPiece[] = rows.filter((r) => r.claudeTokens > 0).map((r) => ({ file: r.file, claudeTokens: r.claudeTokens, o200k: o200k(r.text), features: textFeatures(r.text) }));
const training = pieces.filter((p) => !isHeldOut(p.file));
const heldOut = pieces.filter((p) => isHeldOut(p.file));
const TOKENIZERS: ClaudeTokenizer[] = ['claude-3-to-4-6', 'claude-4-7'];

describe.runIf(present)('the Claude estimator, on the published counts', () => {
  it('holds out 30 % of the pieces by file name alone, fitted on none of them', () => {
    expect(pieces).toHaveLength(195); // 197, less the two published as 0 tokens
    expect(heldOut.length).toBe(51);
    expect(heldOut.every((p) => isHeldOut(p.file)) && training.every((p) => !isHeldOut(p.file))).toBe(true);
  });

  it('refitting the training part gives the committed coefficients', () => {
    const threshold = tokenizerThreshold(training);
    expect(threshold).toBeCloseTo(CLAUDE_CALIBRATION.tokenizerThreshold, 6);
    for (const tokenizer of TOKENIZERS) {
      const committed = CLAUDE_CALIBRATION.models[tokenizer];
      const group = training.filter((p) => claudeTokenizerOf(p, threshold) === tokenizer);
      expect(group).toHaveLength(committed.training);
      const refit = fitClaudeModel(group, Object.keys(committed.weights) as FeatureName[]);
      expect(refit.overhead).toBeCloseTo(committed.overhead, 5);
      for (const [name, weight] of Object.entries(committed.weights)) expect(refit.weights[name as FeatureName]).toBeCloseTo(weight, 6);
    }
  });

  it('meets the targets on the held-out part: total within ±5 %, ≥ 60 % within ±10 %, ≥ 85 % within ±20 %', () => {
    const threshold = CLAUDE_CALIBRATION.tokenizerThreshold;
    let estimated = 0;
    let published = 0;
    const errors = heldOut.map((piece) => {
      const model = CLAUDE_CALIBRATION.models[claudeTokenizerOf(piece, threshold)];
      const estimate = predictCount(model, piece);
      estimated += estimate;
      published += piece.claudeTokens;
      return Math.abs(estimate - piece.claudeTokens) / piece.claudeTokens;
    });
    const share = (limit: number) => errors.filter((e) => e <= limit).length / errors.length;
    expect(Math.abs(estimated / published - 1)).toBeLessThanOrEqual(0.05);
    expect(share(0.1)).toBeGreaterThanOrEqual(0.6);
    expect(share(0.2)).toBeGreaterThanOrEqual(0.85);
    // What docs/caching-and-tokens.md and the cache check's error band quote is what this measures.
    expect(estimated / published).toBeCloseTo(CLAUDE_CALIBRATION.heldOut.totalRatio, 6);
    expect(share(0.1)).toBeCloseTo(CLAUDE_CALIBRATION.heldOut.within10, 6);
    expect(share(0.2)).toBeCloseTo(CLAUDE_CALIBRATION.heldOut.within20, 6);
    for (const tokenizer of TOKENIZERS) {
      const model = CLAUDE_CALIBRATION.models[tokenizer];
      expect(fitQuality(model, heldOut.filter((p) => claudeTokenizerOf(p, threshold) === tokenizer))).toEqual(
        Object.fromEntries(Object.entries(model.heldOut).map(([k, v]) => [k, expect.closeTo(v, 6)])),
      );
    }
  });

  it('the build’s counter gives the model’s count without the counting request’s overhead', async () => {
    const counting = await loadTokenCounting(['claude-sonnet-4-5', 'claude-opus-4-8']);
    const row = rows.find((r) => r.claudeTokens > 1000)!;
    const piece = pieces.find((p) => p.file === row.file)!;
    const { tokenCounts } = counting.countAll(row.text);
    for (const tokenizer of TOKENIZERS) {
      const model = CLAUDE_CALIBRATION.models[tokenizer];
      expect(tokenCounts[`${tokenizer}-estimate`]).toEqual({ tokens: Math.round(predictCount(model, piece) - model.overhead), method: 'estimate' });
    }
  });
});
it.skipIf(present)('(skipped: ../shared/tokens/claude-counts.jsonl is absent, so the estimator cannot be measured)', () => {});

describe('which Claude tokenizer a model id uses', () => {
  it('Claude 4.7 and later use the new one; older ids and ids without a version the one before', () => {
    const of = (ids: string[]) => ids.map(claudeTokenizerFor);
    expect(of(['claude-opus-4-7', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-haiku-5-1'])).toEqual(Array(4).fill('claude-4-7'));
    expect(of(['claude-opus-4-6', 'claude-sonnet-4-5', 'claude-sonnet-4', 'claude-3-5-haiku', 'claude-3-7-sonnet', 'claude-sonnet'])).toEqual(Array(6).fill('claude-3-to-4-6'));
  });
});
