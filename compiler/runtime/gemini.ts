/**
 * Gemini `systemInstruction` (`Content` with one text `Part`). Gemini's
 * implicit caching matches request prefixes, so the static prefix comes first
 * and the text is byte-identical across sessions up to the boundary.
 */
import { checkSystemPrompt, renderSystemPrompt, type SystemPrompt } from './system-prompt.js';

export interface GeminiSystemInstruction {
  parts: { text: string }[];
}

export function toGeminiSystemInstruction(prompt: SystemPrompt): GeminiSystemInstruction {
  checkSystemPrompt('toGeminiSystemInstruction', prompt);
  const text = renderSystemPrompt(prompt);
  return { parts: text === '' ? [] : [{ text }] };
}
