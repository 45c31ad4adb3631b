/**
 * A usage log with known answers, written through the runtime's own
 * recorder and JSONL sink from two real builds of one project (the second
 * with the `tone` section edited: a deploy): the round trip `prompt-build
 * usage` reads. What each request does, and so what the report must say, is
 * spelled out beside it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { createSectionCache, createUsageRecorder, getAgentSystemPrompt, getSystemPrompt, jsonlUsageSink, loadBundle, type Bundle, type UsageSink } from '../../compiler/runtime/index.js';
import { ANTHROPIC, OPENAI } from '../conformance/usage-fixtures.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const START = Date.parse('2026-03-02T09:00:00.000Z');
const minutes = (n: number) => START + n * 60_000;

/** An Anthropic response with these counts (the shapes of the SDK-typed fixtures). */
function anthropic(id: string, counts: { read?: number; written5m?: number; written1h?: number; uncached?: number }, miss?: { type: string; cache_missed_input_tokens: number }) {
  const written5m = counts.written5m ?? 0;
  const written1h = counts.written1h ?? 0;
  return {
    ...ANTHROPIC.warmHit,
    id,
    diagnostics: miss ? { cache_miss_reason: miss } : null,
    usage: {
      ...ANTHROPIC.warmHit.usage,
      input_tokens: counts.uncached ?? 40,
      cache_read_input_tokens: counts.read ?? 0,
      cache_creation_input_tokens: written5m + written1h,
      cache_creation: { ephemeral_5m_input_tokens: written5m, ephemeral_1h_input_tokens: written1h },
      output_tokens: 100,
    },
  };
}

function openai(id: string, cached: number) {
  return { ...OPENAI.automaticHit, id, usage: { ...OPENAI.automaticHit.usage!, input_tokens: 3000, input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 } } };
}

/** 120 numbered lines of about 20 tokens each. */
const rules = (word: string, text: string) => Array.from({ length: 120 }, (_, i) => `${word} ${i + 1}: ${text}.`).join('\n') + '\n';

export interface UsageProject {
  root: string;
  before: string;
  after: string;
  log: string;
}

/** Builds the project twice and writes the log (the same records go to `sinks` too); returns the two bundle directories and the log's path. */
export async function writeUsageProject(sinks: readonly UsageSink[] = []): Promise<UsageProject> {
  const root = await tempDir('pb-usage-log-');
  await writeTree(root, {
    'prompts/sections/intro.md': 'You are a careful coding assistant. Read before you edit.\n',
    // Long enough for Claude's and GPT-5's minimums (1,024 tokens): the default profile's prefix and the agent are cached.
    'prompts/sections/guide.md': rules('Rule', 'read the file before you edit it, keep each change small, and run the tests that cover it'),
    'prompts/sections/tone.md': 'Be brief.\n',
    'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
    'prompts/profiles/default.md': '---\nsections: [intro, guide, tone, env]\n---\n',
    // Far below every minimum: never cached.
    'prompts/profiles/simple.md': '---\nsections: [intro]\ncacheWarning: false\n---\n',
    'agents/explore.md': `---\nname: explore\ndescription: Reads code.\n---\n${rules('Step', 'search for the symbol, open the file that defines it, and note where it is used')}`,
  });
  const before = path.join(root, 'dist-before');
  const after = path.join(root, 'dist');
  expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
  await fs.cp(after, before, { recursive: true });
  await fs.writeFile(path.join(root, 'prompts/sections/tone.md'), 'Be brief and kind.\n');
  expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
  const [old, now] = await Promise.all([loadBundle(before), loadBundle(after)]);
  const lines: string[] = [];
  await record(old, now, [jsonlUsageSink({ write: (text: string) => lines.push(text) }), ...sinks]);
  const log = path.join(root, 'usage.jsonl');
  await fs.writeFile(log, lines.join(''));
  return { root, before, after, log };
}

async function record(old: Bundle, now: Bundle, sinks: readonly UsageSink[]): Promise<void> {
  const recorder = createUsageRecorder({ sinks, diagnostics: true });
  const context = { context: { cwd: '/w' }, cache: createSectionCache() };
  const oldDefault = await getSystemPrompt(old, context);
  const newDefault = await getSystemPrompt(now, context);
  const simple = await getSystemPrompt(old, { ...context, profile: 'simple' });
  const explore = getAgentSystemPrompt(old, 'explore');
  const at = (n: number, session = 's-1', bundle = old) => ({ time: minutes(n), session, bundle, ttl: '5m' as const });
  // default, before the deploy: a write, two reads, a 28-minute gap (the 5-minute entry expired), a read.
  recorder.record(oldDefault, anthropic('msg_a1', { written5m: 3000 }), at(0));
  recorder.record(oldDefault, anthropic('msg_a2', { read: 3000 }), at(1));
  recorder.record(oldDefault, anthropic('msg_a3', { read: 3000 }), at(2));
  recorder.record(oldDefault, anthropic('msg_a4', { written5m: 3000 }), at(30));
  recorder.record(oldDefault, anthropic('msg_a5', { read: 3000 }), at(31));
  // default, after the deploy: Anthropic says system_changed, the recorder names `tone`; then a read.
  recorder.record(newDefault, anthropic('msg_b1', { written5m: 3100 }, { type: 'system_changed', cache_missed_input_tokens: 2900 }), at(40, 's-1', now));
  recorder.record(newDefault, anthropic('msg_b2', { read: 3100 }), at(41, 's-1', now));
  // simple: a prefix far below Claude's minimum, so nothing is ever read or written.
  for (const n of [50, 51, 52]) recorder.record(simple, anthropic(`msg_c${n}`, { uncached: 60 }), at(n, `s-${n}`));
  // the explore agent on OpenAI: a miss, then two reads (OpenAI reports no writes).
  recorder.record(explore, openai('resp_d1', 0), at(60, 's-9'));
  recorder.record(explore, openai('resp_d2', 2048), at(61, 's-9'));
  recorder.record(explore, openai('resp_d3', 2048), at(62, 's-9'));
}
