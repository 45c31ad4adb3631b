/**
 * `test/conformance/runtime.json`: assembly, section cache, agents, priority
 * chain, provider blocks and tampered bundles, over the fixture tree of
 * runtime-seeds.ts. The committed file must equal what the JavaScript runtime
 * gives now; python/tests/test_runtime_vectors.py runs every case in Python.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import * as rt from '../../compiler/runtime/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';
import * as seeds from './runtime-seeds.js';
import { committedOrUpdated, vectorJson } from './vectors.js';

async function buildTree(): Promise<string> {
  const root = await tempDir('pb-runtime-vectors-');
  await writeTree(root, seeds.RUNTIME_TREE);
  const build = await buildProject({ root, outDir: path.join(root, 'dist'), cacheDir: null });
  expect(build.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return path.join(root, 'dist');
}

/** A value, or the thrown error by name. */
async function settle<T>(run: () => T | Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

const prompt = (parts: readonly string[], staticPrefixHash?: string) => rt.asSystemPrompt(parts, staticPrefixHash ? { staticPrefixHash } : {});

function adapter(seed: seeds.ProviderSeed): unknown {
  const input = prompt(seed.prompt, seed.staticPrefixHash);
  const options = (seed.options ?? {}) as never;
  if (seed.adapter === 'anthropic') return rt.toAnthropicSystem(input, options);
  if (seed.adapter === 'bedrock') return rt.toBedrockSystem(input, options);
  if (seed.adapter === 'openai') return rt.toOpenAIRequest(input, options);
  return rt.toGeminiSystemInstruction(input);
}

async function computeVectors(dist: string): Promise<Record<string, unknown>> {
  const bundle = await rt.loadBundle(dist);
  const assembly = [];
  for (const seed of seeds.ASSEMBLY_SEEDS) {
    const options = { context: seed.context, cache: rt.createSectionCache(), ...(seed.profile ? { profile: seed.profile } : {}), ...(seed.mode ? { mode: seed.mode } : {}) };
    assembly.push({ ...seed, expect: await settle(async () => [...(await rt.getSystemPrompt(bundle, options))]) });
  }
  const sectionCache = [];
  for (const seed of seeds.CACHE_SEEDS) {
    const cache = rt.createSectionCache();
    const expect = [];
    for (const step of seed.steps) {
      if ('clear' in step) cache.clear();
      else expect.push([...(await rt.getSystemPrompt(bundle, { context: step.context, cache }))]);
    }
    sectionCache.push({ ...seed, expect });
  }
  const cacheApi = [];
  for (const seed of seeds.CACHE_API_SEEDS) {
    const cache = rt.createSectionCache();
    const expect = [];
    for (const step of seed.steps) {
      if ('clear' in step) {
        cache.clear();
        continue;
      }
      const computed: string[] = [];
      const sections = seed.sections.map((s) => {
        const compute = () => (computed.push(s.name), step.values[s.name] ?? null);
        return s.cache === 'cached'
          ? rt.systemPromptSection(s.name, compute, { cacheBreak: s.cacheBreak ?? false })
          : rt.DANGEROUS_uncachedSystemPromptSection(s.name, compute, s.reason ?? '');
      });
      const values = await rt.resolveSystemPromptSections(sections, cache);
      expect.push({ values, computed, size: cache.size });
    }
    cacheApi.push({ ...seed, expect });
  }
  const agents = [];
  for (const seed of seeds.AGENT_SEEDS) {
    const options = seed.environment === undefined ? {} : { environment: seed.environment };
    agents.push({ ...seed, expect: await settle(() => [...rt.getAgentSystemPrompt(bundle, seed.agent, options)]) });
  }
  const priorityChain = seeds.CHAIN_SEEDS.map((seed) => {
    const input = { ...seed.input };
    if (seed.defaultStaticPrefixHash && Array.isArray(input.defaultSystemPrompt)) input.defaultSystemPrompt = prompt(input.defaultSystemPrompt, seed.defaultStaticPrefixHash) as unknown as string[];
    const result = rt.buildEffectiveSystemPrompt(input);
    return { ...seed, expect: { prompt: [...result], promptCacheKey: rt.toOpenAIRequest(result).prompt_cache_key ?? null } };
  });
  const providers = [];
  for (const seed of seeds.PROVIDER_SEEDS) providers.push({ ...seed, expect: await settle(() => adapter(seed)) });
  const refusals = [];
  for (const seed of seeds.REFUSAL_SEEDS) refusals.push({ ...seed, expect: await refusal(bundle, seed) });
  const shapes = [];
  for (const seed of seeds.SHAPE_SEEDS) shapes.push({ ...seed, expect: await shapeOutcome(bundle, seed) });
  return { fixture: seeds.RUNTIME_TREE, assembly, sectionCache, cacheApi, agents, priorityChain, providers, shapes, refusals, tampered: seeds.TAMPER_SEEDS };
}

/** A refusal seed's argument with its stand-ins replaced (see `RefusalSeed`). */
function decode(bundle: rt.Bundle, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => decode(bundle, item));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if ('$bundle' in record) return bundle;
  if ('$prompt' in record) return rt.asSystemPrompt(record.$prompt as string[]);
  if ('$cache' in record) return rt.createSectionCache();
  if ('$function' in record) return () => null;
  if ('$promise' in record) return Promise.resolve(decode(bundle, record.$promise));
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, decode(bundle, item)]));
}

