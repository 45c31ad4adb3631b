/**
 * `prompt-build usage` (docs/usage.md#reading-a-log-prompt-build-usage) over a log written
 * by the runtime's own recorder and JSONL sink from two real builds
 * (usage-log.ts, where each request's answer is spelled out): the known
 * answers — hit rates, costs, misses by cause, the prefix that never hit,
 * the section behind a change, the TTL verdicts — and golden text and
 * Markdown (`UPDATE=1` rewrites them). Run in-process through `main`. The
 * same records also go through the OpenTelemetry sink into the real SDK's
 * in-memory exporter, written out as a collector's OTLP/JSON file: that
 * export gives the same report.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../compiler/cli/main.js';
import { openTelemetryUsageSink, type OpenTelemetryApi } from '../../compiler/runtime/usage-opentelemetry.js';
import type { UsageReport } from '../../compiler/usage/usage-report.js';
import type { PrefixUsage } from '../../compiler/usage/usage-tally.js';
import { otlpJsonLine } from './otlp-json.js';
import { writeUsageProject, type UsageProject } from './usage-log.js';

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const UPDATE = process.env.UPDATE === '1';

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (text) => void (out += text), err: (text) => void (err += text) });
  return { code, out, err };
}

let project: UsageProject;
let report: UsageReport;
const spans = new InMemorySpanExporter();

beforeAll(async () => {
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  project = await writeUsageProject([openTelemetryUsageSink(api as unknown as OpenTelemetryApi)]);
  const json = await run('usage', project.log, '--bundle', project.before, '--bundle', project.after, '--json');
  expect(json.code).toBe(0);
  report = JSON.parse(json.out) as UsageReport;
}, 60_000);

afterAll(() => {
  api.trace.disable();
});

const prefix = (owner: string, nth = 0): PrefixUsage => report.prefixes.filter((p) => (p.profile ?? `agent ${p.agent}`) === owner)[nth]!;

describe('prompt-build usage: the known answers', () => {
  it('reads every record of the round trip, one row per profile × prefix × model, the most requested first', () => {
    expect(report.records).toBe(13);
    expect(report.skipped.count).toBe(0);
    expect(report.prefixes.map((p) => [p.profile ?? `agent ${p.agent}`, p.model, p.requests])).toEqual([
      ['default', 'claude-sonnet-4-5-20250929', 5],
      ['agent explore', 'gpt-5-2025-08-07', 3],
      ['simple', 'claude-sonnet-4-5-20250929', 3],
      ['default', 'claude-sonnet-4-5-20250929', 2],
    ]);
  });

  it('counts hits, tokens and cost in base-input-token units by the cache facts’ multipliers', () => {
    const before = prefix('default');
    expect([before.hits, before.writes, before.uncachedOnly, before.hitRate]).toEqual([3, 2, 0, 0.6]);
    expect(before.tokens).toEqual({ read: 9000, written: 6000, written5m: 6000, written1h: 0, uncached: 200, input: 15200, output: 500 });
    // 200 uncached + 9,000 read × 0.1 + 6,000 written (5 minutes) × 1.25
    expect(before.cost).toEqual({ actual: 8600, uncached: 15200, saved: 6600 });
    // OpenAI: 4,904 uncached + 4,096 read × 0.1 (GPT-5's cached input price)
    expect(prefix('agent explore').cost!.actual).toBeCloseTo(4904 + 409.6, 6);
  });

  it('names each miss’s likely cause: first write, TTL expired, the provider’s system_changed with its section, below the minimum', () => {
    const causes = (p: PrefixUsage) => p.misses.map((m) => [m.key, m.requests]);
    expect(causes(prefix('default'))).toEqual([
      ['first-write', 1],
      ['ttl-expired', 1],
    ]);
    expect(causes(prefix('default', 1))).toEqual([['system_changed: section `tone` changed', 1]]);
    expect(prefix('default', 1).misses[0]!.missedTokens).toBe(2900);
    expect(causes(prefix('simple'))).toEqual([['below-minimum', 3]]);
    expect(causes(prefix('agent explore'))).toEqual([['first-write', 1]]);
  });

  it('gives a prefix that never hit its likeliest cause, from the bundle’s count against the model’s minimum', () => {
    expect(prefix('simple').neverHit).toBe('below-minimum');
    expect(prefix('simple').prefix).toMatchObject({ minimum: 1024, verdict: 'not-cached' });
    expect(prefix('default').prefix).toMatchObject({ verdict: 'cached' });
    expect(report.prefixes.filter((p) => p.neverHit !== null)).toHaveLength(1);
  });

  it('names the sections that changed between a profile’s two prefixes, from the two bundles', () => {
    expect(prefix('default', 1).changedFrom).toEqual({ staticPrefixHash: prefix('default').staticPrefixHash, sections: ['section `tone` changed'] });
    expect(prefix('default').changedFrom).toBeNull();
  });

  it('prices the traffic under both TTLs: 1 hour saves on a 28-minute gap, 5 minutes on a 1-minute one', () => {
    // Gaps: first, 1, 1, 28, 1 minutes. 5m: writes at 0 and 28 (3,000 × 1.25 each), reads 3 × 300 = 8,400;
    // 1h: one write (3,000 × 2), reads 4 × 300 = 7,200.
    expect(prefix('default').ttl).toMatchObject({ gaps: { within5m: 3, within1h: 1, later: 1 }, cost5m: 8400, cost1h: 7200, better: '1h', saving: 1200, asked: '5m' });
    expect(prefix('default').ttl!.setting).toContain("set staticTtl: '1h'");
    expect(prefix('default', 1).ttl).toMatchObject({ better: '5m', asked: '5m' });
    expect(prefix('default', 1).ttl!.setting).toBe('keep the 5-minute default');
    // OpenAI prices no 5m/1h choice.
    expect(prefix('agent explore').ttl).toBeNull();
  });
});

describe('prompt-build usage: formats and input', () => {
  it.each([
    ['text', 'report.txt'],
    ['markdown', 'report.md'],
  ])('--format %s matches its golden file', async (format, file) => {
    const { code, out } = await run('usage', project.log, '--bundle', project.before, '--bundle', project.after, '--format', format);
    expect(code).toBe(0);
    const golden = path.join(GOLDEN, file);
    if (UPDATE) await fs.writeFile(golden, out);
    expect(out).toBe(await fs.readFile(golden, 'utf8'));
  });

  it('merges several logs by time into the same report', async () => {
    const lines = (await fs.readFile(project.log, 'utf8')).trimEnd().split('\n');
    const [a, b] = [path.join(project.root, 'a.jsonl'), path.join(project.root, 'b.jsonl')];
    await fs.writeFile(a, lines.filter((_, i) => i % 2 === 0).join('\n'));
    await fs.writeFile(b, lines.filter((_, i) => i % 2 === 1).join('\n'));
    const merged = JSON.parse((await run('usage', a, b, '--bundle', project.before, '--bundle', project.after, '--json')).out) as UsageReport;
    expect(merged.prefixes).toEqual(report.prefixes);
  });

  it('skips lines that are not records, naming the first of them, and reads the rest', async () => {
    const log = path.join(project.root, 'damaged.jsonl');
    const good = (await fs.readFile(project.log, 'utf8')).split('\n')[0]!;
    // Line 5 is longer than a read (3 MB): skipped to its end without being held; line 7 has a Windows line end.
    const lines = ['not json', good, '{"v":2}', JSON.stringify({ ...JSON.parse(good), tokens: { read: -1 } }), 'x'.repeat(3_000_000), '', `${good}\r`, ''];
    await fs.writeFile(log, lines.join('\n'));
    const { code, out } = await run('usage', log, '--json');
    expect(code).toBe(0);
    const damaged = JSON.parse(out) as UsageReport;
    expect(damaged.records).toBe(2);
    expect(damaged.skipped).toEqual({
      count: 4,
      first: [
        { file: log, line: 1, problem: 'not JSON' },
        { file: log, line: 3, problem: 'not a usage record of version 1 (v: 2)' },
        { file: log, line: 4, problem: 'tokens.read is not a whole number' },
        { file: log, line: 5, problem: 'longer than 65536 characters' },
      ],
    });
  });

  it('reads an OpenTelemetry JSON export of the same responses into the same report, leaving other spans out', async () => {
    const finished = spans.getFinishedSpans();
    expect(finished).toHaveLength(report.records);
    const host = new BasicTracerProvider().getTracer('host').startSpan('GET /chat');
    host.setAttributes({ 'gen_ai.usage.input_tokens': 7, 'gen_ai.provider.name': 'openai' });
    host.end();
    const export_ = path.join(project.root, 'traces.jsonl');
    // Two batches, the first in reverse order with another instrumentation's span; then a metrics export and a line cut short.
    const first = [...finished.slice(0, 6)].reverse();
    const lines = [otlpJsonLine([...first, host as unknown as (typeof finished)[number]]), otlpJsonLine(finished.slice(6)), '{"resourceMetrics":[]}', '{"resourceSpans":[{"scopeSpans":['];
    await fs.writeFile(export_, `${lines.join('\n')}\n`);
    const { code, out } = await run('usage', export_, '--bundle', project.before, '--bundle', project.after, '--json');
    expect(code).toBe(0);
    const fromSpans = JSON.parse(out) as UsageReport;
    expect(fromSpans).toMatchObject({ records: report.records, from: report.from, to: report.to, prefixes: report.prefixes });
    expect(fromSpans.skipped.first).toEqual([
      { file: export_, line: 3, problem: 'an OpenTelemetry export of metrics or logs, not of spans' },
      { file: export_, line: 4, problem: 'not JSON' },
    ]);
  });

  it('names a span of ours that cannot be a record, and reads the rest of its batch', async () => {
    const line = JSON.parse(otlpJsonLine(spans.getFinishedSpans().slice(0, 2))) as { resourceSpans: [{ scopeSpans: [{ spans: { spanId: string; attributes: { key: string; value: unknown }[] }[] }] }] };
    const [bad] = line.resourceSpans[0].scopeSpans[0].spans;
    bad!.attributes.find((a) => a.key === 'gen_ai.usage.input_tokens')!.value = { intValue: '-3' };
    const log = path.join(project.root, 'bad-span.jsonl');
    await fs.writeFile(log, JSON.stringify(line));
    const damaged = JSON.parse((await run('usage', log, '--json')).out) as UsageReport;
    expect(damaged.records).toBe(1);
    expect(damaged.skipped.first).toEqual([{ file: log, line: 1, problem: `span ${bad!.spanId}: gen_ai.usage.input_tokens is not a whole number` }]);
  });

  it('refuses no log, a missing one, and a directory, with exit 2', async () => {
    expect(await run('usage')).toMatchObject({ code: 2, err: expect.stringContaining('give at least one usage log') });
    expect(await run('usage', path.join(project.root, 'nope.jsonl'))).toMatchObject({ code: 2, err: expect.stringContaining('does not exist') });
    expect(await run('usage', project.root)).toMatchObject({ code: 2, err: expect.stringContaining('is not a regular file') });
  });
});
