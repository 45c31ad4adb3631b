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
    bytes: textFeature(text, 'bytes'),
    words: textFeature(text, 'words'),
    numbers: textFeature(text, 'numbers'),
    symbols: textFeature(text, 'symbols'),
    newlines: textFeature(text, 'newlines'),
    indents: textFeature(text, 'indents'),
    nonAscii: textFeature(text, 'nonAscii'),
  };
}

/** One feature alone: the estimator reads only those its model weighs (the current Claude 3–4.6 model: none of them). */
export function textFeature(text: string, name: keyof TextFeatures): number {
  switch (name) {
    case 'bytes':
      return Buffer.byteLength(text);
    case 'words':
      return count(text, /\p{L}+/gu);
    case 'numbers':
      return count(text, /\d+/g);
    case 'symbols':
      return count(text, /[\p{P}\p{S}]/gu);
    case 'newlines':
      return count(text, /\n/g);
    case 'indents':
      return count(text, /[ \t]{2,}/g);
    case 'nonAscii':
      return count(text, /[^\x00-\x7f]/g);
  }
}

function count(text: string, pattern: RegExp): number {
  let n = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}
