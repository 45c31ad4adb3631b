/**
 * What the boundary is worth, shown per configured model by `inspect` and
 * `render`: whether each static prefix is cached at all, and its cost per
 * request on a cold cache against a warm one (from the facts' multipliers).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prefixEconomics } from '../../compiler/cache-facts/cache-economics.js';
import { runCli } from '../helpers/cli.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

describe('prefixEconomics', () => {
  it('Anthropic: written at 1.25× on a cold cache, read at 0.1× on a warm one', () => {
    expect(prefixEconomics('claude-sonnet-4-5', 3000)).toEqual({
      model: 'claude-sonnet-4-5',
      family: 'Claude Sonnet 4.5',
      staticTokens: 3000,
      minimumTokens: 1024,
      cached: true,
      verdict: 'cached',
      uncached: 3000,
      cold: 3750,
      warm: 300,
    });
  });

  it('below the minimum nothing is cached: every request pays the whole prefix', () => {
    expect(prefixEconomics('claude-opus-4-5', 3000)).toMatchObject({ cached: false, minimumTokens: 4096, cold: 3000, warm: 3000 });
  });

  it('OpenAI: no write surcharge, and only whole 128-token steps past 1,024 are read from the cache', () => {
    // 1,024 + 15 × 128 = 3,000 - 56: those 56 tokens are sent uncached.
    expect(prefixEconomics('gpt-5', 3000)).toMatchObject({ cached: true, cold: 3000, warm: Math.round(2944 * 0.1) + 56 });
  });

  it('a model with no facts: not known, priced uncached', () => {
    expect(prefixEconomics('mystery-1', 3000)).toMatchObject({ family: null, cached: null, cold: 3000, warm: 3000 });
  });
});

describe('inspect and render show it per configured model', () => {
  it('inspect --json: one row per model and profile', async () => {
    const run = await runCli(['inspect', '--root', REPO, '--json', '--model', 'claude-sonnet-4-5', '--model', 'claude-opus-4-5']);
    const { cache, profiles } = JSON.parse(run.stdout) as { cache: Array<{ model: string; profile: string; cached: boolean }>; profiles: unknown[] };
    expect(cache).toHaveLength(2 * profiles.length);
    expect(cache.find((r) => r.model === 'claude-sonnet-4-5' && r.profile === 'default')?.cached).toBe(true);
    expect(cache.find((r) => r.model === 'claude-opus-4-5' && r.profile === 'default')?.cached).toBe(false);
  });

  it('inspect: a cache table after the profiles and agents', async () => {
    const run = await runCli(['inspect', '--root', REPO, '--model', 'claude-opus-4-5', '--model', 'mystery-1']);
    const table = run.stdout.split('\n\n').at(-1)!.split('\n');
    expect(table[0]).toMatch(/^cache · static prefix per request/);
    expect(table.find((l) => /claude-opus-4-5 +default /.test(l))).toMatch(/no \(< 4,096\)/);
    expect(table.find((l) => /mystery-1 +default /.test(l))).toMatch(/no cache facts/);
  });

  it('render: the boundary line says, per model, whether the prefix above it is cached', async () => {
    const cwd = await tempDir('pb-render-cache-');
    const run = await runCli(['render', '--root', REPO, '--cwd', cwd, '--model', 'claude-sonnet-4-5', '--model', 'claude-opus-4-5'], {
      env: { GIT_CEILING_DIRECTORIES: path.dirname(cwd), HOME: cwd },
    });
    const line = run.stdout.split('\n').find((l) => l.startsWith('════ dynamic boundary'))!;
    expect(line).toMatch(/claude-sonnet-4-5: cached, ~\d+ warm \/ ~\d+ cold \(uncached ~\d+\)/);
    expect(line).toContain('claude-opus-4-5: not cached (below 4096)');
  });
});

describe('one verdict for a prefix near the minimum', () => {
  it('build, inspect, render and the report agree, profile by profile, on profiles whose estimates straddle the minimum', async () => {
    const root = await tempDir('pb-one-verdict-');
    const model = 'claude-sonnet-4-5';
    // Estimates from ~700 to ~1,400 tokens around its 1,024-token minimum, in small steps, so some fall within the estimate's error of it.
    const sizes = Array.from({ length: 15 }, (_, i) => 175 + i * 12);
    const files: Record<string, string> = {};
    sizes.forEach((words, i) => {
      files[`prompts/sections/s${i}.md`] = `${'alpha beta gamma delta '.repeat(words)}\n`;
      files[`prompts/profiles/p${i}.md`] = `---\nsections: [s${i}]\n---\n`;
    });
    await writeTree(root, files);
    const build = await runCli(['build', '--root', root, '--no-cache', '--model', model, '--reporter', 'json']);
    expect(build.code, build.stderr).toBe(0);
    const warned = new Map<string, string>();
    for (const d of (JSON.parse(build.stdout) as { diagnostics: Array<{ rule: string; file: string; message: string }> }).diagnostics) {
      if (d.rule === 'cache/prefix-below-minimum') warned.set(path.basename(d.file, '.md'), d.message.includes('which may be below') ? 'may-not-be-cached' : 'not-cached');
    }
    const inspect = JSON.parse((await runCli(['inspect', '--root', root, '--json', '--model', model])).stdout) as { cache: Array<{ profile: string; verdict: string }> };
    const verdicts = new Map(inspect.cache.map((r) => [r.profile, r.verdict]));
    for (let i = 0; i < sizes.length; i++) expect(verdicts.get(`p${i}`), `p${i}`).toBe(warned.get(`p${i}`) ?? 'cached');
    // The range holds all three verdicts, or the test shows nothing.
    expect(new Set(verdicts.values())).toEqual(new Set(['cached', 'not-cached', 'may-not-be-cached']));

    const maybe = [...verdicts].find(([, v]) => v === 'may-not-be-cached')![0];
    const cwd = await tempDir('pb-one-verdict-cwd-');
    const env = { GIT_CEILING_DIRECTORIES: path.dirname(cwd), HOME: cwd };
    const render = await runCli(['render', '--root', root, '--cwd', cwd, '--profile', maybe, '--model', model], { env });
    expect(render.stdout).toContain(`${model}: may not be cached`);
    const human = await runCli(['inspect', '--root', root, '--model', model]);
    expect(human.stdout.split('\n').find((l) => new RegExp(`${model} +${maybe} `).test(l))).toMatch(/maybe \(estimate near 1,024\)/);
    const report = await runCli(['report', '--root', root, '--out-file', '-', '--model', model]);
    expect(report.stdout).toContain('maybe — the estimate is within its error of the minimum');
  });
});
