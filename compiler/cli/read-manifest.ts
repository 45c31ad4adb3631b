/**
 * The manifest named on a command line (`inspect`, `diff`, `report`,
 * `check --baseline`): a bundle directory or a `manifest.json` file. It is
 * read as a regular file only (`runtime/read-regular-file.ts`: a FIFO named
 * here would block the command) and checked whole, informational fields
 * included, so no command meets a field of the wrong type. Anything else is
 * the caller's mistake, reported as a usage error rather than a stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../runtime/manifest.js';
import { bundleFileReader, FileRefused, MAX_BUNDLE_FILE_BYTES, readRegularFileSync } from '../runtime/read-regular-file.js';
import { validateManifestForReaders } from '../runtime/validate-manifest.js';
import { UsageError } from './usage-error.js';

/** The manifest, and the folder its bundle's files are read from. */
export function readManifestWithDir(arg: string): { manifest: Manifest; dir: string } {
  const given = path.resolve(arg);
  const stat = fs.statSync(given, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`no bundle at ${arg}: give a bundle directory or its manifest.json (run \`prompt-build build\` first)`);
  const isDir = stat.isDirectory();
  let bytes: Buffer;
  try {
    bytes = isDir ? bundleFileReader(given)('manifest.json') : readRegularFileSync(given, MAX_BUNDLE_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof FileRefused)) throw error;
    if (isDir && error.kind === 'missing') throw new UsageError(`${arg} is not a bundle: it has no manifest.json`);
    throw new UsageError(`${isDir ? path.join(arg, 'manifest.json') : arg} ${error.message}`);
  }
  try {
    return { manifest: validateManifestForReaders(JSON.parse(bytes.toString('utf8')), arg), dir: isDir ? given : path.dirname(given) };
  } catch (error) {
    throw new UsageError(`${arg} is not a readable bundle manifest: ${(error as Error).message}`);
  }
}

export async function readManifestArg(arg: string): Promise<Manifest> {
  return readManifestWithDir(arg).manifest;
}
