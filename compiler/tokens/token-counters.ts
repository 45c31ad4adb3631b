/**
 * Which token counter each configured model uses, and counting a text with
 * every counter the build needs. OpenAI models: exact o200k_base. Claude
 * models: the calibrated estimate for the model's tokenizer, or Anthropic's
 * count_tokens results when exact mode fetched them (exact-counts.ts).
 * Gemini and Amazon Nova: o200k_base as a stand-in, not calibrated (their
 * tokenizers are not public either and no counts were available to fit on).
 */
import { canonicalModelId } from '../cache-facts/cache-fact-lookup.js';
import { exactClaudeCounter, GEMINI_COUNTER, isAmazonModel, NOVA_COUNTER, O200K_COUNTER, UNCALIBRATED_ERROR } from './counter-names.js';
import { sha256 } from '../core/hash.js';
import type { TokenCount } from '../runtime/manifest.js';
import { CLAUDE_CALIBRATION } from './claude-coefficients.js';
import { claudeTokenizerFor, estimateClaudeTokens } from './claude-estimate.js';
import type { ClaudeTokenizer } from './claude-estimate.js';
import { loadO200kCounts, type O200kCount } from './o200k.js';

export interface TokenCounter {
  /** Recorded in the manifest beside each count. */
  name: string;
  method: TokenCount['method'];
  /** Relative error of its estimates: 90 % of held-out pieces stay within it. Not applied to a count marked exact. */
  error: number;
  /** Where `error` comes from, for the cache check's note. */
  errorSource: string;
  count(text: string, o200k: () => O200kCount): TokenCount;
}

/** Exact counts fetched before emitting: per model id, text sha256 → tokens. */
export type ExactCounts = ReadonlyMap<string, ReadonlyMap<string, number>>;

export interface TokenCounting {
  /** The counter of each configured model; a model without one (unknown) is absent. */
  forModel(model: string): TokenCounter | undefined;
  /** The first configured model's counter: its count is the manifest's `tokens`. */
  primary: TokenCounter;
  /** Every counter in use, by name, sorted. */
  counters: readonly TokenCounter[];
  /** Counts `text` with every counter in use (o200k once, shared by all). */
  countAll(text: string): { tokens: number; tokenCounts: Record<string, TokenCount> };
}

/** The o200k_base count of a text: counted here, or looked up among counts made elsewhere (background-counter.ts). */
export type O200kCounter = (text: string) => O200kCount;

export async function loadTokenCounting(models: readonly string[], exact: ExactCounts = new Map()): Promise<TokenCounting> {
  return tokenCounting(models, exact, await loadO200kCounts());
}

/** The counters of `models`, counting o200k_base with `countO200k`. */
export function tokenCounting(models: readonly string[], exact: ExactCounts, countO200k: O200kCounter): TokenCounting {
  const byModel = new Map<string, TokenCounter>();
  const byName = new Map<string, TokenCounter>();
  for (const model of models) {
    const counter = counterFor(model, exact.get(model));
    if (!counter) continue;
    const known = byName.get(counter.name) ?? counter;
    byName.set(known.name, known);
    byModel.set(model, known);
  }
  if (byName.size === 0) byName.set(O200K.name, O200K);
  const counters = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  const primary = byModel.get(models[0] ?? '') ?? counters[0]!;
  return {
    forModel: (model) => byModel.get(model),
    primary,
    counters,
    countAll: (text) => countAll(text, counters, primary, countO200k),
  };
}

function countAll(text: string, counters: readonly TokenCounter[], primary: TokenCounter, countO200k: O200kCounter) {
  let o200k: O200kCount | undefined;
  const shared = () => (o200k ??= countO200k(text));
  const tokenCounts: Record<string, TokenCount> = {};
  for (const counter of counters) tokenCounts[counter.name] = counter.count(text, shared);
  return { tokens: tokenCounts[primary.name]!.tokens, tokenCounts };
}

const O200K: TokenCounter = {
  name: O200K_COUNTER,
  method: 'exact',
  error: 0,
  errorSource: 'exact',
  // A text with a run too long to count whole is counted in slices (o200k.ts): close, and said to be an estimate.
  count: (_text, o200k) => {
    const { tokens, exact } = o200k();
    return { tokens, method: exact ? 'exact' : 'estimate' };
  },
};

function standIn(name: string, whose: string): TokenCounter {
  return {
    name,
    method: 'estimate',
    error: UNCALIBRATED_ERROR,
    errorSource: `not calibrated: o200k_base stands in for ${whose} tokenizer, with an assumed ±30 %`,
    count: (_text, o200k) => ({ tokens: o200k().tokens, method: 'estimate' }),
  };
}

const GEMINI = standIn(GEMINI_COUNTER, 'Gemini’s');
const NOVA = standIn(NOVA_COUNTER, 'Amazon Nova’s');

function counterFor(model: string, exact: ReadonlyMap<string, number> | undefined): TokenCounter | undefined {
  const { host, id } = canonicalModelId(model);
  if (host === 'openai') return O200K;
  if (host === 'gemini') return GEMINI;
  if (host === null) return undefined;
  if (isAmazonModel(host, id)) return NOVA;
  const estimate = claudeEstimator(claudeTokenizerFor(id));
  // Nothing counted (offline, no key): the estimate under its own name, so the manifest never names a count that was not made.
  return exact && exact.size > 0 ? exactClaude(model, exact, estimate) : estimate;
}

function claudeEstimator(tokenizer: ClaudeTokenizer): TokenCounter {
  const model = CLAUDE_CALIBRATION.models[tokenizer];
  return {
    name: `${tokenizer}-estimate`,
    method: 'estimate',
    error: model.heldOut.p90Error,
    errorSource: `90 % of ${model.heldOut.pieces} held-out pieces within ±${(model.heldOut.p90Error * 100).toFixed(1)} %`,
    count: (text, o200k) => ({ tokens: estimateClaudeTokens(model, text, () => o200k().tokens), method: 'estimate' }),
  };
}

/**
 * Anthropic's counts where exact mode has them; a text it could not count
 * (offline, refused) is estimated, and its entry says so.
 */
function exactClaude(model: string, counts: ReadonlyMap<string, number>, estimate: TokenCounter): TokenCounter {
  const name = exactClaudeCounter(model);
  return {
    name,
    method: 'exact',
    // Used only for a text that was not counted, whose count is then the estimate's.
    error: estimate.error,
    errorSource: estimate.errorSource,
    count: (text, o200k) => {
      const tokens = counts.get(sha256(text));
      return tokens === undefined ? estimate.count(text, o200k) : { tokens, method: 'exact' };
    },
  };
}
