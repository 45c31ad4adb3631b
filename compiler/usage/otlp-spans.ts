/**
 * Usage records out of an OpenTelemetry JSON export (docs/usage.md#opentelemetry):
 * one line in the OTLP/JSON shape a collector's file exporter writes —
 * `{"resourceSpans":[{"scopeSpans":[{"spans":[…]}]}]}` — its spans that the
 * runtime's OpenTelemetry sink filled (they carry `prompt_build.api`, which
 * every record has) read back into records. Other spans are some other
 * instrumentation's and are left out; a span of ours that cannot be a
 * record is named, like a bad JSONL line.
 *
 * OTLP/JSON (the protocol's JSON encoding): attribute values are objects
 * (`stringValue`, `intValue`, `doubleValue`, `boolValue`, `arrayValue`),
 * 64-bit integers — counts and the nanosecond times — may come as strings.
 */
import { USAGE_PROVIDERS, USAGE_RECORD_VERSION, type CacheMiss, type ChangedSection, type UsageApi, type UsageProvider, type UsageRecord } from '../runtime/usage.js';
import { PROVIDER_NAMES } from '../runtime/usage-opentelemetry.js';
import type { TimedRecord } from './log-records.js';

/** What one OTLP line gave: its records in time order, and why each span of ours that is not one was left out. */
export interface OtlpLine {
  records: TimedRecord[];
  problems: string[];
}

/** A line that opens as an OTLP/JSON export does (whitespace, then its one top-level key). */
const OTLP_START = /^\s*\{\s*"resource(?:Spans|Metrics|Logs)"/;

export function looksLikeOtlp(text: string): boolean {
  return OTLP_START.test(text.slice(0, 64));
}

const PROVIDER_BY_NAME: ReadonlyMap<string, UsageProvider> = new Map(USAGE_PROVIDERS.map((provider) => [PROVIDER_NAMES[provider], provider]));

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The records of one OTLP/JSON line, or why the line is not a trace export. */
export function parseOtlpLine(text: string): OtlpLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isObject(value)) return 'not a usage record (a JSON object)';
  if (!('resourceSpans' in value)) return 'an OpenTelemetry export of metrics or logs, not of spans';
  const line: OtlpLine = { records: [], problems: [] };
  if (!Array.isArray(value.resourceSpans)) return 'resourceSpans is not a list';
  for (const resource of value.resourceSpans) {
    const scopes = isObject(resource) ? resource.scopeSpans : undefined;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      const spans = isObject(scope) ? scope.spans : undefined;
      if (!Array.isArray(spans)) continue;
      for (const span of spans) readSpan(span, line);
    }
  }
  // A batch holds spans in the order they ended, near enough; the report takes them in time order.
  line.records.sort((a, b) => a.ms - b.ms);
  return line;
}

function readSpan(span: unknown, line: OtlpLine): void {
  if (!isObject(span) || !Array.isArray(span.attributes)) return;
  const attributes = new Map<string, unknown>();
  for (const attribute of span.attributes) {
    if (isObject(attribute) && typeof attribute.key === 'string') attributes.set(attribute.key, attribute.value);
  }
  if (!attributes.has('prompt_build.api')) return;
  const name = typeof span.spanId === 'string' ? `span ${span.spanId}` : 'a span';
  try {
    line.records.push(recordOf(span, attributes));
  } catch (error) {
    if (!(error instanceof SpanProblem)) throw error;
    line.problems.push(`${name}: ${error.message}`);
  }
}

class SpanProblem extends Error {}