/** The error a refused call gives, by class name and parameter (and whether it says so in its message). */
async function refusal(bundle: rt.Bundle, seed: seeds.RefusalSeed): Promise<unknown> {
  const fn = (rt as unknown as Record<string, (...args: unknown[]) => unknown>)[seed.call]!;
  try {
    await fn(...seed.args.map((arg) => decode(bundle, arg)));
    return { returned: true };
  } catch (error) {
    if (!(error instanceof rt.ArgumentError)) return { error: (error as Error).name, message: (error as Error).message };
    expect(error.message, seed.name).toContain(`${seed.call}: ${error.parameter} must be `);
    if (JSON.stringify(seed.args).includes('"$promise"')) expect(error.message, seed.name).toContain('did you forget `await`?');
    return { error: error.name, parameter: error.parameter };
  }
}

async function shapePrompt(bundle: rt.Bundle, source: seeds.ShapeSource): Promise<rt.SystemPrompt> {
  if ('agent' in source) return rt.getAgentSystemPrompt(bundle, source.agent, source.environment ? { environment: source.environment } : {});
  const profile = await rt.getSystemPrompt(bundle, { profile: source.profile, context: source.context ?? {}, cache: rt.createSectionCache() });
  if (!('chain' in source)) return profile;
  const { custom, override, append, agent, proactive } = source.chain;
  return rt.buildEffectiveSystemPrompt({
    defaultSystemPrompt: profile,
    customSystemPrompt: custom,
    overrideSystemPrompt: override,
    appendSystemPrompt: append,
    agentSystemPrompt: agent === undefined ? undefined : rt.getAgentSystemPrompt(bundle, agent),
    proactive: proactive ?? false,
  });
}

/** The prompt's parts and what each adapter sends for it. */
async function shapeOutcome(bundle: rt.Bundle, seed: seeds.ShapeSeed): Promise<Record<string, unknown>> {
  const built = await shapePrompt(bundle, seed.source);
  const prompt = seed.systemContext ? rt.appendSystemContext(built, seed.systemContext) : built;
  return {
    prompt: [...prompt],
    anthropic: rt.toAnthropicSystem(prompt, seeds.SHAPE_TTLS),
    bedrock: rt.toBedrockSystem(prompt, seeds.SHAPE_TTLS),
    openai: rt.toOpenAIRequest(prompt),
    openaiExplicit: rt.toOpenAIRequest(prompt, { model: 'gpt-5.6' }),
    gemini: rt.toGeminiSystemInstruction(prompt),
  };
}

