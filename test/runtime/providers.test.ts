/**
 * The provider adapters (docs/runtime.md#provider-adapters): each takes a SystemPrompt and returns the
 * provider's own request shape — breakpoints where the provider wants them,
 * the boundary marker never sent, at most 4 breakpoints, only documented
 * fields (the types are checked against the SDKs in provider-types.test.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import {
  appendSystemContext,
  ArgumentError,
  asSystemPrompt,
  buildEffectiveSystemPrompt,
  BundleError,
  createSectionCache,
  getAgentSystemPrompt,
  getSystemPrompt,
  loadBundle,
  PROMPT_CACHE_KEY_MAX_LENGTH,
  staticPrefixHashOf,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B,
  toAnthropicSystem,
  toBedrockSystem,
  toGeminiSystemInstruction,
  toOpenAIRequest,
  type Bundle,
  type SystemPrompt,
} from '../../compiler/runtime/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';
import { FIXTURE_DIR } from './fixture.js';

const prompt = asSystemPrompt(['s1', 's2', B, 'd1', 'd2']);

describe('toAnthropicSystem', () => {
  it('makes the static prefix one block with a breakpoint and the tail another, cache_control only {type}', () => {
    expect(toAnthropicSystem(prompt)).toEqual([
      { type: 'text', text: 's1\n\ns2', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'd1\n\nd2', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('sends a TTL only when asked, the static one no shorter than the tail’s', () => {
    expect(toAnthropicSystem(prompt, { ttl: '1h' }).map((b) => b.cache_control)).toEqual([
      { type: 'ephemeral', ttl: '1h' },
      { type: 'ephemeral', ttl: '1h' },
    ]);
    expect(toAnthropicSystem(prompt, { staticTtl: '1h' }).map((b) => b.cache_control)).toEqual([
      { type: 'ephemeral', ttl: '1h' },
      { type: 'ephemeral' },
    ]);
    expect(toAnthropicSystem(prompt, { staticTtl: '1h', ttl: '5m' }).map((b) => b.cache_control)).toEqual([
      { type: 'ephemeral', ttl: '1h' },
      { type: 'ephemeral', ttl: '5m' },
    ]);
  });

  it('refuses a static TTL shorter than the tail’s (longer TTLs must come first)', () => {
    expect(() => toAnthropicSystem(prompt, { staticTtl: '5m', ttl: '1h' })).toThrow(ArgumentError);
    expect(() => toAnthropicSystem(prompt, { staticTtl: '5m', ttl: '1h' })).toThrow(/longer TTL must come before a shorter one/);
  });

  it('adds scope: global to the static block only when opted in, never to a prompt without a boundary', () => {
    expect(toAnthropicSystem(prompt, { globalScope: true }).map((b) => b.cache_control)).toEqual([
      { type: 'ephemeral', scope: 'global' },
      { type: 'ephemeral' },
    ]);
    expect(toAnthropicSystem(asSystemPrompt(['custom']), { globalScope: true })).toEqual([
      { type: 'text', text: 'custom', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('makes a prompt without a boundary one block; no breakpoints with cache: false', () => {
    expect(toAnthropicSystem(asSystemPrompt(['a', 'b']))).toEqual([{ type: 'text', text: 'a\n\nb', cache_control: { type: 'ephemeral' } }]);
    expect(toAnthropicSystem(prompt, { cache: false })).toEqual([
      { type: 'text', text: 's1\n\ns2' },
      { type: 'text', text: 'd1\n\nd2' },
    ]);
  });
});

describe('toBedrockSystem', () => {
  it('follows each side with a cachePoint block', () => {
    expect(toBedrockSystem(prompt)).toEqual([
      { text: 's1\n\ns2' },
      { cachePoint: { type: 'default' } },
      { text: 'd1\n\nd2' },
      { cachePoint: { type: 'default' } },
    ]);
  });

  it('passes TTLs to the cache points, under the same ordering rule', () => {
    expect(toBedrockSystem(prompt, { staticTtl: '1h' })).toEqual([
      { text: 's1\n\ns2' },
      { cachePoint: { type: 'default', ttl: '1h' } },
      { text: 'd1\n\nd2' },
      { cachePoint: { type: 'default' } },
    ]);
    expect(() => toBedrockSystem(prompt, { staticTtl: '5m', ttl: '1h' })).toThrow(ArgumentError);
  });

  it('leaves out an empty side and its cache point; none at all with cache: false', () => {
    expect(toBedrockSystem(asSystemPrompt(['s', B]))).toEqual([{ text: 's' }, { cachePoint: { type: 'default' } }]);
    expect(toBedrockSystem(asSystemPrompt([B, 'd']))).toEqual([{ text: 'd' }, { cachePoint: { type: 'default' } }]);
    expect(toBedrockSystem(prompt, { cache: false })).toEqual([{ text: 's1\n\ns2' }, { text: 'd1\n\nd2' }]);
  });
});

describe('toGeminiSystemInstruction', () => {
  it('is one text part with the static prefix first', () => {
    expect(toGeminiSystemInstruction(prompt)).toEqual({ parts: [{ text: 's1\n\ns2\n\nd1\n\nd2' }] });
    expect(toGeminiSystemInstruction(asSystemPrompt([]))).toEqual({ parts: [] });
  });
});

describe.each([
  [['s1', B, 'd1']],
  [['s1', B, 'd1', B, 'd2']],
  [[B, B, B]],
  [['only']],
  [['s1', 's2', 's3', 's4', 's5', B, 'd1', 'd2', 'd3', 'd4', 'd5']],
])('every adapter on %j', (parts) => {
  const p = asSystemPrompt(parts);
  const all = {
    anthropic: toAnthropicSystem(p, { globalScope: true, ttl: '1h' }),
    bedrock: toBedrockSystem(p, { ttl: '1h' }),
    openai: toOpenAIRequest(p),
    gemini: toGeminiSystemInstruction(p),
  };

  it('never sends the marker', () => {
    for (const [name, output] of Object.entries(all)) expect(JSON.stringify(output), name).not.toContain(B);
  });

  it('uses at most 4 breakpoints (2, leaving 2 for the messages), one after each non-empty side', () => {
    const sides = (parts.indexOf(B) === -1 ? [parts] : [parts.slice(0, parts.indexOf(B)), parts.slice(parts.indexOf(B) + 1)]).filter(
      (side) => side.some((part) => part !== B),
    ).length;
    const anthropic = all.anthropic.filter((b) => b.cache_control).length;
    const bedrock = all.bedrock.filter((b) => 'cachePoint' in b).length;
    expect(anthropic).toBe(sides);
    expect(bedrock).toBe(sides);
    expect(Math.max(anthropic, bedrock)).toBeLessThanOrEqual(2);
    // Bedrock: a cache point always closes a text block, never opens the list.
    all.bedrock.forEach((block, i) => {
      if ('cachePoint' in block) expect(all.bedrock[i - 1]).toHaveProperty('text');
    });
  });

  it('keeps the text the same across adapters', () => {
    const anthropic = all.anthropic.map((b) => b.text).join('\n\n');
    const bedrock = all.bedrock.flatMap((b) => ('text' in b ? [b.text] : [])).join('\n\n');
    expect(bedrock).toBe(anthropic);
    expect(all.openai.instructions).toBe(anthropic);
    expect(all.gemini.parts.map((part) => part.text).join('')).toBe(anthropic);
  });
});

describe('toOpenAIRequest and the static prefix hash', () => {
  let bundle: Bundle;
  const session = (cwd: string, profile = 'default'): Promise<SystemPrompt> =>
    getSystemPrompt(bundle, { profile, context: { cwd }, cache: createSectionCache() });
  beforeAll(async () => {
    bundle = await loadBundle(FIXTURE_DIR);
  });

  it('derives prompt_cache_key from the profile’s staticPrefixHash: the same for every session, within the documented length', async () => {
    const [a, b] = [toOpenAIRequest(await session('/repo/a')), toOpenAIRequest(await session('/repo/b'))];
    expect(a.instructions).not.toBe(b.instructions);
    expect(a.prompt_cache_key).toBe(b.prompt_cache_key);
    const hash = bundle.manifest.profiles.default!.staticPrefixHash;
    expect(a.prompt_cache_key).toBe(`pb-${hash.slice(0, 32)}`);
    expect(a.prompt_cache_key!.length).toBeLessThanOrEqual(PROMPT_CACHE_KEY_MAX_LENGTH);
    expect(PROMPT_CACHE_KEY_MAX_LENGTH).toBe(64);
    expect(a.instructions.startsWith(`${bundle.profiles.get('default')!.staticTexts.join('\n\n')}\n\n`)).toBe(true);
  });

  it('gives each profile its own key, static-only profiles included', async () => {
    const keys = await Promise.all(['default', 'simple', 'proactive'].map(async (name) => toOpenAIRequest(await session('/r', name)).prompt_cache_key));
    expect(keys.every((key) => key?.startsWith('pb-'))).toBe(true);
    expect(new Set(keys).size).toBe(3);
  });

  it('keeps the key through the priority chain and the system context while the prefix is unchanged', async () => {
    const base = await session('/r');
    const key = toOpenAIRequest(base).prompt_cache_key;
    const chained = buildEffectiveSystemPrompt({ defaultSystemPrompt: base, appendSystemPrompt: 'extra' });
    expect(toOpenAIRequest(appendSystemContext(chained, { gitStatus: 'clean' })).prompt_cache_key).toBe(key);
    const proactive = buildEffectiveSystemPrompt({ defaultSystemPrompt: base, agentSystemPrompt: 'agent', proactive: true });
    expect(toOpenAIRequest(proactive).prompt_cache_key).toBe(key);
  });

  it('sends no key when the prefix is not the bundle’s: a custom prompt, an agent replacing the default, a changed part', async () => {
    const base = await session('/r');
    expect(toOpenAIRequest(buildEffectiveSystemPrompt({ defaultSystemPrompt: base, customSystemPrompt: 'custom' }))).toEqual({
      instructions: 'custom',
    });
    expect(staticPrefixHashOf(buildEffectiveSystemPrompt({ defaultSystemPrompt: base, agentSystemPrompt: 'agent' }))).toBeUndefined();
    expect(staticPrefixHashOf(asSystemPrompt(['edited', ...base.slice(1)], { derivedFrom: [base] }))).toBeUndefined();
    const coordinator = ['c1', 'c2', 'c3', 'c4', 'c5'];
    expect(staticPrefixHashOf(buildEffectiveSystemPrompt({ defaultSystemPrompt: base, coordinatorSystemPrompt: coordinator }))).toBeUndefined();
    expect(staticPrefixHashOf(asSystemPrompt([...base]))).toBeUndefined();
  });

  it('takes an explicit key, within the documented length', async () => {
    const base = await session('/r');
    expect(toOpenAIRequest(base, { promptCacheKey: 'tenant-7' }).prompt_cache_key).toBe('tenant-7');
    expect(() => toOpenAIRequest(base, { promptCacheKey: 'k'.repeat(65) })).toThrow(ArgumentError);
    expect(() => toOpenAIRequest(base, { promptCacheKey: '' })).toThrow(ArgumentError);
  });

  it('changes the key when a static section is edited, not when a dynamic one is', async () => {
    const root = await tempDir('pb-openai-key-');
    await writeTree(root, {
      'prompts/profiles/default.md': '---\nsections: [intro, env]\ncacheWarning: false\n---\n',
      'prompts/sections/intro.md': 'You are helpful.\n',
      'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
    });
    const keyAfterBuild = async (): Promise<string | undefined> => {
      expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
      const built = await loadBundle(path.join(root, 'dist'));
      return toOpenAIRequest(await getSystemPrompt(built, { context: { cwd: '/r' }, cache: createSectionCache() })).prompt_cache_key;
    };
    const first = await keyAfterBuild();
    await fs.writeFile(path.join(root, 'prompts/sections/env.md'), '---\nkind: dynamic\ninputs: [cwd]\n---\nCWD: {{cwd}}\n');
    expect(await keyAfterBuild()).toBe(first);
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), 'You are very helpful.\n');
    const edited = await keyAfterBuild();
    expect(edited).toMatch(/^pb-[0-9a-f]{32}$/);
    expect(edited).not.toBe(first);
  });
});

describe('toOpenAIRequest by model: explicit breakpoints from GPT-5.6 on', () => {
  const hashed = asSystemPrompt(['s1', 's2', B, 'd1'], { staticPrefixHash: 'cd'.repeat(32) });
  const breakpoint = { mode: 'explicit' };

  it.each(['gpt-5.6', 'GPT-5.6', 'gpt-5.6-mini', 'gpt-5.6-pro-2026-07-01', 'openai/gpt-5.6', 'gpt-5.7', 'gpt-6', 'gpt-6.1-nano'])(
    '%s: a developer message whose static prefix and tail each end in a breakpoint',
    (model) => {
      expect(toOpenAIRequest(hashed, { model })).toEqual({
        input: [
          {
            role: 'developer',
            content: [
              { type: 'input_text', text: 's1\n\ns2', prompt_cache_breakpoint: breakpoint },
              { type: 'input_text', text: 'd1', prompt_cache_breakpoint: breakpoint },
            ],
          },
        ],
        prompt_cache_options: { mode: 'implicit' },
        prompt_cache_key: `pb-${'cd'.repeat(16)}`,
      });
    },
  );

  it.each(['gpt-5.5', 'gpt-5', 'gpt-5-mini', 'gpt-4.1', 'gpt-4o', 'o3', 'o4-mini', 'claude-opus-4-5', 'my-gpt-5.6'])('%s: the instructions form', (model) => {
    expect(toOpenAIRequest(hashed, { model })).toEqual({ instructions: 's1\n\ns2\n\nd1', prompt_cache_key: `pb-${'cd'.repeat(16)}` });
  });

  it('turns OpenAI’s own breakpoint off only when asked', () => {
    expect(toOpenAIRequest(hashed, { model: 'gpt-5.6', cacheMode: 'explicit' })).toMatchObject({ prompt_cache_options: { mode: 'explicit' } });
    expect(() => toOpenAIRequest(hashed, { model: 'gpt-5', cacheMode: 'explicit' })).toThrow(/cacheMode must be absent for models before GPT-5.6/);
  });

  it('sends prompt_cache_retention where the model takes it, and refuses it where it does not', () => {
    expect(toOpenAIRequest(hashed, { model: 'gpt-4.1', promptCacheRetention: 'in_memory' })).toMatchObject({ prompt_cache_retention: 'in_memory' });
    expect(toOpenAIRequest(hashed, { model: 'gpt-5.5', promptCacheRetention: '24h' })).toMatchObject({ prompt_cache_retention: '24h' });
    expect(() => toOpenAIRequest(hashed, { model: 'gpt-5.5', promptCacheRetention: 'in_memory' })).toThrow(ArgumentError);
    expect(() => toOpenAIRequest(hashed, { model: 'gpt-5.6', promptCacheRetention: '24h' })).toThrow(/prompt_cache_options.ttl instead/);
  });
});

describe('a static-only profile (the issue #27 example)', () => {
  it('is its own cached block with staticTtl, and the system context goes after it, in Anthropic and Bedrock alike', async () => {
    const root = await tempDir('pb-static-only-');
    await writeTree(root, {
      'prompts/sections/a.md': 'Static A text.\n',
      'prompts/sections/b.md': 'Static B text.\n',
      'prompts/profiles/default.md': '---\nsections: [a, b]\ncacheWarning: false\n---\n',
    });
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    const built = await loadBundle(path.join(root, 'dist'));
    const p = await getSystemPrompt(built, { context: {}, cache: createSectionCache() });
    const prefix = { type: 'text', text: 'Static A text.\n\nStatic B text.', cache_control: { type: 'ephemeral', ttl: '1h' } };
    expect(toAnthropicSystem(p, { staticTtl: '1h' })).toEqual([prefix]);
    const withGit = appendSystemContext(p, { gitStatus: 'Current branch: main' });
    expect(toAnthropicSystem(withGit, { staticTtl: '1h' })).toEqual([
      prefix,
      { type: 'text', text: 'gitStatus: Current branch: main', cache_control: { type: 'ephemeral' } },
    ]);
    expect(toBedrockSystem(withGit, { staticTtl: '1h' })).toEqual([
      { text: 'Static A text.\n\nStatic B text.' },
      { cachePoint: { type: 'default', ttl: '1h' } },
      { text: 'gitStatus: Current branch: main' },
      { cachePoint: { type: 'default' } },
    ]);
    expect(toOpenAIRequest(withGit).prompt_cache_key).toBe(toOpenAIRequest(p).prompt_cache_key);
  });
});

describe('agent prompts', () => {
  let bundle: Bundle;
  beforeAll(async () => {
    bundle = await loadBundle(FIXTURE_DIR);
  });
  const agentPrompt = (cwd: string) => getAgentSystemPrompt(bundle, 'explore', { environment: `Working directory: ${cwd}` });

  it('makes the agent’s text the static prefix and appends the environment after the boundary', () => {
    const text = bundle.agents.get('explore')!.prompt;
    expect([...agentPrompt('/a')]).toEqual([text, B, 'Working directory: /a']);
    const [a, b] = [toAnthropicSystem(agentPrompt('/a')), toAnthropicSystem(agentPrompt('/b'))];
    expect(a[0]).toEqual({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    expect(b[0]).toEqual(a[0]);
    expect(a[1]).toEqual({ type: 'text', text: 'Working directory: /a', cache_control: { type: 'ephemeral' } });
  });

  it('keys the agent’s OpenAI cache by its text hash, whatever the environment', () => {
    const hash = bundle.manifest.agents.explore!.hash;
    expect(toOpenAIRequest(agentPrompt('/a')).prompt_cache_key).toBe(`pb-${hash.slice(0, 32)}`);
    expect(toOpenAIRequest(agentPrompt('/b')).prompt_cache_key).toBe(`pb-${hash.slice(0, 32)}`);
    const chosen = buildEffectiveSystemPrompt({ defaultSystemPrompt: ['default'], agentSystemPrompt: agentPrompt('/a') });
    expect(toOpenAIRequest(chosen).prompt_cache_key).toBe(`pb-${hash.slice(0, 32)}`);
  });

  it('never puts its boundary inside the proactive heading', () => {
    const proactive = buildEffectiveSystemPrompt({ defaultSystemPrompt: ['d'], agentSystemPrompt: agentPrompt('/a'), proactive: true });
    expect(proactive.at(-1)).not.toContain(B);
    expect(JSON.stringify(toAnthropicSystem(proactive))).not.toContain(B);
  });

  it('refuses an unknown agent, naming the known ones', () => {
    expect(() => getAgentSystemPrompt(bundle, 'nobody')).toThrow(BundleError);
    expect(() => getAgentSystemPrompt(bundle, 'nobody')).toThrow(/explore/);
  });
});
