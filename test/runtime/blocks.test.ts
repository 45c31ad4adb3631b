import { describe, expect, it } from 'vitest';
import { toSystemBlocks, type SystemTextBlock } from '../../compiler/runtime/blocks.js';
import { buildEffectiveSystemPrompt } from '../../compiler/runtime/priority-chain.js';
import { asSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B } from '../../compiler/runtime/system-prompt.js';

const breakpoints = (blocks: SystemTextBlock[]) => blocks.filter((block) => block.cache_control).length;

describe('toSystemBlocks', () => {
  it('makes the static prefix one cached block and the tail another (no scope: the public API has none)', () => {
    const blocks = toSystemBlocks(asSystemPrompt(['s1', 's2', B, 'd1', 'd2']));
    expect(blocks).toEqual([
      { type: 'text', text: 's1\n\ns2', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'd1\n\nd2', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('makes a prompt with no boundary one block, not globally scoped', () => {
    expect(toSystemBlocks(asSystemPrompt(['custom', 'append']))).toEqual([
      { type: 'text', text: 'custom\n\nappend', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('leaves out an empty side of the boundary', () => {
    expect(toSystemBlocks(asSystemPrompt(['s1', B]))).toEqual([
      { type: 'text', text: 's1', cache_control: { type: 'ephemeral' } },
    ]);
    expect(toSystemBlocks(asSystemPrompt([B, 'd1']))).toEqual([
      { type: 'text', text: 'd1', cache_control: { type: 'ephemeral' } },
    ]);
    expect(toSystemBlocks(asSystemPrompt([]))).toEqual([]);
  });

  it('adds no breakpoint when caching is off', () => {
    const blocks = toSystemBlocks(asSystemPrompt(['s1', B, 'd1']), { cache: false });
    expect(blocks).toEqual([
      { type: 'text', text: 's1' },
      { type: 'text', text: 'd1' },
    ]);
  });

  it('puts a proactive agent prompt in the dynamic block', () => {
    const prompt = buildEffectiveSystemPrompt({
      defaultSystemPrompt: ['s1', B, 'd1'],
      agentSystemPrompt: 'agent',
      proactive: true,
    });
    expect(toSystemBlocks(prompt).map((block) => block.text)).toEqual([
      's1',
      'd1\n\n# Custom Agent Instructions\nagent',
    ]);
  });

  it.each([
    [['s1', B, 'd1']],
    [['s1', B, 'd1', B, 'd2']],
    [[B, B, B]],
    [['only']],
    [['s1', 's2', 's3', 's4', 's5', B, 'd1', 'd2', 'd3', 'd4', 'd5']],
  ])('never sends the marker and never uses more than 4 breakpoints: %j', (parts) => {
    const blocks = toSystemBlocks(asSystemPrompt(parts));
    expect(breakpoints(blocks)).toBeLessThanOrEqual(4);
    expect(breakpoints(blocks)).toBe(blocks.length);
    for (const block of blocks) expect(block.text).not.toContain(B);
  });
});
