/**
 * The usage record through the real OpenTelemetry SDKs (docs/usage.md#opentelemetry):
 * `@opentelemetry/sdk-trace-base`'s in-memory span exporter and
 * `@opentelemetry/sdk-metrics`' in-memory metric exporter, registered as a
 * host registers them. Before that, the same sink is a no-op; without the
 * API package, the sink says it is disabled.
 */
import * as api from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asSystemPrompt, createOpenTelemetryUsageSink, createUsageRecorder, recordUsage, usageAttributes, type UsageRecord } from '../../compiler/runtime/index.js';
import { asBundlePrompt } from '../../compiler/runtime/system-prompt.js';
import { ANTHROPIC, BEDROCK } from '../conformance/usage-fixtures.js';

const HASH = 'ab'.repeat(32);
const prompt = asBundlePrompt(['Static.', '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__', 'tail'], HASH, { kind: 'profile', name: 'default' });
const TIME = { time: '2026-03-01T12:00:00Z' };

/** A synchronous context manager (what `@opentelemetry/context-async-hooks` gives a real host): enough for an active span. */
class StackContextManager implements api.ContextManager {
  private stack: api.Context[] = [];
  active(): api.Context {
    return this.stack.at(-1) ?? api.ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: api.Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    this.stack.push(context);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }
  bind<T>(_context: api.Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });

async function metric(name: string): Promise<DataPoint<number | Histogram>[]> {
  metricExporter.reset();
  await reader.forceFlush();
  const all = metricExporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics));
  return all.filter((m) => m.descriptor.name === name).flatMap((m) => m.dataPoints as DataPoint<number | Histogram>[]);
}

const point = (points: DataPoint<number | Histogram>[], attributes: Record<string, string>) => points.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v));

let sink: Awaited<ReturnType<typeof createOpenTelemetryUsageSink>>;
let record: UsageRecord;
/** The fields of the record the sink read while no SDK was registered. */
const readWithoutSdk: PropertyKey[] = [];

beforeAll(async () => {
  // Made before the host registers anything: a no-op now, counting once the SDK is there.
  sink = await createOpenTelemetryUsageSink();
  record = recordUsage(prompt, ANTHROPIC.systemChanged, { ...TIME, session: 's-1', ttl: '5m', previousResponseId: 'msg_01cold' });
  sink(new Proxy(record, { get: (target, key) => (readWithoutSdk.push(key), Reflect.get(target, key)) }));
  expect(spans.getFinishedSpans()).toEqual([]);
  api.context.setGlobalContextManager(new StackContextManager());
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  api.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

afterAll(() => {
  api.trace.disable();
  api.metrics.disable();
  api.context.disable();
});

describe('the OpenTelemetry sink', () => {
  it('is enabled where @opentelemetry/api is installed, and recorded nothing before an SDK was registered', async () => {
    expect(sink.enabled).toBe(true);
    expect(await metric('gen_ai.client.token.usage')).toEqual([]);
  });

  it('tells that no SDK is registered from the API’s own no-ops, and makes nothing of the record', () => {
    expect(readWithoutSdk).toEqual([]);
  });

  it('puts the record on a span of its own when none is active, in the GenAI conventions and ours', () => {
    spans.reset();
    sink(record);
    const [span, ...more] = spans.getFinishedSpans();
    expect(more).toEqual([]);
    expect(span!.name).toBe('chat claude-sonnet-4-5-20250929');
    expect(span!.kind).toBe(api.SpanKind.CLIENT);
    expect(span!.attributes).toEqual(usageAttributes(record));
    expect(span!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5-20250929',
      'gen_ai.response.id': 'msg_05changed',
      'gen_ai.conversation.id': 's-1',
      'gen_ai.usage.input_tokens': 3140,
      'gen_ai.usage.output_tokens': 60,
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.usage.cache_creation.input_tokens': 3100,
      'prompt_build.profile': 'default',
      'prompt_build.static_prefix_hash': HASH,
      'prompt_build.cache.ttl': '5m',
      'prompt_build.cache.miss_reason': 'system_changed',
      'prompt_build.cache.missed_input_tokens': 2900,
    });
  });

  it('puts the record on the host’s active span, making none of its own', () => {
    spans.reset();
    api.trace.getTracer('host').startActiveSpan('anthropic.messages.create', (span) => {
      sink(record);
      span.end();
    });
    const finished = spans.getFinishedSpans();
    expect(finished.map((s) => s.name)).toEqual(['anthropic.messages.create']);
    expect(finished[0]!.attributes).toEqual(usageAttributes(record));
  });

  it('records metrics only with span: none', async () => {
    spans.reset();
    const metricsOnly = await createOpenTelemetryUsageSink({ span: 'none' });
    metricsOnly(record);
    expect(spans.getFinishedSpans()).toEqual([]);
  });

  it('counts tokens and requests per prefix: the token-usage histogram, cache tokens by kind, requests by outcome', async () => {
    const recorder = createUsageRecorder({ sinks: [await createOpenTelemetryUsageSink({ span: 'none' })] });
    recorder.record(prompt, ANTHROPIC.warmHit, TIME);
    recorder.record(asSystemPrompt(['Custom.']), BEDROCK.noCacheFields, { ...TIME, model: 'us.amazon.nova-pro-v1:0' });
    const usage = await metric('gen_ai.client.token.usage');
    const prefix = { 'prompt_build.profile': 'default', 'prompt_build.static_prefix_hash': HASH, 'gen_ai.provider.name': 'anthropic' };
    // The system_changed record went through three sinks above (two of them span-making), the warm hit through one.
    const input = point(usage, { ...prefix, 'gen_ai.token.type': 'input' })!.value as Histogram;
    expect(input.count).toBe(4);
    expect(input.sum).toBe(3 * 3140 + 3052);
    expect((point(usage, { ...prefix, 'gen_ai.token.type': 'output' })!.value as Histogram).sum).toBe(3 * 60 + 80);
    const bedrock = point(usage, { 'gen_ai.provider.name': 'aws.bedrock', 'gen_ai.token.type': 'input' })!;
    expect(bedrock.attributes).toEqual({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'aws.bedrock', 'gen_ai.request.model': 'us.amazon.nova-pro-v1:0', 'gen_ai.token.type': 'input' });
    const tokens = await metric('prompt_build.cache.tokens');
    expect(point(tokens, { ...prefix, 'prompt_build.cache.token_kind': 'read' })!.value).toBe(3000);
    expect(point(tokens, { ...prefix, 'prompt_build.cache.token_kind': 'written' })!.value).toBe(3 * 3100);
    const requests = await metric('prompt_build.cache.requests');
    expect(point(requests, { ...prefix, 'prompt_build.cache.outcome': 'hit' })!.value).toBe(1);
    expect(point(requests, { ...prefix, 'prompt_build.cache.outcome': 'write' })!.value).toBe(3);
    expect(point(requests, { 'gen_ai.provider.name': 'aws.bedrock', 'prompt_build.cache.outcome': 'none' })!.value).toBe(1);
  });

  it('is a disabled no-op where @opentelemetry/api cannot be imported', async () => {
    vi.resetModules();
    vi.doMock('@opentelemetry/api', () => {
      throw new Error('Cannot find package @opentelemetry/api');
    });
    try {
      const fresh = await import('../../compiler/runtime/usage-opentelemetry.js');
      const noop = await fresh.createOpenTelemetryUsageSink();
      expect(noop.enabled).toBe(false);
      spans.reset();
      noop(record);
      expect(spans.getFinishedSpans()).toEqual([]);
    } finally {
      vi.doUnmock('@opentelemetry/api');
    }
  });
});
