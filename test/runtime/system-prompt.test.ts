import { describe, expect, it } from 'vitest';
import {
  asSystemPrompt,
  isSystemPrompt,
  renderSystemPrompt,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
} from '../../compiler/runtime/system-prompt.js';

describe('SystemPrompt', () => {
  it('is only what asSystemPrompt made', () => {
    const parts = ['a', 'b'];
    const prompt = asSystemPrompt(parts);
    expect(isSystemPrompt(prompt)).toBe(true);
    expect(isSystemPrompt(parts)).toBe(false);
    expect(isSystemPrompt([...prompt])).toBe(false);
    expect(isSystemPrompt('a')).toBe(false);
  });

  it('copies and freezes, so neither the caller nor anyone else can change it', () => {
    const parts = ['a', 'b'];
    const prompt = asSystemPrompt(parts);
    parts.push('c');
    expect(prompt).toEqual(['a', 'b']);
    expect(Object.isFrozen(prompt)).toBe(true);
    expect(() => (prompt as unknown as string[]).push('x')).toThrow(TypeError);
  });

  it('returns a prompt that is already branded as it is', () => {
    const prompt = asSystemPrompt(['a']);
    expect(asSystemPrompt(prompt)).toBe(prompt);
  });

  it('refuses parts that are not strings', () => {
    expect(() => asSystemPrompt(['a', 1 as unknown as string])).toThrow(/asSystemPrompt: parts\[1\] must be a string; got number 1/);
  });
});

describe('renderSystemPrompt', () => {
  const prompt = asSystemPrompt(['static', SYSTEM_PROMPT_DYNAMIC_BOUNDARY, 'dynamic']);

  it('joins parts with blank lines and drops the boundary', () => {
    expect(renderSystemPrompt(prompt)).toBe('static\n\ndynamic');
  });

  it('shows the boundary on its own line when asked', () => {
    expect(renderSystemPrompt(prompt, { showBoundary: true })).toBe(
      `static\n\n${SYSTEM_PROMPT_DYNAMIC_BOUNDARY}\n\ndynamic`,
    );
  });
});
