/**
 * Cache facts: every model family resolves to its documented minimum (the
 * safe side where sources disagree), in every id spelling; an unknown model
 * is a warning, not silence; every profile with a static prefix is checked,
 * static-only ones included; the user's facts win over the built-in ones.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, CACHE_FACTS, resolveCacheFact, type CacheFact } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

describe('resolveCacheFact', () => {
  it.each([
    ['claude-opus-4-6', 'Claude Opus 4.6', 4096],
    ['claude-opus-4-5', 'Claude Opus 4.5', 4096],
    ['claude-opus-4-5-20251101', 'Claude Opus 4.5', 4096],
    ['claude-haiku-4-5', 'Claude Haiku 4.5', 4096],
    ['claude-haiku-4-5-20251001', 'Claude Haiku 4.5', 4096],
    ['claude-opus-4-8', 'Claude Opus 4.8', 1024],
    ['claude-opus-4-1', 'Claude Opus 4.1', 1024],
    ['claude-opus-4-1-20250805', 'Claude Opus 4.1', 1024],
    ['claude-opus-4-20250514', 'Claude Opus 4', 1024],
    ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', 1024],
    ['claude-sonnet-4-20250514', 'Claude Sonnet 4', 1024],
    ['claude-3-7-sonnet-20250219', 'Claude Sonnet 3.7', 1024],
    ['claude-3-7-sonnet-latest', 'Claude Sonnet 3.7', 1024],
    ['claude-3-5-haiku-20241022', 'Claude Haiku 3.5', 2048],
    ['claude-3-haiku-20240307', 'Claude Haiku 3', 2048],
    // Sonnet 4.6: documented 1,024, 2,048 observed — the safe side.
    ['claude-sonnet-4-6', 'Claude Sonnet 4.6', 2048],
    ['anthropic/claude-sonnet-4.5', 'Claude Sonnet 4.5', 1024],
    ['Claude-Opus-4-5', 'Claude Opus 4.5', 4096],
    // Unversioned: the strictest of the line.
    ['claude-opus', 'Claude Opus (any version)', 4096],
    ['claude-sonnet', 'Claude Sonnet (any version)', 2048],
    ['claude-haiku', 'Claude Haiku (any version)', 4096],
    // Bedrock: its own rows first, then Anthropic's.
    ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 'Claude Haiku 4.5 on Bedrock', 4096],
    ['anthropic.claude-3-7-sonnet-20250219-v1:0', 'Claude Sonnet 3.7 on Bedrock', 1024],
    ['global.anthropic.claude-opus-4-5-20251101-v1:0', 'Claude Opus 4.5', 4096],
    ['eu.anthropic.claude-sonnet-4-20250514-v1:0', 'Claude Sonnet 4', 1024],
    // Vertex AI: Anthropic's rules.
    ['claude-opus-4-5@20251101', 'Claude Opus 4.5', 4096],
    ['claude-3-5-haiku@20241022', 'Claude Haiku 3.5', 2048],
    ['gpt-5', 'GPT-5 family', 1024],
    ['gpt-5-mini-2025-08-07', 'GPT-5 family', 1024],
    ['gpt-5.1', 'GPT-5 family', 1024],
    ['gpt-4.1-mini', 'GPT-4.1 family', 1024],
    ['gpt-4o-2024-11-20', 'GPT-4o family', 1024],
    ['gemini-2.5-flash', 'Gemini 2.5 Flash', 2048],
    ['gemini-2.5-flash-preview-05-20', 'Gemini 2.5 Flash', 2048],
    ['gemini-2.5-pro', 'Gemini 2.5 Pro', 2048],
    ['models/gemini-2.5-pro-001', 'Gemini 2.5 Pro', 2048],
  ])('%s → %s, %i tokens', (model, family, minimum) => {
    const resolved = resolveCacheFact(model);
    expect(resolved?.fact.family).toBe(family);
    expect(resolved?.fact.minimumTokens).toBe(minimum);
  });

  it('says when a Bedrock or Vertex id borrows Anthropic’s row', () => {
    expect(resolveCacheFact('claude-opus-4-5@20251101')?.via).toBe('anthropic');
    expect(resolveCacheFact('anthropic.claude-opus-4-5-20251101-v1:0')?.via).toBe('anthropic');
    expect(resolveCacheFact('us.anthropic.claude-haiku-4-5-20251001-v1:0')?.via).toBeUndefined();
    expect(resolveCacheFact('claude-opus-4-5')?.via).toBeUndefined();
  });

  it.each(['claude-opus-4-9', 'claude-sonnet-5-1', 'claude-opus-5-4', 'claude-opus-4-5-extra', 'claude-haiku-5-5', 'gemini-2.5-flash-lite', 'gpt-3.5-turbo', 'mistral-large', ''])(
    'knows nothing of %j: an unknown version is not guessed from its neighbour',
    (model) => {
      expect(resolveCacheFact(model)).toBeUndefined();
    },
  );

  it('states OpenAI’s automatic caching: 1,024 minimum in 128-token steps, no write surcharge', () => {
    const fact = resolveCacheFact('gpt-5')!.fact;
    expect(fact).toMatchObject({ caching: 'automatic', minimumTokens: 1024, prefixIncrement: 128, writeMultiplier: { automatic: 1 }, readMultiplier: 0.1 });
  });

  it('gives Anthropic’s price multipliers: writes 1.25× at 5 min and 2× at 1 h, reads 0.1× (0.05× Opus 5.5, 0.025× Fable and Mythos 5.1); 4 breakpoints; longer TTL listed after the default', () => {
    const cheaperReads: Record<string, number> = { 'Claude Opus 5.5': 0.05, 'Claude Fable 5.1': 0.025, 'Claude Mythos 5.1': 0.025 };
    for (const fact of CACHE_FACTS.filter((f) => f.provider === 'anthropic')) {
      const readMultiplier = cheaperReads[fact.family] ?? 0.1;
      expect(fact, fact.family).toMatchObject({ writeMultiplier: { '5m': 1.25, '1h': 2 }, readMultiplier, maxBreakpoints: 4, ttls: ['5m', '1h'] });
    }
    expect(Object.keys(cheaperReads).map((family) => CACHE_FACTS.find((f) => f.family === family)?.readMultiplier)).toEqual([0.05, 0.025, 0.025]);
  });

  it('gives every row a source and the date it was read, and a note wherever the warned minimum is not the documented one', () => {
    for (const fact of CACHE_FACTS) {
      expect(fact.source, fact.family).toMatch(/https:\/\//);
      expect(fact.read, fact.family).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (fact.documentedMinimumTokens !== undefined) {
        expect(fact.minimumTokens, fact.family).toBeGreaterThan(fact.documentedMinimumTokens);
        expect(fact.note, fact.family).toMatch(/\d,\d{3}/);
      }
    }
  });

  it('searches the user’s facts first: new models and corrected figures', () => {
    const mine: CacheFact = { ...resolveCacheFact('claude-opus-4-5')!.fact, family: 'Mine', ids: ['claude-opus-4-9'], minimumTokens: 2048 };
    expect(resolveCacheFact('claude-opus-4-9-20260101', [mine])?.fact.family).toBe('Mine');
    const corrected = { ...mine, ids: ['claude-opus-4-5'], minimumTokens: 512 };
    expect(resolveCacheFact('claude-opus-4-5', [corrected])?.fact.minimumTokens).toBe(512);
    const custom = { ...mine, provider: 'openai' as const, ids: ['my-fine-tune'], minimumTokens: 100 };
    expect(resolveCacheFact('my-fine-tune', [custom])?.fact.minimumTokens).toBe(100);
  });
});

describe('cache warnings in a build', () => {
  const PROFILES = {
    'prompts/profiles/mixed.md': '---\nsections: [intro, env]\n---\n',
    'prompts/profiles/static-only.md': '---\nsections: [intro]\n---\n',
    'prompts/profiles/quiet.md': '---\ncacheWarning: false\nsections: [intro]\n---\n',
    'prompts/sections/intro.md': 'You are a helpful assistant.\n',
    'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
  };
  async function build(models: string[], cacheFacts: CacheFact[] = []) {
    const root = await tempDir('pb-cache-facts-');
    await writeTree(root, PROFILES);
    const result = await buildProject({ root, cacheDir: null, write: false, models, cacheFacts });
    return result.diagnostics.map((d) => ({ rule: d.rule, file: d.file, message: d.message }));
  }

  it('checks every profile with a static prefix, static-only ones included, unless cacheWarning is false', async () => {
    const diagnostics = await build(['claude-sonnet-4-5']);
    expect(diagnostics.map((d) => [d.rule, d.file])).toEqual([
      ['cache/prefix-below-minimum', 'prompts/profiles/mixed.md'],
      ['cache/prefix-below-minimum', 'prompts/profiles/static-only.md'],
    ]);
    expect(diagnostics[1]!.message).toMatch(/profile 'static-only' has a static prefix of ~\d+ tokens, below the 1024-token minimum claude-sonnet-4-5/);
  });

  it('warns once about a model with no known facts, rather than skipping it silently', async () => {
    const diagnostics = await build(['claude-opus-4-9', 'claude-opus-4-9', 'gpt-5']);
    const unknown = diagnostics.filter((d) => d.rule === 'cache/unknown-model');
    expect(unknown).toEqual([
      {
        rule: 'cache/unknown-model',
        file: 'prompts/profiles/mixed.md',
        message: "no cache facts for model 'claude-opus-4-9': no profile's static prefix is checked against its minimum cacheable length",
      },
    ]);
    expect(diagnostics.filter((d) => d.rule === 'cache/prefix-below-minimum')).toHaveLength(2);
  });

  it('takes the user’s facts (cacheFacts build option) before the built-in ones', async () => {
    const fact: CacheFact = { ...resolveCacheFact('claude-opus-4-5')!.fact, family: 'Tiny', ids: ['claude-opus-4-9'], minimumTokens: 1 };
    expect(await build(['claude-opus-4-9'], [fact])).toEqual([]);
  });
});

describe('the repository’s own prompt set', () => {
  it('built with --model claude-opus-4-5 warns that the default profile’s static prefix is below 4,096 tokens', async () => {
    const run = await runCli(['check', '--root', REPO, '--model', 'claude-opus-4-5', '--reporter', 'json']);
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Array<{ rule: string; file: string; message: string }> };
    const warning = diagnostics.find((d) => d.file === path.posix.join('prompts/profiles/default.md'));
    expect(warning?.rule).toBe('cache/prefix-below-minimum');
    expect(warning?.message).toMatch(/static prefix of ~\d+ tokens, below the 4096-token minimum claude-opus-4-5/);
  });

  it('builds with no cache warning for its default model list', async () => {
    const run = await runCli(['check', '--root', REPO, '--reporter', 'json']);
    expect((JSON.parse(run.stdout) as { diagnostics: unknown[] }).diagnostics).toEqual([]);
  });
});

describe('--cache-facts FILE.json', () => {
  async function project(): Promise<string> {
    const root = await tempDir('pb-cache-facts-cli-');
    await writeTree(root, { 'prompts/profiles/p.md': '---\nsections: [intro]\n---\n', 'prompts/sections/intro.md': 'Hello there.\n' });
    return root;
  }
  const check = (root: string, ...flags: string[]) => runCli(['check', '--root', root, '--no-cache', '--reporter', 'json', ...flags]);

  it('adds facts for a model the built-in table does not know, in any id spelling', async () => {
    const root = await project();
    const file = path.join(root, 'facts.json');
    await fs.writeFile(file, JSON.stringify([{ provider: 'anthropic', family: 'Claude Haiku 5.5', ids: ['claude-haiku-5-5-20261007'], minimumTokens: 2048 }]));
    const without = JSON.parse((await check(root, '--model', 'claude-haiku-5-5')).stdout) as { diagnostics: Array<{ rule: string; message: string }> };
    expect(without.diagnostics.map((d) => d.rule)).toEqual(['cache/unknown-model']);
    const run = await check(root, '--model', 'claude-haiku-5-5', '--cache-facts', file);
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Array<{ rule: string; message: string }> };
    expect(diagnostics.map((d) => d.rule)).toEqual(['cache/prefix-below-minimum']);
    expect(diagnostics[0]!.message).toContain('below the 2048-token minimum claude-haiku-5-5');
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['not an array', '{}', /JSON array/],
    ['no provider', '[{"family": "X", "ids": ["x"], "minimumTokens": 1}]', /fact 0: provider must be one of/],
    ['no ids', '[{"provider": "openai", "family": "X", "minimumTokens": 1}]', /fact 0: give the model ids/],
    ['a bad minimum', '[{"provider": "openai", "family": "X", "ids": ["x"], "minimumTokens": "many"}]', /minimumTokens must be a whole number/],
  ])('refuses a file with %s as a usage error naming the file', async (_what, text, message) => {
    const root = await project();
    const file = path.join(root, 'facts.json');
    await fs.writeFile(file, text);
    const run = await check(root, '--cache-facts', file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--cache-facts ${file}`);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain('    at ');
  });

  it('refuses a missing file', async () => {
    const root = await project();
    const run = await check(root, '--cache-facts', path.join(root, 'nope.json'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no such file');
  });
});
