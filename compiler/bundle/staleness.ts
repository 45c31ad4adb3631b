/**
 * Is a bundle directory what the sources produce? Compares the files of an
 * in-memory build with the files on disk, byte for byte: `check` fails on any
 * difference, since a stale `dist/` ships prompts nobody reviewed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from './disk.js';

export interface Staleness {
  /** Bundle-relative paths whose bytes differ from the build's. */
  changed: string[];
  /** Files the build produces that the directory lacks. */
  missing: string[];
  /** Files in the directory the build does not produce. */
  extra: string[];
}

/** Null when `outDir` does not exist: there is no bundle to be out of date. */
export async function findStaleFiles(expected: ReadonlyMap<string, string>, outDir: string): Promise<Staleness | null> {
  const exists = await fs.stat(outDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists) return null;
  const actual = new Map<string, Buffer>();
  const files = await listFiles(outDir);
  // In batches: enough reads in flight to be quick, few enough to stay under the open-file limit.
  for (let i = 0; i < files.length; i += 64) {
    const batch = files.slice(i, i + 64);
    const contents = await Promise.all(batch.map((rel) => fs.readFile(path.join(outDir, rel))));
    batch.forEach((rel, j) => actual.set(rel, contents[j]!));
  }
  return compareBundleFiles(expected, actual);
}

export function isFresh(s: Staleness): boolean {
  return s.changed.length === 0 && s.missing.length === 0 && s.extra.length === 0;
}

function compareBundleFiles(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, Uint8Array>): Staleness {
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [rel, content] of expected) {
    const bytes = actual.get(rel);
    if (bytes === undefined) missing.push(rel);
    else if (!Buffer.from(content).equals(bytes)) changed.push(rel);
  }
  const extra = [...actual.keys()].filter((rel) => !expected.has(rel));
  return { changed: changed.sort(), missing: missing.sort(), extra: extra.sort() };
}
