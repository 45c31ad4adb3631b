/**
 * The cache facts as of the sources read on 2026-12-04, through the CLI as a
 * team would configure them: `check --model ID` gives each current Claude,
 * GPT, Gemini and Bedrock id its documented minimum (in the spellings the
 * providers use), a model the sources name without a minimum is a clear
 * `cache/unknown-model`, and the facts age: the manifest records their date
 * (never the day of the build) and a build judged more than 180 days after
 * it warns once, naming `--cache-facts`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, CACHE_FACTS, CACHE_FACTS_READ, type CacheFact, type Manifest } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { readTree, REPO, tempDir, writeTree } from '../helpers/tree.js';

/** A static prefix of a few tokens: below every minimum, so each model's warning states its minimum. */
const PROJECT = {
  'prompts/profiles/a.md': '---\nsections: [intro, env]\n---\n',
  'prompts/profiles/b.md': '---\nsections: [intro]\n---\n',
  'prompts/sections/intro.md': 'Hello there.\n',
  'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
};

async function project(): Promise<string> {
  const root = await tempDir('pb-cache-current-');
  await writeTree(root, PROJECT);
  return root;
}

interface JsonDiagnostic {
  rule: string;
  file: string;
  message: string;
  note?: string;
}

async function check(root: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runCli(['check', '--root', root, '--no-cache', '--reporter', 'json', ...args], { env });
  // A run that printed no report (a usage error) has no diagnostics to look at: never read as "none".
  const diagnostics = run.code === 2 ? null : (JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
  return { ...run, diagnostics: diagnostics ?? [] };
}

/** Model id as a team writes it → the minimum the build must check it against, from the sources the table cites. */
const CURRENT: ReadonlyArray<readonly [string, number]> = [
  // Anthropic's caching page: 512 for the newest models…
  ['claude-opus-5-5', 512],
  ['claude-opus-5-5[1m]', 512],
  ['claude-sonnet-5-5', 512],
  ['claude-fable-5-1', 512],
  ['claude-mythos-5-1', 512],
  ['claude-opus-5', 512],
  ['claude-fable-5', 512],
  ['claude-mythos-5', 512],
  // …1,024, 2,048 and 4,096 for the others.
  ['claude-sonnet-5', 1024],
  ['claude-opus-4-8', 1024],
  ['claude-opus-4-7', 2048],
  ['claude-opus-4-7-20261015', 2048],
  ['claude-mythos-preview', 2048],
  ['claude-opus-4-6', 4096],
  ['claude-opus-4-5-20251101', 4096],
  ['claude-opus-4-1-20250805', 1024],
  ['claude-opus-4-20250514', 1024],
  ['claude-sonnet-4-6', 2048], // documented 1,024, reported not to cache below 2,048: the safe side
  ['claude-sonnet-4-5-latest', 1024],
  ['claude-sonnet-4-20250514', 1024],
  ['claude-haiku-4-5-20251001', 4096],
  ['claude-3-5-haiku-20241022', 2048],
  ['anthropic/claude-opus-4.8', 1024],
  // No version: the strictest of the line.
  ['claude-opus', 4096],
  ['claude-sonnet', 2048],
  ['claude-haiku', 4096],
  // Google Cloud (Vertex): Anthropic's figures.
  ['claude-opus-5@20260724', 512],
  ['claude-sonnet-4-5@20250929', 1024],
  // Bedrock: its own rows where its guide has them, Anthropic's otherwise; Amazon Nova at 1,000.
  ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 4096],
  ['anthropic.claude-3-5-haiku-20241022-v1:0', 2048],
  ['global.anthropic.claude-opus-5-v1:0', 512],
  ['eu.anthropic.claude-sonnet-4-5-20250929-v1:0', 1024],
  ['us.anthropic.claude-opus-4-7-v1:0', 2048],
  ['us.amazon.nova-pro-v1:0', 1000],
  ['amazon.nova-premier-v1:0', 1000],
  ['apac.amazon.nova-micro-v1:0', 1000],
  // OpenAI: automatic from 1,024 tokens, every family.
  ['gpt-4o', 1024],
  ['gpt-4o-mini-2024-07-18', 1024],
  ['gpt-4.1-nano', 1024],
  ['gpt-5', 1024],
  ['gpt-5.4-mini', 1024],
  ['gpt-5.5', 1024],
  ['gpt-5.6-sol', 1024],
  ['gpt-6-luna', 1024],
  ['gpt-6.1-terra', 1024],
  ['o3', 1024],
  ['o4-mini', 1024],
  // Gemini: 2,048 for 2.5, 4,096 for 3.x, 6,144 for 4 Argon (Google Cloud's figure, above the API page's 4,096).
  ['gemini-2.5-flash', 2048],
  ['gemini-2.5-pro', 2048],
  ['gemini-3.1-pro-preview', 4096],
  ['gemini-3.5-flash', 4096],
  ['gemini-3.6-flash', 4096],
  ['gemini-3.7-flash', 4096],
  ['gemini-3.8-flash', 4096],
  ['gemini-4-argon', 6144],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('check --model ID: the minimum of every current model', () => {
  it('states, for each id, the minimum its sources give (one run, every model, every profile)', async () => {
    const root = await project();
    const run = await check(root, CURRENT.flatMap(([model]) => ['--model', model]));
    expect(run.stderr).toBe('');
    const got = CURRENT.map(([model]) => {
      const minimums = run.diagnostics
        .filter((d) => d.rule === 'cache/prefix-below-minimum')
        .map((d) => new RegExp(`the (\\d+)-token minimum ${escape(model)} models cache`).exec(d.message)?.[1])
        .filter((m) => m !== undefined);
      // One warning per profile (both have the same static prefix), both with the same minimum.
      return [model, minimums.length === 2 && minimums[0] === minimums[1] ? Number(minimums[0]) : minimums] as const;
    });
    expect(got).toEqual(CURRENT);
    expect(run.diagnostics.filter((d) => d.rule !== 'cache/prefix-below-minimum')).toEqual([]);
  });

  it.each([
    ['claude-haiku-5-5', 'Claude Haiku 5.5'],
    ['claude-fable-5-2', 'Claude Fable 5.2'],
    ['us.anthropic.claude-haiku-5-5-v1:0', 'Claude Haiku 5.5'],
  ])('%s: named by the sources without a minimum, a cache/unknown-model warning that says so', async (model, family) => {
    const root = await project();
    const run = await check(root, ['--model', model]);
    expect(run.diagnostics.map((d) => d.rule)).toEqual(['cache/unknown-model']);
    expect(run.diagnostics[0]!.message).toContain(`no cache facts for model '${model}' (${family}: `);
    expect(run.diagnostics[0]!.message).toContain('gives its minimum');
    expect(run.diagnostics[0]!.note).toContain('--cache-facts');
  });

  it('every row names its source and was read on the day the table was', () => {
    for (const fact of CACHE_FACTS) {
      expect(fact.source, fact.family).toMatch(/https:\/\//);
      expect(fact.read, fact.family).toBe(CACHE_FACTS_READ);
    }
    expect(CACHE_FACTS_READ).toBe('2026-12-04');
  });

  it('prices GPT-5.6 and later cache writes at 1.25× (30-minute TTL), earlier OpenAI families at none', async () => {
    const run = await runCli(['inspect', '--root', REPO, '--json', '--model', 'gpt-5.6-sol', '--model', 'gpt-5.4']);
    const { cache } = JSON.parse(run.stdout) as { cache: Array<{ model: string; profile: string; staticTokens: number; cold: number; uncached: number }> };
    const at = (model: string) => cache.find((r) => r.model === model && r.profile === 'default')!;
    // Above 1,024, the whole prefix is written at 1.25× on GPT-5.6; GPT-5.4 writes at the base price.
    expect(at('gpt-5.6-sol').cold).toBe(Math.round(at('gpt-5.6-sol').staticTokens * 1.25));
    expect(at('gpt-5.4').cold).toBe(at('gpt-5.4').uncached);
  });
});

describe('the tokenizer each model is counted with', () => {
  it('Claude 4.7 and later (Fable, Mythos, Sonnet 5…) with the newer tokenizer’s estimate, earlier ones and Mythos Preview with the older, Nova with a stand-in', async () => {
    const root = await project();
    const models = ['claude-fable-5-1', 'claude-sonnet-5', 'claude-opus-4-6', 'claude-mythos-preview', 'us.amazon.nova-lite-v1:0'];
    const result = await buildProject({ root, cacheDir: null, write: false, models });
    const counts = result.bundle!.manifest.profiles.b!.staticTokenCounts!;
    expect(Object.keys(counts).sort()).toEqual(['claude-3-to-4-6-estimate', 'claude-4-7-estimate', 'o200k_base-for-nova']);
    // The newer tokenizer counts more tokens for the same text.
    expect(counts['claude-4-7-estimate']!.tokens).toBeGreaterThan(counts['claude-3-to-4-6-estimate']!.tokens);
  });
});

describe('the facts age', () => {
  const day = (base: string, days: number) => new Date(Date.parse(`${base}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const outdated = (diagnostics: readonly JsonDiagnostic[]) => diagnostics.filter((d) => d.rule === 'cache/facts-outdated');

  it('180 days after the facts were read, no warning; 181 days after, one (not one per profile or model), naming --cache-facts', async () => {
    const root = await project();
    const models = ['--model', 'claude-opus-5', '--model', 'gpt-5', '--model', 'gemini-2.5-flash'];
    const fresh = await check(root, models, { PROMPT_BUILD_TODAY: day(CACHE_FACTS_READ, 180) });
    expect(outdated(fresh.diagnostics)).toEqual([]);
    const old = await check(root, models, { PROMPT_BUILD_TODAY: day(CACHE_FACTS_READ, 181) });
    expect(outdated(old.diagnostics)).toHaveLength(1);
    const [warning] = outdated(old.diagnostics);
    expect(warning!.file).toBe('prompts/profiles/a.md');
    expect(warning!.message).toContain(`read from their sources on ${CACHE_FACTS_READ}, more than 180 days ago`);
    expect(warning!.note).toContain('--cache-facts FILE.json');
    expect(old.code).toBe(fresh.code);
  });

  it('says nothing when every configured model is checked against the user’s own rows', async () => {
    const root = await project();
    const file = path.join(root, 'facts.json');
    await fs.writeFile(file, JSON.stringify([{ provider: 'anthropic', family: 'Mine', ids: ['claude-opus-5'], minimumTokens: 1, read: '2027-06-01' }]));
    const env = { PROMPT_BUILD_TODAY: day(CACHE_FACTS_READ, 400) };
    expect(outdated((await check(root, ['--model', 'claude-opus-5', '--cache-facts', file], env)).diagnostics)).toEqual([]);
    // One model still on the built-in table is enough for the warning.
    const mixed = await check(root, ['--model', 'claude-opus-5', '--model', 'gpt-5', '--cache-facts', file], env);
    expect(outdated(mixed.diagnostics)).toHaveLength(1);
  });

  it('an up-to-date build says it too: the day the facts pass 180 days, the last build is not reused', async () => {
    const root = await project();
    const cacheDir = path.join(root, '.cache');
    const first = await buildProject({ root, cacheDir, today: day(CACHE_FACTS_READ, 10) });
    expect(first.diagnostics.map((d) => d.rule)).toEqual(['cache/prefix-below-minimum', 'cache/prefix-below-minimum']);
    const reused = await buildProject({ root, cacheDir, today: day(CACHE_FACTS_READ, 11) });
    expect(reused.upToDate).toBe(true);
    const later = await buildProject({ root, cacheDir, today: day(CACHE_FACTS_READ, 200) });
    expect(later.diagnostics.filter((d) => d.rule === 'cache/facts-outdated')).toHaveLength(1);
    const again = await buildProject({ root, cacheDir, today: day(CACHE_FACTS_READ, 201) });
    expect(again.upToDate).toBe(true);
    expect(again.diagnostics.filter((d) => d.rule === 'cache/facts-outdated')).toHaveLength(1);
  });

  it.each(['2026-13-01', '2026-02-30', 'tomorrow', '20261204'])('refuses PROMPT_BUILD_TODAY=%s as a usage error, not a silent pass', async (today) => {
    const root = await project();
    const run = await check(root, [], { PROMPT_BUILD_TODAY: today });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`today must be a date as YYYY-MM-DD`);
    expect(run.stderr).toContain(JSON.stringify(today));
    expect(run.stderr).not.toContain('    at ');
  });

  it('the manifest records the facts’ date, never the build’s: any day gives the same bytes', async () => {
    const root = await project();
    const outA = path.join(root, 'dist-a');
    const outB = path.join(root, 'dist-b');
    await buildProject({ root, cacheDir: null, outDir: outA, today: day(CACHE_FACTS_READ, 1) });
    await buildProject({ root, cacheDir: null, outDir: outB, today: day(CACHE_FACTS_READ, 900) });
    expect(await readTree(outB)).toEqual(await readTree(outA));
    const manifest = JSON.parse(await fs.readFile(path.join(outA, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.cacheFacts).toEqual({ read: CACHE_FACTS_READ });
    expect(manifest.schemaVersion).toBe(1);
  });

  it('the manifest records the user’s rows and their dates; the Python runtime loads it', async () => {
    const root = await project();
    const mine = (family: string, read: string): CacheFact => ({ ...CACHE_FACTS[0]!, family, ids: [family.toLowerCase()], read });
    const out = path.join(root, 'dist');
    await buildProject({ root, cacheDir: null, outDir: out, cacheFacts: [mine('A', '2027-01-02'), mine('B', '2026-12-30'), mine('C', '2027-01-02')] });
    const manifest = JSON.parse(await fs.readFile(path.join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.cacheFacts).toEqual({ read: CACHE_FACTS_READ, user: { rows: 3, read: ['2026-12-30', '2027-01-02'] } });
    const python = spawnSync(
      'python3',
      ['-c', 'import sys, json; from prompt_build import load_bundle; b = load_bundle(sys.argv[1]); print(json.dumps(b.manifest["cacheFacts"]["read"]), sorted(b.profiles))', out],
      { env: { ...process.env, PYTHONPATH: path.join(REPO, 'python/src') }, encoding: 'utf8' },
    );
    expect(python.stderr).toBe('');
    expect(python.stdout.trim()).toBe(`"${CACHE_FACTS_READ}" ['a', 'b']`);
  });
});
