// Provider adapters (issue 14, acceptance 4): each adapter on the default
// profile's prompt against `toSystemBlocks` as it was before the adapters
// existed (kept below, from commit d1e95be: one pass over the parts, the
// undocumented `scope: 'global'` included), interleaved medians in one
// process. Reads the compiled runtime in lib/, as a service would.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSectionCache, getSystemPrompt, loadBundle, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, toAnthropicSystem, toBedrockSystem, toGeminiSystemInstruction, toOpenAIRequest } from '../lib/runtime/index.js';

const BATCH = 500;

/** The floor: the first `toSystemBlocks`, as it was written before the adapters. */
function toSystemBlocksBefore(systemPrompt, options = {}) {
  const cache = options.cache ?? true;
  const boundary = systemPrompt.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  if (boundary === -1) return textBlocks([[systemPrompt, cache ? { type: 'ephemeral' } : undefined]]);
  return textBlocks([
    [systemPrompt.slice(0, boundary), cache ? { type: 'ephemeral', scope: 'global' } : undefined],
    [systemPrompt.slice(boundary + 1), cache ? { type: 'ephemeral' } : undefined],
  ]);
}

function textBlocks(parts) {
  const blocks = [];
  for (const [strings, cacheControl] of parts) {
    const text = strings.filter((part) => part !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY).join('\n\n');
    if (text === '') continue;
    blocks.push(cacheControl ? { type: 'text', text, cache_control: cacheControl } : { type: 'text', text });
  }
  return blocks;
}

/** Nanoseconds per call of each adapter and of the floor, and each adapter's ratio to it (target ≤ 1.2×). */
export async function benchAdapters(bundleDir, { samples = 300 } = {}) {
  const bundle = await loadBundle(bundleDir);
  const context = {};
  for (const section of bundle.manifest.profiles.default.sections) {
    if (section.kind === 'dynamic') for (const input of section.inputs) context[input] = `sample ${input}`;
  }
  const prompt = await getSystemPrompt(bundle, { context, cache: createSectionCache() });
  const candidates = {
    floor: () => toSystemBlocksBefore(prompt),
    anthropic: () => toAnthropicSystem(prompt),
    bedrock: () => toBedrockSystem(prompt),
    openai: () => toOpenAIRequest(prompt),
    gemini: () => toGeminiSystemInstruction(prompt),
  };
  let sink = 0;
  const sample = (run) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) sink += run() === undefined ? 0 : 1;
    return Number(process.hrtime.bigint() - start) / BATCH;
  };
  const times = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (let i = 0; i < samples / 10; i++) for (const run of Object.values(candidates)) sample(run);
  // Interleaved, so that machine noise falls on all alike.
  for (let i = 0; i < samples; i++) for (const [name, run] of Object.entries(candidates)) times[name].push(sample(run));
  if (sink === 0) throw new Error('no adapter returned anything');
  const ns = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
  return { ns, ratios: Object.fromEntries(Object.keys(candidates).filter((n) => n !== 'floor').map((n) => [n, ns[n] / ns.floor])) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

const HERE = fileURLToPath(import.meta.url);
if (process.argv[1] === HERE) console.log(await benchAdapters(path.join(path.dirname(HERE), '..', 'dist')));
