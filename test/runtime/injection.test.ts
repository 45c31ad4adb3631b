import { describe, expect, it } from 'vitest';
import { appendSystemContext, prependUserContext } from '../../compiler/runtime/injection.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { EMBEDDED_BUNDLE_DIR } from '../../compiler/context/wording.js';
import { asSystemPrompt, isSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B } from '../../compiler/runtime/system-prompt.js';

describe('appendSystemContext', () => {
  const prompt = asSystemPrompt(['static', B, 'dynamic']);

  it('appends the entries as key: value lines, after the prompt', () => {
    const result = appendSystemContext(prompt, { gitStatus: 'On branch main', cacheBreaker: 'x' });
    expect(result).toEqual(['static', B, 'dynamic', 'gitStatus: On branch main\ncacheBreaker: x']);
    expect(isSystemPrompt(result)).toBe(true);
  });

  it('adds nothing for an empty context or blank values', () => {
    expect(appendSystemContext(prompt, {})).toEqual(['static', B, 'dynamic']);
    expect(appendSystemContext(prompt, { gitStatus: '  ' })).toEqual(['static', B, 'dynamic']);
  });
});

describe('prependUserContext', async () => {
  // Worded by the embedded prompt set's `user-context` text.
  const wording = await loadBundle(EMBEDDED_BUNDLE_DIR);
  const messages = [{ role: 'user' as const, content: 'hello' }];

  it('puts a system-reminder user message first, in a new array', () => {
    const result = prependUserContext(messages, { claudeMd: 'Use tabs.', currentDate: "Today's date is 2025-01-02." }, wording);
    expect(result).toHaveLength(2);
    expect(result[1]).toBe(messages[0]);
    expect(messages).toHaveLength(1);
    const first = result[0] as { role: string; content: string };
    expect(first.role).toBe('user');
    expect(first.content).toMatch(/^<system-reminder>\n/);
    expect(first.content).toContain("# claudeMd\nUse tabs.\n# currentDate\nToday's date is 2025-01-02.\n");
    expect(first.content).toMatch(/<\/system-reminder>\n$/);
  });

  it('adds nothing when the context is empty, but still returns a new array', () => {
    const result = prependUserContext(messages, { claudeMd: '' }, wording);
    expect(result).toEqual(messages);
    expect(result).not.toBe(messages);
  });
});
