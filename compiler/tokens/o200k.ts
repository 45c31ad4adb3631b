/**
 * Exact o200k_base counts (OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series
 * tokenizer), from gpt-tokenizer. Chosen over js-tiktoken after measuring
 * both on this project's machine (Node 20.20, the 1.9 MB corpus): the same
 * counts, gpt-tokenizer 6–10 MB/s against 0.9 MB/s, and 0.65 s to load
 * against 2–4 s for js-tiktoken to build its ranks. Loaded only by a build
 * that counts — never by a no-change build — through this dynamic import.
 */
import { readFileSync } from 'node:fs';

export type CountO200k = (text: string) => number;

/** A count, and whether it is exact: false when a run too long to merge whole was counted in slices. */
export interface O200kCount {
  tokens: number;
  exact: boolean;
}

/**
 * Longest run without white space counted whole. Byte-pair merging takes
 * time with the square of a run's length (200,000 `[` in a row: 20 s), so a
 * longer run — a base64 blob, a minified line — is counted in slices of this
 * many characters, each cut off by a token or two at most: such a text's
 * count is an estimate (`O200kCount.exact`).
 */
export const MAX_RUN = 1000;

/**
 * The [start, end) of each run of more than `MAX_RUN` characters without
 * white space, in one pass (a pattern such as `\S{1001,}` tries again from
 * every character of a shorter run: 250 ms on 280 KB of 900-character runs).
 * White space is what `\s` matches, as in the tokenizer's own pattern.
 */
function longRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !isSpace(text.charCodeAt(i))) continue;
    if (i - start > MAX_RUN) runs.push([start, i]);
    start = i + 1;
  }
  return runs;
}

function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

export async function loadO200k(): Promise<CountO200k> {
  const count = await loadO200kCounts();
  return (text) => count(text).tokens;
}

/** Written beside the compiled counter by `npm run build:tool`: gpt-tokenizer's o200k_base ranks, as JSON. */
export const RANKS_JSON = 'o200k_base.ranks.json';

/**
 * gpt-tokenizer's o200k_base counter, on its own ranks. Its module of ranks
 * is 2.4 MB of JavaScript, compiled on each load (0.21 s here); the same
 * array as JSON parses in 0.13 s, and under a cold build's load, on a second
 * core shared with other threads, the difference grows (in a profile, the
 * thread was ready at 0.55 s instead of 1.0–1.4 s). Run from the
 * TypeScript sources (the tests), or should the file be missing, the module
 * is loaded: the same ranks, the same counts.
 */
async function loadCountTokens(): Promise<(text: string, options: { disallowedSpecial: Set<string> }) => number> {
  let ranks: unknown;
  try {
    ranks = JSON.parse(readFileSync(new URL(`./${RANKS_JSON}`, import.meta.url), 'utf8'));
  } catch {
    return (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
  }
  const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
  return GptEncoding.getEncodingApi('o200k_base', () => ranks as (string | number[])[]).countTokens;
}

/** The counter with what it knows of each count (one pass finds the long runs). */
export async function loadO200kCounts(): Promise<(text: string) => O200kCount> {
  const countTokens = await loadCountTokens();
  // A prompt's text is text: `<|endoftext|>` written in it is counted as the characters it is, never refused.
  const options = { disallowedSpecial: new Set<string>() };
  const whole = (text: string): number => countTokens(text, options);
  return (text) => {
    const runs = longRuns(text);
    return runs.length === 0 ? { tokens: whole(text), exact: true } : { tokens: sliceCounts(text, runs, whole), exact: false };
  };
}

/**
 * The counts of `text` cut inside its long runs, every `MAX_RUN` characters
 * (never between the halves of a surrogate pair); what comes before a run
 * stays with its first slice, so a run's leading space is counted as usual.
 */
function sliceCounts(text: string, runs: ReadonlyArray<[number, number]>, whole: CountO200k): number {
  let total = 0;
  let from = 0;
  for (const [start, end] of runs) {
    for (let cut = start + MAX_RUN; cut < end; cut += MAX_RUN) {
      const at = isHighSurrogate(text.charCodeAt(cut - 1)) ? cut - 1 : cut;
      total += whole(text.slice(from, at));
      from = at;
    }
  }
  return total + whole(text.slice(from));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
