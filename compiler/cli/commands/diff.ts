/**
 * `prompt-build diff OLD NEW`: what changed between two builds — for a
 * terminal with each changed text as a unified diff (the default), as a
 * pull-request comment (`--format markdown`), or as data (`--format json`).
 * It reports and does not judge, unless asked: `--fail-on-static-change`
 * exits 1 when a static prefix hash changed.
 */
import pc from 'picocolors';
import { diffManifests } from '../../bundle/bundle-diff.js';
import { cacheSettings } from '../shared.js';
import { costFactsFor } from '../../report/model-facts.js';
import { textChanges } from '../../report/text-changes.js';
import type { CommonOptions, DiffFormat } from '../args.js';
import { diffMarkdown } from '../diff/markdown.js';
import { diffText } from '../diff/text.js';
import { terminalSafe, terminalSafeJson } from '../../diagnostics/terminal-safe.js';
import type { Io } from '../io.js';
import { readBundleArg } from '../read-bundle.js';
import { readManifestArg } from '../read-manifest.js';

export interface DiffOptions {
  format: DiffFormat;
  failOnStaticChange: boolean;
  /** Text format: names and lines exactly as they are, not made safe for a terminal. */
  raw?: boolean;
}

export async function runDiff(options: CommonOptions, oldPath: string, newPath: string, diffOptions: DiffOptions, io: Io): Promise<number> {
  const { format, failOnStaticChange } = diffOptions;
  if (format === 'json') {
    const [older, newer] = await Promise.all([readManifestArg(oldPath), readManifestArg(newPath)]);
    const diff = diffManifests(older, newer);
    io.out(terminalSafeJson({ ...diff, cacheBust: cacheBusts(diff) }));
    return failOnStaticChange && cacheBusts(diff).length > 0 ? 1 : 0;
  }
  const [older, newer] = await Promise.all([readBundleArg(oldPath), readBundleArg(newPath)]);
  const diff = diffManifests(older.manifest, newer.manifest);
  const text = textChanges(older, newer, diff);
  if (format === 'markdown') {
    const settings = await cacheSettings(options);
    const models = settings.models.map((model) => costFactsFor(model, settings.cacheFacts));
    io.out(diffMarkdown({ diff, text, older: older.manifest, newer: newer.manifest, models }));
  } else {
    io.out(diffText(diff, text, { old: oldPath, new: newPath }, pc.createColors(options.color), diffOptions.raw ? (s) => s : terminalSafe));
  }
  return failOnStaticChange && cacheBusts(diff).length > 0 ? 1 : 0;
}

function cacheBusts(diff: ReturnType<typeof diffManifests>): string[] {
  return diff.profiles.filter((p) => p.cacheBust).map((p) => p.name);
}