/** Damages a copy of the bundle as `seed` says (the Python tests do the same in python/tests/tamper.py). */
async function damage(dist: string, seed: seeds.TamperSeed): Promise<void> {
  const manifestFile = path.join(dist, 'manifest.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
  const sections = Object.values(manifest.profiles as Record<string, { sections: Record<string, string>[] }>).flatMap((p) => p.sections);
  const { target } = seed;
  const entry = target.kind === 'agent' ? manifest.agents[target.agent] : target.kind === 'manifest' ? null : sections.find((s) => s.name === target.section);
  const file = target.kind === 'manifest' ? 'manifest.json' : target.kind === 'python' ? entry.python : entry.file;
  const full = path.join(dist, file);
  if (seed.damage === 'append-byte') await fs.appendFile(full, 'x');
  else if (seed.damage === 'remove') await fs.rm(full);
  else if (seed.damage === 'truncate') await fs.writeFile(full, (await fs.readFile(full)).subarray(0, 100));
  else {
    if (seed.damage === 'schema-version') manifest.schemaVersion = 2;
    else for (const s of sections) if (s.name === (target as { section: string }).section) s.file = '../outside.md';
    await fs.writeFile(manifestFile, JSON.stringify(manifest));
  }
}

describe('runtime vectors', () => {
  it('the committed runtime.json is what the JavaScript runtime gives', async () => {
    const computed = await computeVectors(await buildTree());
    const committed = JSON.parse(committedOrUpdated('runtime.json', vectorJson('Runtime cases over the fixture tree of runtime-seeds.ts (regenerate: UPDATE_VECTORS=1 npx vitest run test/conformance/runtime-vectors.test.ts)', computed)));
    for (const [group, cases] of Object.entries(computed)) expect(committed[group], group).toEqual(JSON.parse(JSON.stringify(cases)));
  });

  it('every shape keeps its static prefix a block of its own, with staticTtl, and what was appended after it', async () => {
    const bundle = await rt.loadBundle(await buildTree());
    for (const seed of seeds.SHAPE_SEEDS) {
      const outcome = (await shapeOutcome(bundle, seed)) as { anthropic: rt.AnthropicTextBlock[]; bedrock: rt.BedrockSystemBlock[]; openaiExplicit: rt.OpenAIInputRequest };
      const { anthropic, bedrock } = outcome;
      const bedrockTexts = bedrock.flatMap((block) => ('text' in block ? [block.text] : []));
      const openaiTexts = outcome.openaiExplicit.input[0]!.content.map((block) => block.text);
      expect(openaiTexts, seed.name).toEqual(anthropic.map((block) => block.text));
      const fromBundle = !('chain' in seed.source) || (seed.source.chain.custom === undefined && seed.source.chain.override === undefined);
      const profile = 'profile' in seed.source ? seed.source.profile : undefined;
      const hasStatic = profile !== 'dynamic-only' && profile !== 'empty';
      if (fromBundle && hasStatic) {
        expect(anthropic[0]?.cache_control, seed.name).toEqual({ type: 'ephemeral', ttl: '1h' });
        expect(bedrock[1], seed.name).toEqual({ cachePoint: { type: 'default', ttl: '1h' } });
      } else {
        expect(anthropic.filter((block) => block.cache_control?.ttl === '1h'), seed.name).toEqual([]);
      }
      for (const appended of [seed.systemContext ? 'gitStatus: ' : null, 'Appended text.', 'platform: linux']) {
        if (appended === null) continue;
        for (const texts of [anthropic.map((block) => block.text), bedrockTexts, openaiTexts]) {
          const holding = texts.flatMap((text, index) => (text.includes(appended) ? [index] : []));
          expect(holding.every((index) => index === texts.length - 1 && (index > 0 || !fromBundle || !hasStatic)), `${seed.name}: ${appended}`).toBe(true);
        }
      }
    }
  });

  it.each(seeds.TAMPER_SEEDS)('tampered: $name', async (seed) => {
    const dist = await buildTree();
    await damage(dist, seed);
    const outcome = await settle(() => rt.loadBundle(dist));
    if ('ok' in seed.js) {
      expect(outcome).not.toHaveProperty('error');
    } else {
      expect(outcome).toEqual({ error: 'BundleError' });
      await expect(rt.loadBundle(dist)).rejects.toThrow(seed.js.names);
    }
  });
});
