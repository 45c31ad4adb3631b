/**
 * `prompt-build report [OLD] [NEW]`: one self-contained HTML page of a
 * bundle (default: the out directory), or of the newer of two with their
 * diff; with `--usage LOG…`, a usage view of the logs (cli/usage/html.ts),
 * the bundles' prefixes checked as `prompt-build usage --bundle` checks them.
 * Written to `--out-file` (`-` for stdout), else to
 * `prompt-build-report.html` here — and never written over a file that is
 * not a report of ours.
 */
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { costFactsFor } from '../../report/model-facts.js';
import { reportData } from '../../report/report-data.js';
import { REPORT_MARK, reportHtml } from '../../report/html/page.js';
import { usageReport } from '../../usage/usage-report.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { readBundleArg } from '../read-bundle.js';
import { cacheSettings, plural } from '../shared.js';
import { UsageError } from '../usage-error.js';
import { usageHtml } from '../usage/html.js';
import { checkUsageLogs } from './usage.js';

export const DEFAULT_REPORT_FILE = 'prompt-build-report.html';

export async function runReport(options: CommonOptions, bundles: readonly string[], outFile: string | undefined, io: Io, usageLogs: readonly string[] = []): Promise<number> {
  if (bundles.length > 2) throw new UsageError(`report takes at most two bundles (OLD NEW), not ${bundles.length}`);
  checkUsageLogs('prompt-build report --usage', usageLogs);
  const settings = await cacheSettings(options);
  const newest = bundles.at(-1) ?? (path.relative(process.cwd(), settings.outDir) || '.');
  const [older, newer] = await Promise.all([bundles.length === 2 ? readBundleArg(bundles[0]!) : null, readBundleArg(newest)]);
  const models = settings.models.map((model) => costFactsFor(model, settings.cacheFacts));
  const data = reportData(newer, models, older);
  const usage = usageLogs.length === 0 ? null : usageHtml(await usageReport(usageLogs, [older, newer].flatMap((b) => (b ? [b.manifest] : [])), settings.cacheFacts));
  const html = reportHtml(data, null, usage);
  if (outFile === '-') {
    io.out(html);
    return 0;
  }
  const target = outFile ?? DEFAULT_REPORT_FILE;
  await assertReplaceable(target);
  await writeWhole(target, html);
  const what = [plural(data.profiles.length, 'profile'), plural(data.sections.length, 'section'), plural(data.agents.length, 'agent')].join(', ');
  io.err(`wrote ${target} (${Math.ceil(Buffer.byteLength(html) / 1024).toLocaleString('en-US')} KB): ${what}${data.diff ? `, diff against ${older!.label}` : ''}`);
  return 0;
}

/**
 * The page replaces only a report of ours, named or not: a file that is
 * something else (notes, a page of the user's own), a directory, a link or a
 * FIFO is refused before anything is written. Checked with lstat and read
 * without following a link or blocking, so the answer is about the target itself.
 */
async function assertReplaceable(target: string): Promise<void> {
  const stat = await fs.lstat(target).catch(() => null);
  if (stat === null) return;
  if (stat.isDirectory()) throw new UsageError(`--out-file ${target} is a directory; name the HTML file to write`);
  if (stat.isSymbolicLink()) throw new UsageError(`${target} is a symbolic link; a report is written only as a regular file: name another file with --out-file`);
  if (!stat.isFile()) throw new UsageError(`${target} is not a regular file; name the HTML file to write with --out-file`);
  const handle = await fs.open(target, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  try {
    const head = Buffer.alloc(REPORT_MARK.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (head.subarray(0, bytesRead).toString('utf8') !== REPORT_MARK) {
      throw new UsageError(`${target} exists and is not a prompt-build report; it is left as it is: remove it, or name another file with --out-file`);
    }
  } finally {
    await handle.close();
  }
}

/** Written beside the target and renamed over it: an interrupted write never leaves half a page, or half the old one. */
async function writeWhole(target: string, html: string): Promise<void> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    await fs.rm(temporary, { force: true });
    await fs.writeFile(temporary, html, { flag: 'wx' });
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
