import { describe, expect, it } from 'vitest';
import {
  buildEffectiveSystemPrompt,
  type EffectiveSystemPromptInput,
} from '../../compiler/runtime/priority-chain.js';
import { isSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B } from '../../compiler/runtime/system-prompt.js';

const DEFAULT = ['static one', 'static two', B, 'dynamic'];
const H = '# Custom Agent Instructions';

// Every branch of docs/runtime.md#the-priority-chain, with and without `append`: first match wins.
const cases: [string, EffectiveSystemPromptInput, string[]][] = [
  ['default alone', { defaultSystemPrompt: DEFAULT }, DEFAULT],
  ['default + append', { defaultSystemPrompt: DEFAULT, appendSystemPrompt: 'extra' }, [...DEFAULT, 'extra']],
  ['custom replaces the default', { defaultSystemPrompt: DEFAULT, customSystemPrompt: 'custom' }, ['custom']],
  [
    'custom + append',
    { defaultSystemPrompt: DEFAULT, customSystemPrompt: 'custom', appendSystemPrompt: 'extra' },
    ['custom', 'extra'],
  ],
  ['agent replaces the default', { defaultSystemPrompt: DEFAULT, agentSystemPrompt: 'agent' }, ['agent']],
  [
    'agent wins over custom',
    { defaultSystemPrompt: DEFAULT, agentSystemPrompt: 'agent', customSystemPrompt: 'custom', appendSystemPrompt: 'x' },
    ['agent', 'x'],
  ],
  [
    'proactive agent goes under a heading after the default',
    { defaultSystemPrompt: DEFAULT, agentSystemPrompt: 'agent', proactive: true, appendSystemPrompt: 'extra' },
    [...DEFAULT, `${H}\nagent`, 'extra'],
  ],
  [
    'proactive agent given in parts',
    { defaultSystemPrompt: DEFAULT, agentSystemPrompt: ['a1', 'a2'], proactive: true },
    [...DEFAULT, `${H}\na1\n\na2`],
  ],
  [
    'proactive without an agent is the default',
    { defaultSystemPrompt: DEFAULT, proactive: true, customSystemPrompt: null },
    DEFAULT,
  ],
  [
    'coordinator replaces the default',
    { defaultSystemPrompt: DEFAULT, coordinatorSystemPrompt: 'coordinator', customSystemPrompt: 'custom' },
    ['coordinator'],
  ],
  [
    'coordinator + agent appends the agent, then append',
    {
      defaultSystemPrompt: DEFAULT,
      coordinatorSystemPrompt: ['c1', 'c2'],
      agentSystemPrompt: 'agent',
      proactive: true,
      appendSystemPrompt: 'extra',
    },
    ['c1', 'c2', 'agent', 'extra'],
  ],
  [
    'override replaces everything, and append is not added',
    {
      defaultSystemPrompt: DEFAULT,
      overrideSystemPrompt: 'override',
      coordinatorSystemPrompt: 'coordinator',
      agentSystemPrompt: 'agent',
      customSystemPrompt: 'custom',
      appendSystemPrompt: 'extra',
      proactive: true,
    },
    ['override'],
  ],
  ['override in parts', { defaultSystemPrompt: DEFAULT, overrideSystemPrompt: ['o1', 'o2'] }, ['o1', 'o2']],
  [
    'empty and blank prompts count as absent',
    {
      defaultSystemPrompt: DEFAULT,
      overrideSystemPrompt: '',
      coordinatorSystemPrompt: [],
      agentSystemPrompt: ['  ', ''],
      customSystemPrompt: '\n',
      appendSystemPrompt: '',
    },
    DEFAULT,
  ],
];

describe('buildEffectiveSystemPrompt', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    const prompt = buildEffectiveSystemPrompt(input);
    expect(prompt).toEqual(expected);
    expect(isSystemPrompt(prompt)).toBe(true);
  });
});
