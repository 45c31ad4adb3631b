/**
 * What the OpenTelemetry sink hands the API for one record, recorded by a
 * stand-in for `@opentelemetry/api` with an SDK registered: the instruments
 * it creates, each measurement with its attributes, and the span it makes
 * (name, kind, times in milliseconds, attributes). The usage vectors hold
 * it, and python/tests/test_usage_opentelemetry.py gives the Python sink a
 * stand-in `opentelemetry` package and compares.
 */
import { openTelemetryUsageSink, type OpenTelemetryApi } from '../../compiler/runtime/usage-opentelemetry.js';
import type { UsageRecord } from '../../compiler/runtime/usage.js';

export interface Emitted {
  instruments: { kind: 'histogram' | 'counter'; name: string; unit: string; description: string; boundaries: number[] | null }[];
  measurements: { instrument: string; value: number; attributes: Record<string, unknown> }[];
  spans: { name: string; kind: 'client'; start: number | null; end: number | null; attributes: Record<string, unknown> }[];
}

/** SpanKind.CLIENT in `@opentelemetry/api`. */
const CLIENT = 2;

export function emittedFor(record: UsageRecord): Emitted {
  const emitted: Emitted = { instruments: [], measurements: [], spans: [] };
  const instrument = (kind: 'histogram' | 'counter', name: string, options: { unit: string; description: string; advice?: { explicitBucketBoundaries: number[] } }) => {
    emitted.instruments.push({ kind, name, unit: options.unit, description: options.description, boundaries: options.advice?.explicitBucketBoundaries ?? null });
    const measure = (value: number, attributes: Record<string, unknown>) => void emitted.measurements.push({ instrument: name, value, attributes: { ...attributes } });
    return { record: measure, add: measure };
  };
  const meter = { createHistogram: (name: string, options: never) => instrument('histogram', name, options), createCounter: (name: string, options: never) => instrument('counter', name, options) };
  const provider = { getMeter: () => meter };
  const api = {
    trace: {
      getTracerProvider: () => ({}),
      getActiveSpan: () => undefined,
      getTracer: () => ({
        startSpan(name: string, options: { kind: number; startTime?: number }) {
          if (options.kind !== CLIENT) throw new Error(`span kind ${options.kind}`);
          const span = { name, kind: 'client' as const, start: options.startTime ?? null, end: null as number | null, attributes: {} as Record<string, unknown> };
          emitted.spans.push(span);
          return {
            isRecording: () => true,
            setAttributes: (attributes: Record<string, unknown>) => void Object.assign(span.attributes, attributes),
            end: (time?: number) => void (span.end = time ?? null),
          };
        },
      }),
    },
    metrics: { getMeterProvider: () => provider },
  };
  openTelemetryUsageSink(api as unknown as OpenTelemetryApi)(record);
  return emitted;
}
