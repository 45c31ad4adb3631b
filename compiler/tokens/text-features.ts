/**
 * What the Claude estimator reads of a text: cheap counts, one pass of
 * regular expressions each, so the estimate costs far less than a tokenizer.
 * The fit (`scripts/fit-claude-tokens.mjs`) and the estimator read the same
 * features from this one function, so a refit can never drift from what the
 * build computes.
 */
export interface TextFeatures {
  bytes: number;
  /** Runs of letters (ASCII or not): roughly what a BPE vocabulary covers in one or two tokens. */
  words: number;
  /** Runs of digits: numbers split into short pieces. */
  numbers: number;
  /** Punctuation and symbol characters, each often a token of its own. */
  symbols: number;
  newlines: number;
  /** Runs of two or more spaces or tabs (indentation). */
  indents: number;
  /** Characters outside ASCII (UTF-16 units): emoji, box drawing, other scripts cost more per character. */
  nonAscii: number;
}

export function textFeatures(text: string): TextFeatures {
  return {
    bytes: Buffer.byteLength(text),
    words: count(text, /\p{L}+/gu),
    numbers: count(text, /\d+/g),
    symbols: count(text, /[\p{P}\p{S}]/gu),
    newlines: count(text, /\n/g),
    indents: count(text, /[ \t]{2,}/g),
    nonAscii: count(text, /[^\x00-\x7f]/g),
  };
}

function count(text: string, pattern: RegExp): number {
  let n = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}
