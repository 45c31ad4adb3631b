/**
 * The offline Claude estimate: there is no public tokenizer for Claude 3 and
 * later, so a text's count is predicted from its o200k_base count and cheap
 * features, with coefficients fitted on published Claude counts
 * (claude-coefficients.ts, refitted by `bench/fit-claude-tokens.mjs`).
 */
import { textFeature, type TextFeatures } from './text-features.js';

/** Which Claude tokenizer a count was made with (see `claudeTokenizerOf`). */
export type ClaudeTokenizer = 'claude-3-to-4-6' | 'claude-4-7';

/** One fitted model: published count ≈ overhead + Σ weight × feature. */
export interface ClaudeModel {
  overhead: number;
  weights: Readonly<Partial<Record<FeatureName, number>>>;
}

export type FeatureName = 'o200k' | keyof TextFeatures;

/** How well a model's estimates match published counts (the fit: bench/claude-fit.ts). */
export interface FitQuality {
  pieces: number;
  /** Σ estimate / Σ published count. */
  totalRatio: number;
  within10: number;
  within20: number;
  /** The relative error that 90 % of pieces stay within: the band the cache check uses. */
  p90Error: number;
}

export interface ClaudeCalibration {
  data: string;
  split: string;
  tokenizerThreshold: number;
  models: Readonly<Record<ClaudeTokenizer, ClaudeModel & { training: number; heldOut: FitQuality }>>;
  /** Held out, each piece against its own tokenizer's model. */
  heldOut: FitQuality;
  /** Held out, one model fitted for both tokenizers: why there are two. */
  singleModelHeldOut: FitQuality;
}

/** Tokens the text adds to a prompt: the model's count without the counting request's overhead, rounded. */
export function estimateClaudeTokens(model: ClaudeModel, text: string, o200k: () => number): number {
  let sum = 0;
  for (const [name, weight] of Object.entries(model.weights) as [FeatureName, number][]) {
    sum += weight * (name === 'o200k' ? o200k() : textFeature(text, name));
  }
  return Math.round(Math.max(0, sum));
}

/**
 * Which tokenizer a model id uses: Claude Opus 4.7 brought a new one, so any
 * Claude 4.7 or later (and a Claude 5) uses it; older ids, and ids without a
 * version (`claude-sonnet`, `claude-mythos-preview`), the one before — the
 * smaller count, the safe side for a minimum-length check.
 *
 * Anthropic's release notes (platform.claude.com/docs/en/release-notes/overview,
 * as stored in llms-txt-archive/anthropic-platform, read 2026-12-04): Claude
 * Fable 5 and Mythos 5 "use the tokenizer introduced with Claude Opus 4.7 …
 * roughly 30% more tokens" than models before it (2026-06-09); Claude Sonnet 5
 * "uses a new tokenizer that produces approximately 30% more tokens"
 * (2026-06-30). No flat factor is applied: the `claude-4-7` model is fitted on
 * published counts of that tokenizer (claude-coefficients.ts).
 */
export function claudeTokenizerFor(canonicalId: string): ClaudeTokenizer {
  const version = /-(\d+)-(\d+)(?:$|-)/.exec(canonicalId) ?? /-(\d+)(?:$|-)/.exec(canonicalId);
  if (!version) return 'claude-3-to-4-6';
  const major = Number(version[1]);
  const minor = version[2] === undefined ? 0 : Number(version[2]);
  // Old ids put the version first (`claude-3-5-haiku`): a major of 3 is always old.
  return major > 4 || (major === 4 && minor >= 7) ? 'claude-4-7' : 'claude-3-to-4-6';
}
