/**
 * `prompt-build report [OLD] [NEW]`: one self-contained HTML page of a
 * bundle (default: the out directory), or of the newer of two with their
 * diff. Written to `--out-file` (`-` for stdout), else to
 * `prompt-build-report.html` here — and that default is never written over
 * a file that is not a report of ours.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveBuildOptions } from '../../build/config.js';
import { costFactsFor } from '../../report/model-facts.js';
import { reportData } from '../../report/report-data.js';
import { REPORT_MARK, reportHtml } from '../../report/html/page.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { readBundleArg } from '../read-bundle.js';
import { plural } from '../shared.js';
import { UsageError } from '../usage-error.js';

export const DEFAULT_REPORT_FILE = 'prompt-build-report.html';

export async function runReport(options: CommonOptions, bundles: readonly string[], outFile: string | undefined, io: Io): Promise<number> {
  if (bundles.length > 2) throw new UsageError(`report takes at most two bundles (OLD NEW), not ${bundles.length}`);
  const defaults = resolveBuildOptions({ root: options.root, ...(options.out === undefined ? {} : { outDir: path.resolve(options.root, options.out) }) });
  const newest = bundles.at(-1) ?? (path.relative(process.cwd(), defaults.outDir) || '.');
  const [older, newer] = await Promise.all([bundles.length === 2 ? readBundleArg(bundles[0]!) : null, readBundleArg(newest)]);
  const models = (options.models ?? defaults.models).map(costFactsFor);
  const data = reportData(newer, models, older);
  const html = reportHtml(data);
  if (outFile === '-') {
    io.out(html);
    return 0;
  }
  const target = outFile ?? DEFAULT_REPORT_FILE;
  await assertWritable(target, outFile === undefined);
  await fs.writeFile(target, html);
  const what = [plural(data.profiles.length, 'profile'), plural(data.sections.length, 'section'), plural(data.agents.length, 'agent')].join(', ');
  io.err(`wrote ${target} (${Math.ceil(Buffer.byteLength(html) / 1024).toLocaleString('en-US')} KB): ${what}${data.diff ? `, diff against ${older!.label}` : ''}`);
  return 0;
}

/** A directory is never a report; an unnamed default never replaces a file that is not one of ours. */
async function assertWritable(target: string, isDefault: boolean): Promise<void> {
  const stat = await fs.stat(target).catch(() => null);
  if (stat === null) return;
  if (stat.isDirectory()) throw new UsageError(`--out-file ${target} is a directory; name the HTML file to write`);
  if (!isDefault) return;
  const handle = await fs.open(target, 'r');
  try {
    const head = Buffer.alloc(REPORT_MARK.length);
    await handle.read(head, 0, head.length, 0);
    if (head.toString('utf8') !== REPORT_MARK) {
      throw new UsageError(`${target} exists and is not a prompt-build report; name the file to write with --out-file`);
    }
  } finally {
    await handle.close();
  }
}
