/**
 * The usage record through OpenTelemetry (docs/usage.md#opentelemetry), in the GenAI
 * semantic conventions — `gen_ai.usage.input_tokens` (every input token,
 * cached ones included), `gen_ai.usage.output_tokens`,
 * `gen_ai.usage.cache_read.input_tokens`,
 * `gen_ai.usage.cache_creation.input_tokens`, the
 * `gen_ai.client.token.usage` histogram — plus `prompt_build.*` attributes
 * naming the prompt. `@opentelemetry/api` is an optional peer, imported
 * only here and only when asked for; without it, or with no SDK registered
 * by the host, every call is a no-op — and with no SDK, the sink sees that
 * at the cost of a lookup per record of the meter provider, then of the
 * active span and the tracer provider as its `span` mode asks (three in the
 * default mode), and makes no attributes at all.
 */
import type { UsageSink } from './usage-recorder.js';
import type { UsageProvider } from './usage-providers.js';
import type { UsageRecord } from './usage.js';

type AttributeValue = string | number | string[];
export type UsageAttributes = Record<string, AttributeValue>;

/** `gen_ai.provider.name` by provider (Gemini's SDK serves both Google endpoints: the generic name). */
export const PROVIDER_NAMES: Readonly<Record<UsageProvider, string>> = { anthropic: 'anthropic', bedrock: 'aws.bedrock', openai: 'openai', gemini: 'gcp.gen_ai' };

/** What identifies the operation, the model and the prompt: few values each, so fit for metrics too. */
export function usageMetricAttributes(record: UsageRecord): UsageAttributes {
  return metricAttributes({}, record);
}

/** Assigned, not spread: a record is made on every request, and spreading these keys costs more than the rest of it. */
function metricAttributes(attributes: UsageAttributes, record: UsageRecord): UsageAttributes {
  attributes['gen_ai.operation.name'] = 'chat';
  attributes['gen_ai.provider.name'] = PROVIDER_NAMES[record.provider];
  if (record.model !== null) attributes['gen_ai.request.model'] = record.model;
  if (record.profile !== null) attributes['prompt_build.profile'] = record.profile;
  if (record.agent !== null) attributes['prompt_build.agent'] = record.agent;
  if (record.staticPrefixHash !== null) attributes['prompt_build.static_prefix_hash'] = record.staticPrefixHash;
  return attributes;
}

/** Every attribute of the record, for a span: the metric attributes, the counts, the ids and the miss. */
export function usageAttributes(record: UsageRecord): UsageAttributes {
  const { tokens, miss } = record;
  const attributes = metricAttributes({}, record);
  // Every record has an api: it marks the spans this sink filled, for `prompt-build usage` reading an export.
  attributes['prompt_build.api'] = record.api;
  attributes['gen_ai.usage.input_tokens'] = tokens.input;
  attributes['gen_ai.usage.output_tokens'] = tokens.output;
  attributes['gen_ai.usage.cache_read.input_tokens'] = tokens.read;
  attributes['gen_ai.usage.cache_creation.input_tokens'] = tokens.written;
  if (record.responseId !== null) attributes['gen_ai.response.id'] = record.responseId;
  if (record.session !== null) attributes['gen_ai.conversation.id'] = record.session;
  if (record.bundle !== null) attributes['prompt_build.bundle'] = record.bundle;
  if (record.ttl !== null) attributes['prompt_build.cache.ttl'] = record.ttl;
  if (tokens.written5m !== null) attributes['prompt_build.usage.cache_creation_5m.input_tokens'] = tokens.written5m;
  if (tokens.written1h !== null) attributes['prompt_build.usage.cache_creation_1h.input_tokens'] = tokens.written1h;
  if (miss !== null) {
    attributes['prompt_build.cache.miss_reason'] = miss.reason;
    if (miss.missedTokens !== null) attributes['prompt_build.cache.missed_input_tokens'] = miss.missedTokens;
    if (miss.sections !== undefined) attributes['prompt_build.cache.changed_sections'] = miss.sections.map((section) => `${section.name}:${section.change}`);
  }
  return attributes;
}

/** Whether the request read the cache (`hit`), only wrote it (`write`), or neither (`none`: below the minimum, or no breakpoint). */
export function cacheOutcome(record: UsageRecord): 'hit' | 'write' | 'none' {
  return record.tokens.read > 0 ? 'hit' : record.tokens.written > 0 ? 'write' : 'none';
}

/** The parts of `@opentelemetry/api` used here, so the runtime's types do not depend on it. */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): Tracer;
    getActiveSpan(): Span | undefined;
    /** The global provider: the API's proxy, delegating to the SDK's once one is registered. */
    getTracerProvider?(): { getDelegate?(): unknown };
  };
  metrics: { getMeterProvider(): MeterProvider };
  /** The API's own no-ops, to tell that no SDK is registered (absent from a hand-made API: then it is never assumed). */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
  createNoopMeter?(): unknown;
}
interface Span {
  isRecording(): boolean;
  setAttributes(attributes: UsageAttributes): unknown;
  end(endTime?: number): void;
}
interface Tracer {
  startSpan(name: string, options: { kind: number; startTime: number }): Span;
}
interface MeterProvider {
  getMeter(name: string, version?: string): Meter;
}
interface Meter {
  createHistogram(name: string, options: { unit: string; description: string; advice?: { explicitBucketBoundaries: number[] } }): { record(value: number, attributes: UsageAttributes): void };
  createCounter(name: string, options: { unit: string; description: string }): { add(value: number, attributes: UsageAttributes): void };
}

