// Reads the calibration data (../shared/tokens/claude-counts.jsonl) into
// pieces with their features, for the refit script and `npm run bench`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { textFeatures } from '../lib/tokens/text-features.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CALIBRATION_FILE = path.resolve(HERE, '..', '..', 'shared', 'tokens', 'claude-counts.jsonl');

/** Pieces with a published count above 0: two pieces are published as 0 tokens, which no text of theirs can be. */
export function readCalibration(file = CALIBRATION_FILE) {
  const rows = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const pieces = rows
    .filter((r) => r.claudeTokens > 0)
    .map((r) => ({ file: r.file, claudeTokens: r.claudeTokens, o200k: countTokens(r.text, { disallowedSpecial: new Set() }), features: textFeatures(r.text) }));
  return { rows: rows.length, dropped: rows.filter((r) => !(r.claudeTokens > 0)).map((r) => r.file), pieces };
}
