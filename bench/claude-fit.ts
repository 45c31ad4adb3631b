/**
 * Calibrating the Claude estimator on published counts: the split, the least
 * squares fit and the error measures. Pure functions, shared by the refit
 * script (`bench/fit-claude-tokens.mjs`, which loads this file through jiti)
 * and the test that checks the committed coefficients, so both read the data
 * alike. Not part of the tool: it stays out of `lib/`.
 *
 * The split is by a hash of the file name — never by the counts — so which
 * pieces are held out is fixed before anything is fitted, and the test can
 * refit on the training part and find the committed coefficients again.
 */
import { createHash } from 'node:crypto';
import type { ClaudeModel, ClaudeTokenizer, FeatureName, FitQuality } from '../compiler/tokens/claude-estimate.js';
import type { TextFeatures } from '../compiler/tokens/text-features.js';

export type { ClaudeModel, ClaudeTokenizer, FeatureName, FitQuality };

export interface CalibrationPiece {
  file: string;
  /** The published count: the text sent as one user message, so it includes the request's fixed overhead. */
  claudeTokens: number;
  o200k: number;
  features: TextFeatures;
}

export const HELD_OUT_SHARE = 0.3;

/** Held out when the first 32 bits of sha256(file) fall in the bottom 30 %: fixed by the name alone. */
export function isHeldOut(file: string): boolean {
  return createHash('sha256').update(file).digest().readUInt32BE(0) / 2 ** 32 < HELD_OUT_SHARE;
}

/** The features a model variant uses, and the value of one of them for a piece. */
export function featureValue(piece: Pick<CalibrationPiece, 'o200k' | 'features'>, name: FeatureName): number {
  return name === 'o200k' ? piece.o200k : piece.features[name];
}

/** The published count the model predicts for a piece: the request overhead and the text's tokens. */
export function predictCount(model: ClaudeModel, piece: Pick<CalibrationPiece, 'o200k' | 'features'>): number {
  return model.overhead + predictTextTokens(model, piece);
}

/** The model's count for a text, without the request overhead: what the text adds to a prompt. */
export function predictTextTokens(model: ClaudeModel, piece: Pick<CalibrationPiece, 'o200k' | 'features'>): number {
  let sum = 0;
  for (const [name, weight] of Object.entries(model.weights) as [FeatureName, number][]) sum += weight * featureValue(piece, name);
  return Math.max(0, sum);
}

/**
 * Weighted least squares with an intercept (the overhead), each piece
 * weighted by 1/count² so that the fit minimises relative error — what
 * "within ±10 %" measures — rather than being ruled by the largest pieces.
 */
export function fitClaudeModel(pieces: readonly CalibrationPiece[], features: readonly FeatureName[], withOverhead = true): ClaudeModel {
  const columns = withOverhead ? features.length + 1 : features.length;
  const ata = Array.from({ length: columns }, () => new Array<number>(columns).fill(0));
  const atb = new Array<number>(columns).fill(0);
  for (const piece of pieces) {
    const w = 1 / piece.claudeTokens ** 2;
    const row = [...(withOverhead ? [1] : []), ...features.map((f) => featureValue(piece, f))];
    for (let i = 0; i < columns; i++) {
      atb[i]! += w * row[i]! * piece.claudeTokens;
      for (let j = 0; j < columns; j++) ata[i]![j]! += w * row[i]! * row[j]!;
    }
  }
  const solution = solve(ata, atb);
  const offset = withOverhead ? 1 : 0;
  return {
    overhead: withOverhead ? solution[0]! : 0,
    weights: Object.fromEntries(features.map((f, i) => [f, solution[i + offset]!])),
  };
}

export function fitQuality(model: ClaudeModel, pieces: readonly CalibrationPiece[]): FitQuality {
  return qualityOf(pieces.map((piece) => [predictCount(model, piece), piece.claudeTokens]));
}

/** Quality of [estimate, published count] pairs. */
export function qualityOf(pairs: readonly (readonly [number, number])[]): FitQuality {
  let estimated = 0;
  let published = 0;
  const errors = pairs.map(([estimate, count]) => {
    estimated += estimate;
    published += count;
    return Math.abs(estimate - count) / count;
  });
  errors.sort((a, b) => a - b);
  const share = (limit: number) => errors.filter((e) => e <= limit).length / errors.length;
  return {
    pieces: pairs.length,
    totalRatio: estimated / published,
    within10: share(0.1),
    within20: share(0.2),
    p90Error: errors[Math.max(0, Math.ceil(0.9 * errors.length) - 1)] ?? 0,
  };
}

/**
 * The published counts were made with two tokenizers: Claude Opus 4.7
 * brought a new one that gives the same text about 1.35–1.45× the tokens of
 * the one before (Anthropic's migration guide says up to 1.35×), and the
 * counts of newer pieces are 4.7's. A count's tokenizer shows only in the
 * count itself — the ratio to o200k falls in two clusters with a gap between
 * them — so the training part is labelled by that ratio, with the threshold
 * halfway (geometrically) between the two clusters' centres, found by
 * two-means on the training part alone.
 */
export function tokenizerThreshold(training: readonly CalibrationPiece[]): number {
  const logs = training.map(logRatio).sort((a, b) => a - b);
  let [low, high] = [logs[0]!, logs[logs.length - 1]!];
  for (let round = 0; round < 100; round++) {
    const cut = (low + high) / 2;
    const lows = logs.filter((v) => v < cut);
    const highs = logs.filter((v) => v >= cut);
    const next = [mean(lows), mean(highs)] as const;
    if (next[0] === low && next[1] === high) break;
    [low, high] = next;
  }
  return Math.exp((low + high) / 2);
}

export function claudeTokenizerOf(piece: CalibrationPiece, threshold: number): ClaudeTokenizer {
  return Math.exp(logRatio(piece)) < threshold ? 'claude-3-to-4-6' : 'claude-4-7';
}

/** Published tokens per o200k token, with the request overhead (about 7 tokens) kept out of small pieces' ratios. */
function logRatio(piece: CalibrationPiece): number {
  return Math.log(piece.claudeTokens / (piece.o200k + 7));
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** k-fold cross-validation on the training part: folds by position in file-name order, each fold predicted by a fit on the others. */
export function crossValidate(pieces: readonly CalibrationPiece[], features: readonly FeatureName[], folds = 5, withOverhead = true): FitQuality {
  const sorted = [...pieces].sort((a, b) => (a.file < b.file ? -1 : 1));
  const pairs: [number, number][] = [];
  for (let k = 0; k < folds; k++) {
    const model = fitClaudeModel(sorted.filter((_, i) => i % folds !== k), features, withOverhead);
    for (const piece of sorted.filter((_, i) => i % folds === k)) pairs.push([predictCount(model, piece), piece.claudeTokens]);
  }
  return qualityOf(pairs);
}

/** Gaussian elimination with partial pivoting; the systems here are at most 9 × 9. */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    if (Math.abs(p) < 1e-300) throw new Error('singular least-squares system: a feature is constant or a copy of another');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r]![col]! / p;
      for (let c = col; c <= n; c++) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}
