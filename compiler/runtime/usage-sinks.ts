/**
 * The usage record written out (docs/usage.md#recording-usage): one JSON line per
 * record, for hosts without OpenTelemetry — `prompt-build usage` reads them.
 * The runtime opens no file: give the sink a stream (`fs.createWriteStream(path, {flags: 'a'})`)
 * or anything with a `write(text)`.
 */
import { ArgumentError } from './arguments.js';
import type { UsageSink } from './usage-recorder.js';
import type { UsageRecord } from './usage.js';

/** A record as one line of JSON, keys in the record's order (the Python runtime writes the same bytes). */
export function usageLine(record: UsageRecord): string {
  return JSON.stringify(record);
}

export interface TextWriter {
  write(text: string): unknown;
}

export function jsonlUsageSink(out: TextWriter): UsageSink {
  if (typeof (out as Partial<TextWriter> | null)?.write !== 'function') throw new ArgumentError('jsonlUsageSink', 'out', 'a stream or an object with write(text)', out);
  return (record) => void out.write(`${usageLine(record)}\n`);
}
