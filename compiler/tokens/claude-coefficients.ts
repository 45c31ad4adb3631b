/**
 * The Claude estimator's coefficients, written by `node bench/fit-claude-tokens.mjs --write`
 * (do not edit by hand; the test refits the training part and expects these).
 * One model per Claude tokenizer: published count ≈ overhead + Σ weight × feature
 * (features: text-features.ts, o200k = o200k_base tokens). `overhead` is the fixed
 * cost of the request the published counts were made with; a text in a prompt adds
 * the rest. `heldOut`: measured on pieces the fit never saw.
 */
import type { ClaudeCalibration } from './claude-estimate.js';

export const CLAUDE_CALIBRATION: ClaudeCalibration = {
  "data": "../shared/tokens/claude-counts.jsonl: 197 pieces of Claude Code's system prompt (Piebald-AI/claude-code-system-prompts @ 391175e) with published Claude counts; 2 published as 0 tokens left out (skill-code-review-conventions-dimension.md, tool-description-glob-compact.md)",
  "split": "held out: the 30 % of file names whose sha256 starts below 0.3 × 2^32 (51 pieces); fitted on the other 144",
  "tokenizerThreshold": 1.278074968,
  "models": {
    "claude-3-to-4-6": {
      "overhead": 6.115641209,
      "weights": {
        "o200k": 1.102676315
      },
      "training": 79,
      "heldOut": {
        "pieces": 20,
        "totalRatio": 0.9937940285,
        "within10": 1,
        "within20": 1,
        "p90Error": 0.06886002416
      }
    },
    "claude-4-7": {
      "overhead": 11.41063054,
      "weights": {
        "o200k": 1.265701537,
        "bytes": 0.1807550787,
        "words": -0.8423242777
      },
      "training": 65,
      "heldOut": {
        "pieces": 31,
        "totalRatio": 0.9882375685,
        "within10": 0.9032258065,
        "within20": 1,
        "p90Error": 0.09472445898
      }
    }
  },
  "heldOut": {
    "pieces": 51,
    "totalRatio": 0.9887134284,
    "within10": 0.9411764706,
    "within20": 1,
    "p90Error": 0.08264660929
  },
  "singleModelHeldOut": {
    "pieces": 51,
    "totalRatio": 0.8924397846,
    "within10": 0.2156862745,
    "within20": 0.8431372549,
    "p90Error": 0.2120303367
  }
};
