/**
 * Finished spans written as a collector's file exporter writes them: one
 * OTLP/JSON `ExportTraceServiceRequest` per line, per the protocol's JSON
 * encoding — trace and span ids in hex, 64-bit integers (times, `intValue`)
 * as decimal strings, enums as numbers, attribute values as typed objects.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean } | { arrayValue: { values: AnyValue[] } };

function anyValue(value: unknown): AnyValue {
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  throw new Error(`no OTLP value for ${String(value)}`);
}

const keyValues = (attributes: Record<string, unknown>) => Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));
const nanos = ([seconds, ns]: [number, number]) => (BigInt(seconds) * 1_000_000_000n + BigInt(ns)).toString();

/** One line of the export: the spans of one batch, grouped by resource and scope as the SDK's exporters group them. */
export function otlpJsonLine(spans: readonly ReadableSpan[]): string {
  const scopes = new Map<string, ReadableSpan[]>();
  for (const span of spans) scopes.set(span.instrumentationScope.name, [...(scopes.get(span.instrumentationScope.name) ?? []), span]);
  const resource = spans[0]?.resource.attributes ?? {};
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: keyValues(resource) },
        scopeSpans: [...scopes].map(([name, members]) => ({
          scope: { name, version: members[0]!.instrumentationScope.version ?? '' },
          spans: members.map((span) => ({
            traceId: span.spanContext().traceId,
            spanId: span.spanContext().spanId,
            parentSpanId: span.parentSpanContext?.spanId ?? '',
            name: span.name,
            // OTLP's SpanKind counts from UNSPECIFIED = 0; the API's from INTERNAL = 0.
            kind: span.kind + 1,
            startTimeUnixNano: nanos(span.startTime),
            endTimeUnixNano: nanos(span.endTime),
            attributes: keyValues(span.attributes),
            status: { code: span.status.code },
          })),
        })),
      },
    ],
  });
}