export interface OpenTelemetryUsageOptions {
  /**
   * `active` (the default): the attributes go on the span active when the
   * record is made — the host's span around the provider call — and, when
   * none is, on a span of their own (`chat {model}`, ended at once);
   * `new`: always a span of their own; `none`: metrics only.
   */
  span?: 'active' | 'new' | 'none';
}

const SCOPE = 'prompt-build';
/** SpanKind.CLIENT in `@opentelemetry/api`. */
const SPAN_KIND_CLIENT = 2;
/** The bucket boundaries the conventions give for `gen_ai.client.token.usage`. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

type Instruments = ReturnType<typeof createInstruments>;

function createInstruments(meter: Meter) {
  return {
    tokenUsage: meter.createHistogram('gen_ai.client.token.usage', { unit: '{token}', description: 'Measures number of input and output tokens used', advice: { explicitBucketBoundaries: TOKEN_BUCKETS } }),
    cacheTokens: meter.createCounter('prompt_build.cache.tokens', { unit: '{token}', description: 'Input tokens by what the cache did with them: read, written, uncached' }),
    requests: meter.createCounter('prompt_build.cache.requests', { unit: '{request}', description: 'Requests by cache outcome: hit (read), write (written only), none' }),
  };
}

/**
 * A sink over an `@opentelemetry/api` the host imported itself. The meter is
 * looked up again whenever the host's meter provider changes, so a sink made
 * before the SDK was registered starts counting once it is.
 */
export function openTelemetryUsageSink(api: OpenTelemetryApi, options: OpenTelemetryUsageOptions = {}): UsageSink {
  const mode = options.span ?? 'active';
  const tracer = api.trace.getTracer(SCOPE);
  // The API's no-op tracer provider (what a proxy with no SDK behind it delegates to) and no-op meter: singletons of the API.
  const noopTracing = typeof api.ProxyTracerProvider === 'function' ? new api.ProxyTracerProvider().getDelegate() : undefined;
  const noopMeter = typeof api.createNoopMeter === 'function' ? api.createNoopMeter() : undefined;
  let provider: MeterProvider | undefined;
  /** The instruments of `provider`'s meter; null for the no-op meter: nothing to count. */
  let instruments: Instruments | null = null;
  return (record) => {
    // Looked up per record, not once: a host that registers its SDK after making the sink gets its spans and metrics from then on.
    const current = api.metrics.getMeterProvider();
    if (current !== provider) {
      provider = current;
      const meter = current.getMeter(SCOPE);
      instruments = meter === noopMeter ? null : createInstruments(meter);
    }
    if (instruments !== null) count(instruments, record);
    if (mode === 'none') return;
    const active = mode === 'active' ? api.trace.getActiveSpan() : undefined;
    if (active?.isRecording()) {
      active.setAttributes(usageAttributes(record));
      return;
    }
    // No SDK registered: the proxy delegates to the no-op, whose spans record nothing — make none.
    const global = api.trace.getTracerProvider?.();
    if (noopTracing !== undefined && global?.getDelegate?.() === noopTracing) return;
    // A span of its own stands at the record's time (given, or now), so an export read back has the record's times.
    const time = Date.parse(record.time);
    const span = tracer.startSpan(`chat${record.model === null ? '' : ` ${record.model}`}`, { kind: SPAN_KIND_CLIENT, startTime: time });
    // Attributes only for a span that records: with no SDK registered, the span is the API's no-op.
    if (span.isRecording()) span.setAttributes(usageAttributes(record));
    span.end(time);
  };
}

const TOKEN_KIND = 'prompt_build.cache.token_kind';

function count(instruments: Instruments, record: UsageRecord): void {
  const common = usageMetricAttributes(record);
  const { tokens } = record;
  instruments.tokenUsage.record(tokens.input, withAttribute(common, 'gen_ai.token.type', 'input'));
  instruments.tokenUsage.record(tokens.output, withAttribute(common, 'gen_ai.token.type', 'output'));
  if (tokens.read > 0) instruments.cacheTokens.add(tokens.read, withAttribute(common, TOKEN_KIND, 'read'));
  if (tokens.written > 0) instruments.cacheTokens.add(tokens.written, withAttribute(common, TOKEN_KIND, 'written'));
  if (tokens.uncached > 0) instruments.cacheTokens.add(tokens.uncached, withAttribute(common, TOKEN_KIND, 'uncached'));
  instruments.requests.add(1, withAttribute(common, 'prompt_build.cache.outcome', cacheOutcome(record)));
}

function withAttribute(common: UsageAttributes, key: string, value: string): UsageAttributes {
  const attributes = Object.assign({}, common);
  attributes[key] = value;
  return attributes;
}

/**
 * The sink through `@opentelemetry/api` when the host has it installed, else
 * a sink that does nothing (`enabled` says which).
 */
export async function createOpenTelemetryUsageSink(options?: OpenTelemetryUsageOptions): Promise<UsageSink & { enabled: boolean }> {
  let api: OpenTelemetryApi;
  try {
    api = (await import('@opentelemetry/api')) as unknown as OpenTelemetryApi;
  } catch {
    return Object.assign(() => {}, { enabled: false });
  }
  return Object.assign(openTelemetryUsageSink(api, options), { enabled: true });
}
