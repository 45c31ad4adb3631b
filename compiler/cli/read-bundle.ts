/**
 * A bundle named on the command line, read whole for `report` and `diff`:
 * its manifest and the texts and source maps it names. Each is read as a
 * regular file inside the bundle directory (`runtime/read-regular-file.ts`:
 * no link, FIFO or device) and checked against the manifest's hash before a
 * byte of it is used — templates and maps by `templateHash` and `mapHash` —
 * so a committed `dist/x.hbs -> /proc/self/environ` shows nothing. No name in
 * the manifest can make this read outside the bundle directory. Read one
 * after another with blocking calls: a bundle is thousands of small files,
 * and each asynchronous read's trips through the thread pool (open, stat,
 * read, close) cost more than the read (12,800 files: 1.2 s against 0.4 s).
 */
import path from 'node:path';
import type { BundleContents } from '../report/bundle-contents.js';
import type { Manifest, SourceMap } from '../runtime/manifest.js';
import { bundleFileReader, FileRefused, verified } from '../runtime/read-regular-file.js';
import { readManifestWithDir } from './read-manifest.js';
import { UsageError } from './usage-error.js';

export async function readBundleArg(arg: string): Promise<BundleContents> {
  const { manifest, dir } = readManifestWithDir(arg);
  const { texts, maps } = namedFiles(manifest);
  const readFile = bundleFileReader(dir);
  const read = (file: string, hash: string | undefined): Buffer => {
    const shown = path.join(arg, file);
    if (hash === undefined) throw new UsageError(`${shown} has no hash in the manifest (built by an older prompt-build), so it cannot be checked; rebuild the bundle`);
    try {
      return verified(readFile(file), hash);
    } catch (error) {
      if (!(error instanceof FileRefused)) throw error;
      const hint = error.kind === 'mismatch' ? ' (edited or half-copied); rebuild the bundle' : error.kind === 'missing' ? '; rebuild the bundle' : '';
      throw new UsageError(`${shown} ${error.message}${hint}`);
    }
  };
  const textEntries = [...texts].map(([file, hash]) => [file, read(file, hash).toString('utf8')] as const);
  const mapEntries = [...maps].map(([file, hash]) => [file, parseMap(read(file, hash), arg, file)] as const);
  return { label: arg, manifest, texts: new Map(textEntries), maps: new Map(mapEntries) };
}

/** Artifact path → the sha256 the manifest gives it (undefined: none given), for the texts and the maps. The manifest's paths were checked on reading it. */
function namedFiles(manifest: Manifest): { texts: Map<string, string | undefined>; maps: Map<string, string | undefined> } {
  const texts = new Map<string, string | undefined>();
  const maps = new Map<string, string | undefined>();
  const entries = [...Object.values(manifest.profiles).flatMap((p) => p.sections), ...Object.values(manifest.agents)];
  for (const entry of entries) {
    if ('kind' in entry && entry.kind === 'dynamic') texts.set(entry.template, entry.templateHash);
    else texts.set(entry.file, entry.hash);
    if (entry.map !== undefined) maps.set(entry.map, entry.mapHash);
  }
  return { texts, maps };
}

function parseMap(bytes: Buffer, arg: string, file: string): SourceMap {
  let map: unknown;
  try {
    map = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new UsageError(`${arg}: ${file} is not valid JSON; rebuild the bundle`);
  }
  const segments = (map as { segments?: unknown } | null)?.segments;
  const valid =
    Array.isArray(segments) &&
    segments.every(
      (s: Record<string, unknown>) =>
        typeof s === 'object' && s !== null && typeof s.start === 'number' && typeof s.end === 'number' && typeof s.file === 'string' && typeof s.line === 'number' && Array.isArray(s.chain) && s.chain.every((c) => typeof c === 'string'),
    );
  if (!valid) throw new UsageError(`${arg}: ${file} is not a source map of this bundle; rebuild the bundle`);
  return map as SourceMap;
}
