/**
 * `prompt-build usage`'s data (docs/usage.md#reading-a-log-prompt-build-usage): the logs
 * read as one time-ordered stream, summed per prefix, with the lines that
 * were not records (the first few named, all counted).
 */
import type { CacheFact } from '../cache-facts/cache-facts.js';
import type { Manifest } from '../runtime/manifest.js';
import { mergeRecords, type SkippedLine } from './log-records.js';
import { PrefixIndex } from './prefix-index.js';
import { UsageTally, type PrefixUsage } from './usage-tally.js';

export interface UsageReport {
  logs: string[];
  records: number;
  /** The first and last record's time; null for a log of none. */
  from: string | null;
  to: string | null;
  /** How many static prefixes the given bundles hold (0: no bundle, so no minimum is checked). */
  bundlePrefixes: number;
  prefixes: PrefixUsage[];
  skipped: { count: number; first: SkippedLine[] };
}

/** Lines named in the report; the rest are counted only. */
const SKIPPED_SHOWN = 10;

export async function usageReport(logs: readonly string[], manifests: readonly Manifest[] = [], facts: readonly CacheFact[] = []): Promise<UsageReport> {
  const index = new PrefixIndex(manifests, facts);
  const tally = new UsageTally(index, facts);
  const skipped: UsageReport['skipped'] = { count: 0, first: [] };
  let records = 0;
  let from: string | null = null;
  let to: string | null = null;
  const skip = (line: SkippedLine): void => {
    skipped.count++;
    if (skipped.first.length < SKIPPED_SHOWN) skipped.first.push(line);
  };
  await mergeRecords(logs, skip, ({ record, ms }) => {
    records++;
    from ??= record.time;
    to = record.time;
    tally.add(record, ms);
  });
  return { logs: [...logs], records, from, to, bundlePrefixes: index.size, prefixes: tally.result(), skipped };
}
