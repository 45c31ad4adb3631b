// Usage benchmark (issue 32): `prompt-build usage` over a log of 1,000,000
// records, a whole process (time and peak RSS; targets < 10 s, < 256 MB),
// and what recording one response costs a request, against a warm assemble
// of the same profile: `recordUsage` alone, a recorder with the
// OpenTelemetry sink and no SDK registered, that sink alone on a record made
// already (what the sink adds when no SDK is registered), and a recorder
// with the in-memory SDKs.
// Reads the compiled runtime and CLI in lib/ (`npm run build:tool` first).
//   node bench/usage.mjs [--records N]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createOpenTelemetryUsageSink,
  createSectionCache,
  createUsageRecorder,
  getSystemPrompt,
  loadBundle,
  recordUsage,
} from '../lib/runtime/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.join(HERE, '..');
const BATCH = 200;

/** One record line per request: 40 prefixes, 3 models, a request every 50 ms (about 14 hours), mostly reads. */
function writeLog(file, records) {
  const out = fs.openSync(file, 'w');
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  const models = ['claude-sonnet-4-5', 'claude-haiku-4-5', 'gpt-5'];
  let chunk = '';
  for (let i = 0; i < records; i++) {
    const prefix = i % 40;
    const model = models[i % 3];
    const hit = i % 10 !== 0;
    const read = hit ? 3000 : 0;
    const written = hit ? 0 : 3000;
    const record = {
      v: 1,
      time: new Date(start + i * 50).toISOString(),
      provider: model.startsWith('gpt') ? 'openai' : 'anthropic',
      api: model.startsWith('gpt') ? 'responses' : 'messages',
      model,
      profile: `profile-${prefix}`,
      agent: null,
      staticPrefixHash: prefix.toString(16).padStart(64, 'a'),
      bundle: '0123456789abcdef',
      tokens: { read, written, written5m: written, written1h: 0, uncached: 40, input: read + written + 40, output: 120 },
      ttl: '5m',
      responseId: `msg_${i}`,
      requestId: null,
      session: `s-${i % 5000}`,
      miss: null,
    };
    chunk += `${JSON.stringify(record)}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

/** `prompt-build usage LOG --json` as a process: wall time and peak RSS. */
function readLog(file) {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [path.join(HERE, 'peak-rss.mjs'), path.join(REPO, 'lib/bin/prompt-build.js'), 'usage', file, '--json'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`prompt-build usage failed (${run.status}): ${run.stderr}`);
  const rss = /peak-rss-kb (\d+)/.exec(run.stderr);
  const report = JSON.parse(run.stdout);
  return { ms, peakRssMb: rss ? Number(rss[1]) / 1024 : NaN, records: report.records, prefixes: report.prefixes.length };
}

async function sampleNs(fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) await fn();
  return Number(process.hrtime.bigint() - start) / BATCH;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Medians over interleaved samples: a warm assemble, and each way of recording its response. */
async function recordCosts(iterations) {
  const bundle = await loadBundle(path.join(REPO, 'dist'));
  const options = { context: { cwd: '/w', isGitRepo: true, platform: 'linux' }, cache: createSectionCache() };
  const prompt = await getSystemPrompt(bundle, options);
  const response = {
    id: 'msg_01',
    model: 'claude-sonnet-4-5',
    diagnostics: null,
    usage: { input_tokens: 40, cache_read_input_tokens: 3000, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 100 },
  };
  const otelSink = await createOpenTelemetryUsageSink();
  const noSdk = createUsageRecorder({ bundle, sinks: [otelSink] });
  const made = recordUsage(prompt, response);
  let sink = 0;
  const ways = {
    assemble: async () => void (sink += (await getSystemPrompt(bundle, options)).length),
    record: () => void (sink += recordUsage(prompt, response).tokens.read),
    recorderNoSdk: () => void (sink += noSdk.record(prompt, response).tokens.read),
    sinkNoSdk: () => void (sink += otelSink(made) ?? 1),
  };
  const samples = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  const measure = async (names, rounds) => {
    for (let i = 0; i < rounds; i++) for (const name of names) samples[name].push(await sampleNs(ways[name]));
  };
  await measure(Object.keys(ways), 20);
  for (const name of Object.keys(samples)) samples[name] = [];
  await measure(Object.keys(ways), iterations);
  // Then with the in-memory SDKs registered, as a host registers its own.
  const api = await import('@opentelemetry/api');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, InMemoryMetricExporter, PeriodicExportingMetricReader, AggregationTemporality } = await import('@opentelemetry/sdk-metrics');
  const spans = new InMemorySpanExporter();
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 })] }));
  ways.recorderSdk = () => {
    sink += noSdk.record(prompt, response).tokens.read;
    spans.reset();
  };
  samples.recorderSdk = [];
  await measure(['recorderSdk'], 20);
  samples.recorderSdk = [];
  await measure(['assemble', 'recorderSdk'], iterations);
  if (sink === 0) throw new Error('nothing was measured');
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export async function benchUsage({ records = 1_000_000, iterations = 100 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-usage-'));
  try {
    const file = path.join(dir, 'usage.jsonl');
    writeLog(file, records);
    const read = readLog(file);
    if (read.records !== records) throw new Error(`read ${read.records} of ${records} records`);
    const ns = await recordCosts(iterations);
    return { records, logMegabytes: fs.statSync(file).size / 1e6, readMs: read.ms, peakRssMb: read.peakRssMb, ns };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--records');
  const result = await benchUsage(at === -1 ? {} : { records: Number(process.argv[at + 1]) });
  console.log(JSON.stringify(result, null, 2));
}
