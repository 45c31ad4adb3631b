/**
 * `prompt-build usage LOG…` (docs/usage.md#reading-a-log-prompt-build-usage): usage logs
 * read as one stream, per profile × static prefix hash × model — for a
 * terminal, as a Markdown note (`--format markdown`) or as data (`--json`).
 * The bundles (`--bundle`, else the out directory when it holds one) tell
 * each prefix's size against the model's minimum and the sections behind a
 * change. It reports; it never fails on what the logs say.
 */
import fs from 'node:fs';
import path from 'node:path';
import { terminalSafe, terminalSafeJson } from '../../diagnostics/terminal-safe.js';
import type { Manifest } from '../../runtime/manifest.js';
import { FileRefused } from '../../runtime/read-regular-file.js';
import { openUsageLog } from '../../usage/log-records.js';
import { usageReport } from '../../usage/usage-report.js';
import type { CommonOptions, DiffFormat } from '../args.js';
import type { Io } from '../io.js';
import { readManifestArg } from '../read-manifest.js';
import { cacheSettings } from '../shared.js';
import { UsageError } from '../usage-error.js';
import { usageMarkdown } from '../usage/markdown.js';
import { usageText } from '../usage/text.js';

export interface UsageOptions {
  format: DiffFormat;
  /** Bundles named with `--bundle`; undefined: the out directory, if it holds one. */
  bundles: string[] | undefined;
}

export async function runUsage(options: CommonOptions, logs: readonly string[], usageOptions: UsageOptions, io: Io): Promise<number> {
  if (logs.length === 0) throw new UsageError('prompt-build usage: give at least one usage log (the JSONL a jsonlUsageSink writes)');
  checkUsageLogs('prompt-build usage', logs);
  const settings = await cacheSettings(options);
  const report = await usageReport(logs, await manifestsFor(usageOptions.bundles, settings.outDir), settings.cacheFacts);
  if (usageOptions.format === 'json') io.out(terminalSafeJson(report));
  else if (usageOptions.format === 'markdown') io.out(usageMarkdown(report));
  else io.out(usageText(report, terminalSafe));
  return 0;
}

/**
 * Each log a regular file: a FIFO or a device named here would block, or
 * never end. Checked on the open file, opened as the reader opens it
 * (non-blocking), so the check itself cannot hang.
 */
export function checkUsageLogs(command: string, logs: readonly string[]): void {
  for (const log of logs) {
    let fd: number;
    try {
      fd = openUsageLog(log);
    } catch (error) {
      if (error instanceof FileRefused || (error as NodeJS.ErrnoException).code === 'EISDIR') throw new UsageError(`${command}: ${log} is not a regular file`);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`${command}: ${log} does not exist`);
      throw error;
    }
    fs.closeSync(fd);
  }
}

async function manifestsFor(bundles: string[] | undefined, outDir: string): Promise<Manifest[]> {
  if (bundles !== undefined) return Promise.all(bundles.map(readManifestArg));
  return fs.existsSync(path.join(outDir, 'manifest.json')) ? [await readManifestArg(outDir)] : [];
}
