/**
 * OpenAI models get exact o200k_base counts: the counter must agree with
 * js-tiktoken (OpenAI's tiktoken ported to JavaScript, the reference) on
 * every file of the third-party corpus, and a build configured for an
 * OpenAI model records those counts per text in the manifest.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { loadTokenCounting } from '../../compiler/tokens/token-counters.js';
import { markdownUnder, REPO, tempDir, writeTree } from '../helpers/tree.js';
import type { Manifest } from '../../compiler/runtime/manifest.js';

const CORPUS = path.resolve(REPO, '../shared/corpus');
const corpus = await markdownUnder(CORPUS);
// Built once: the reference builds its ranks in seconds.
const reference = new Tiktoken(o200kRanks);
/** Special-token text counted as the characters it is, as the counter does. */
const referenceCount = (text: string) => reference.encode(text, [], []).length;

/**
 * Runs cut every 1,000 characters: inside a run of brackets, of letters, of emoji (never between a surrogate pair's
 * halves) — each with the reference's count of its text (`longRunText`). Recorded, not counted on each run: the
 * reference merges a run whole in time with the square of its length, 12 s for these four, and the count of a fixed
 * text in a fixed encoding does not change; the opt-in test below counts them again.
 */
const LONG_RUNS: ReadonlyArray<readonly [run: string, reference: number]> = [
  ['['.repeat(5_500), 2755],
  ['abc'.repeat(2_000), 2005],
  ['🎉'.repeat(1_800), 3605],
  ['x9_'.repeat(700), 1406],
];
const longRunText = (run: string) => `Before the blob ${run} after.\n`;

describe('o200k_base counts', () => {
  it.runIf(corpus.length > 0)(`equal js-tiktoken's on every corpus file (${corpus.length} files)`, async () => {
    const counting = await loadTokenCounting(['gpt-4o']);
    expect(counting.primary).toMatchObject({ name: 'o200k_base', method: 'exact' });
    const mismatches: string[] = [];
    for (const file of corpus) {
      const text = await fs.readFile(file, 'utf8');
      const { tokens, tokenCounts } = counting.countAll(text);
      expect(tokenCounts).toEqual({ o200k_base: { tokens, method: 'exact' } });
      if (tokens !== referenceCount(text)) mismatches.push(`${path.relative(CORPUS, file)}: ${tokens} ≠ ${referenceCount(text)}`);
    }
    expect(mismatches).toEqual([]);
  });
  it.skipIf(corpus.length > 0)('(skipped: ../shared/corpus is absent, so the corpus comparison has nothing to read)', () => {});

  it('count special-token text, emoji and CJK as text', async () => {
    const counting = await loadTokenCounting(['gpt-5']);
    for (const text of ['<|endoftext|> and <|im_start|>', '🎉 box ─┼─ drawing', '日本語のテキスト', '']) {
      expect(counting.countAll(text).tokens).toBe(referenceCount(text));
    }
  });

  it('count a run too long to merge whole in slices: within two tokens a cut of the reference, and marked an estimate', async () => {
    const counting = await loadTokenCounting(['gpt-4o']);
    for (const [run, reference] of LONG_RUNS) {
      const text = longRunText(run);
      const { tokens, tokenCounts } = counting.countAll(text);
      const cuts = Math.floor((run.length - 1) / 1000);
      expect(Math.abs(tokens - reference), run.slice(0, 6)).toBeLessThanOrEqual(2 * cuts);
      expect(tokenCounts.o200k_base!.method, run.slice(0, 6)).toBe(cuts > 0 ? 'estimate' : 'exact');
    }
  });

  it.runIf(process.env.PROMPT_BUILD_LONG === '1')('the long runs’ recorded reference counts are what the reference gives (PROMPT_BUILD_LONG=1)', () => {
    expect(LONG_RUNS.map(([run]) => referenceCount(longRunText(run)))).toEqual(LONG_RUNS.map(([, reference]) => reference));
  });

  it('a build for an OpenAI model records each text’s exact count in the manifest, and the static prefix’s', async () => {
    const root = await tempDir();
    const intro = corpus.length > 0 ? await fs.readFile(corpus[0]!, 'utf8') : 'You are a careful assistant. ✓\n';
    await writeTree(root, {
      'prompts/profiles/default.md': '---\nsections: [intro, rules]\n---\n',
      'prompts/sections/intro.md': `---\nname: intro\n---\n${intro.replace(/^---[\s\S]*?\n---\n/, '').replaceAll('@', '(at)').replaceAll('{{', '{ {')}`,
      'prompts/sections/rules.md': '---\nname: rules\n---\nNever guess a number: 3.14159, 2,048 and 0x1F are data.\n',
    });
    const result = await buildProject({ root, cacheDir: null, models: ['gpt-4o'] });
    expect(result.ok).toBe(true);
    const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8')) as Manifest;
    const profile = manifest.profiles.default!;
    let sum = 0;
    for (const section of profile.sections) {
      const text = await fs.readFile(path.join(root, 'dist', section.file), 'utf8');
      expect(section.tokenCounts).toEqual({ o200k_base: { tokens: referenceCount(text), method: 'exact' } });
      expect(section.tokens).toBe(referenceCount(text));
      sum += referenceCount(text);
    }
    expect(profile.staticTokenCounts).toEqual({ o200k_base: { tokens: sum, method: 'exact' } });
  });
});