function recordOf(span: Fields, attributes: Map<string, unknown>): TimedRecord {
  const text = (key: string): string | null => {
    const value = attributes.get(key);
    if (value === undefined) return null;
    if (isObject(value) && typeof value.stringValue === 'string') return value.stringValue;
    throw new SpanProblem(`${key} is not a string`);
  };
  const count = (key: string): number | null => {
    const value = attributes.get(key);
    if (value === undefined) return null;
    const n = isObject(value) ? wholeNumber(value.intValue ?? value.doubleValue) : null;
    if (n === null) throw new SpanProblem(`${key} is not a whole number`);
    return n;
  };
  const required = (key: string): number => {
    const n = count(key);
    if (n === null) throw new SpanProblem(`${key} is absent`);
    return n;
  };
  const ms = spanMs(span.endTimeUnixNano);
  const provider = PROVIDER_BY_NAME.get(text('gen_ai.provider.name') ?? '');
  if (provider === undefined) throw new SpanProblem('gen_ai.provider.name is not one of anthropic, aws.bedrock, openai, gcp.gen_ai');
  const input = required('gen_ai.usage.input_tokens');
  const read = required('gen_ai.usage.cache_read.input_tokens');
  const written = required('gen_ai.usage.cache_creation.input_tokens');
  if (read + written > input) throw new SpanProblem('gen_ai.usage.input_tokens is less than the cache reads and writes it includes');
  const record: UsageRecord = {
    v: USAGE_RECORD_VERSION,
    time: new Date(ms).toISOString(),
    provider,
    api: text('prompt_build.api') as UsageApi,
    model: text('gen_ai.request.model'),
    profile: text('prompt_build.profile'),
    agent: text('prompt_build.agent'),
    staticPrefixHash: text('prompt_build.static_prefix_hash'),
    bundle: text('prompt_build.bundle'),
    tokens: {
      read,
      written,
      written5m: count('prompt_build.usage.cache_creation_5m.input_tokens'),
      written1h: count('prompt_build.usage.cache_creation_1h.input_tokens'),
      uncached: input - read - written,
      input,
      output: required('gen_ai.usage.output_tokens'),
    },
    ttl: text('prompt_build.cache.ttl'),
    responseId: text('gen_ai.response.id'),
    // Not on the span: the provider's request id has no convention, and the report does not use it.
    requestId: null,
    session: text('gen_ai.conversation.id'),
    miss: missOf(text('prompt_build.cache.miss_reason'), count('prompt_build.cache.missed_input_tokens'), attributes.get('prompt_build.cache.changed_sections')),
  };
  return { record, ms };
}

function missOf(reason: string | null, missedTokens: number | null, sections: unknown): CacheMiss | null {
  if (reason === null) return null;
  // The span does not carry the response it was compared with: the report does not use it.
  const miss: CacheMiss = { reason, missedTokens, previousResponseId: null };
  if (sections !== undefined) miss.sections = changedSections(sections);
  return miss;
}

/** `name:change` strings, as the sink writes a miss's sections (a name may hold a colon; a change never does). */
function changedSections(value: unknown): ChangedSection[] {
  const values = isObject(value) && isObject(value.arrayValue) ? (value.arrayValue.values ?? []) : undefined;
  if (!Array.isArray(values)) throw new SpanProblem('prompt_build.cache.changed_sections is not a list');
  return values.map((item): ChangedSection => {
    const entry = isObject(item) ? item.stringValue : undefined;
    const colon = typeof entry === 'string' ? entry.lastIndexOf(':') : -1;
    const change = colon === -1 ? '' : (entry as string).slice(colon + 1);
    if (!CHANGES.has(change)) throw new SpanProblem('prompt_build.cache.changed_sections holds an entry that is not name:change');
    return { name: (entry as string).slice(0, colon), change: change as ChangedSection['change'] };
  });
}

const CHANGES: ReadonlySet<string> = new Set(['changed', 'added', 'removed', 'moved']);

/** A count as OTLP/JSON writes an int64: a decimal string or a number. */
function wholeNumber(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The span's end, nanoseconds since 1970 as a string or a number, in milliseconds: when the response was recorded. */
function spanMs(nanos: unknown): number {
  let ms = NaN;
  if (typeof nanos === 'string' && /^\d{1,20}$/.test(nanos)) ms = Number(nanos.length > 6 ? nanos.slice(0, -6) : '0');
  else if (typeof nanos === 'number') ms = Math.floor(nanos / 1e6);
  if (!(ms > 0 && ms <= LATEST_MS)) throw new SpanProblem('endTimeUnixNano is not a time');
  return ms;
}

/** 9999-12-31T23:59:59.999Z: the last time a record writes with a four-digit year. */
const LATEST_MS = 253402300799999;
