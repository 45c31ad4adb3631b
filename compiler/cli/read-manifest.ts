/**
 * The manifest named on a command line (`inspect`, `diff`): a bundle
 * directory or a `manifest.json` file. Anything else is the caller's mistake,
 * reported as a usage error rather than a stack trace.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../runtime/manifest.js';
import { validateManifest } from '../runtime/validate-manifest.js';
import { UsageError } from './usage-error.js';

export async function readManifestArg(arg: string): Promise<Manifest> {
  const given = path.resolve(arg);
  const stat = await fs.stat(given).catch(() => null);
  if (!stat) throw new UsageError(`no bundle at ${arg}: give a bundle directory or its manifest.json (run \`prompt-build build\` first)`);
  const file = stat.isDirectory() ? path.join(given, 'manifest.json') : given;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`${arg} is not a bundle: it has no manifest.json`);
  }
  try {
    return validateManifest(JSON.parse(text), arg);
  } catch (error) {
    throw new UsageError(`${arg} is not a readable bundle manifest: ${(error as Error).message}`);
  }
}
