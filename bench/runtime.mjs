// Runtime benchmark (issue 3, acceptance 4a and 4c): assembling a profile on a
// warm section cache against the floor of joining the same pre-rendered
// strings, and the time to load a bundle directory. Reads the compiled runtime
// in lib/ (`npx tsc -p tsconfig.json` first), as a service would.
import { createSectionCache, getSystemPrompt, loadBundle } from '../lib/runtime/index.js';

const SEPARATOR = '\n\n';
// Calls timed together per sample: one call is too short for the timer.
const BATCH = 200;
const LOAD_RUNS = 21;

/**
 * Medians over `iterations` samples: `floorNs` (array.join of the strings the
 * profile assembles to), `assembleNs` (getSystemPrompt on a warm cache, then
 * the same join), their `ratio` (target ≤ 3), and `loadBundleMs`. Uncached
 * sections are rendered on every call, as in a real request. Pass a realistic
 * `context`; the default gives each input of the profile a short string.
 */
export async function benchAssemble(bundleDir, { iterations = 200, profile = 'default', context } = {}) {
  const loadTimes = [];
  let bundle;
  for (let run = 0; run < LOAD_RUNS; run++) {
    const start = process.hrtime.bigint();
    bundle = await loadBundle(bundleDir);
    loadTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
  }

  const options = { profile, context: context ?? sampleContext(bundle, profile), cache: createSectionCache() };
  const strings = [...(await getSystemPrompt(bundle, options))];
  let sink = 0;
  const floor = () => {
    sink += strings.join(SEPARATOR).length;
  };
  const assemble = async () => {
    sink += (await getSystemPrompt(bundle, options)).join(SEPARATOR).length;
  };

  // Warm up the JIT on both paths before measuring.
  for (let i = 0; i < 20; i++) {
    await sampleNs(floor);
    await sampleNs(assemble);
  }
  const floorSamples = [];
  const assembleSamples = [];
  // Interleaved, so that machine noise falls on both alike.
  for (let i = 0; i < iterations; i++) {
    floorSamples.push(await sampleNs(floor));
    assembleSamples.push(await sampleNs(assemble));
  }
  if (sink === 0) throw new Error('the benchmarked prompt is empty');

  const floorNs = median(floorSamples);
  const assembleNs = median(assembleSamples);
  return { floorNs, assembleNs, ratio: assembleNs / floorNs, loadBundleMs: median(loadTimes) };
}

/** Mean nanoseconds per call over one batch. */
async function sampleNs(fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) await fn();
  return Number(process.hrtime.bigint() - start) / BATCH;
}

function sampleContext(bundle, profile) {
  const entry = bundle.manifest.profiles[profile];
  if (!entry) throw new Error(`bundle has no profile ${profile}`);
  const context = {};
  for (const section of entry.sections) {
    if (section.kind !== 'dynamic') continue;
    for (const input of section.inputs) context[input] = `sample ${input}`;
  }
  return context;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
