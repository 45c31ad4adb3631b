/**
 * The build options that shape the bundle's bytes, recorded in the manifest
 * so that `check` run with other options says so by name instead of calling
 * `dist/` stale. Limits, models and rule levels decide whether a build
 * passes, not what it writes, and are left out.
 */
import type { BuildOptions } from '../core/options.js';
import type { OutputOptions } from '../runtime/manifest.js';
import { sha256 } from '../core/hash.js';

export function outputOptions(options: Pick<BuildOptions, 'stripComments' | 'constants' | 'agentIgnore' | 'targets'>): OutputOptions {
  const constants = Object.keys(options.constants).sort();
  const values = {
    comments: options.stripComments ? ('strip' as const) : ('keep' as const),
    constants: constants.length === 0 ? null : sha256(JSON.stringify(constants.map((k) => [k, options.constants[k]]))),
    agentsIgnore: [...options.agentIgnore].sort(),
    // Claude Code also trims the final newline and turns a literal `\n` in a description into a line end: the bundle
    // keeps the bytes and says so here, for a reader who needs Claude Code's exact text.
    agentBodies: 'leading-blank-lines-trimmed, final-newline-kept' as const,
    agentDescriptions: 'as-read-from-yaml' as const,
    targets: [...options.targets].sort(),
  };
  return { hash: sha256(JSON.stringify(values)), ...values };
}

/** Each option that differs, worded for a message: `comments (keep in dist/, strip here)`. */
export function optionDifferences(written: OutputOptions | undefined, built: OutputOptions): string[] {
  if (written === undefined || written.hash === built.hash) return [];
  const differences: string[] = [];
  if (written.comments !== built.comments) differences.push(`comments (${written.comments} in the bundle, ${built.comments} here)`);
  if (written.constants !== built.constants) differences.push('constants');
  if (JSON.stringify(written.agentsIgnore) !== JSON.stringify(built.agentsIgnore)) differences.push('agents.ignore');
  if (JSON.stringify(written.targets) !== JSON.stringify(built.targets)) differences.push(`targets (${written.targets?.join(', ') ?? 'js'} in the bundle, ${built.targets.join(', ')} here)`);
  return differences.length > 0 ? differences : ['options'];
}
