/**
 * Is a bundle directory what the sources produce? Compares the files of an
 * in-memory build with the files on disk, byte for byte: `check` fails on any
 * difference, since a stale `dist/` ships prompts nobody reviewed.
 */
import fs from 'node:fs/promises';
import { bundleFileReader, FileRefused } from '../runtime/read-regular-file.js';
import { listFiles } from './disk.js';

export interface Staleness {
  /** Bundle-relative paths whose bytes differ from the build's. */
  changed: string[];
  /** Files the build produces that the directory lacks. */
  missing: string[];
  /** Files in the directory the build does not produce. */
  extra: string[];
}

/**
 * Null when `outDir` does not exist: there is no bundle to be out of date.
 * Only the files the build produces are read, each as a regular file inside
 * the directory (`runtime/read-regular-file.ts`) and no larger than the
 * build's bytes: a committed FIFO cannot hang the gate, a link is not
 * followed, and a file swapped for either after the listing is "changed".
 */
export async function findStaleFiles(expected: ReadonlyMap<string, string>, outDir: string): Promise<Staleness | null> {
  const exists = await fs.stat(outDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists) return null;
  const read = bundleFileReader(outDir);
  const changed: string[] = [];
  const missing: string[] = [];
  // Links and FIFOs are no file of a bundle, whatever their name, and are never read:
  // in an artifact's place one is a changed file, anywhere else an extra one.
  const others: string[] = [];
  const listed = await listFiles(outDir, others);
  const extra = [...listed, ...others].filter((rel) => !expected.has(rel));
  const onDisk = new Set(listed);
  for (const [rel, content] of expected) {
    if (others.includes(rel)) {
      changed.push(rel);
      continue;
    }
    if (!onDisk.has(rel)) {
      missing.push(rel);
      continue;
    }
    const bytes = Buffer.from(content);
    const actual = readOrNull(read, rel, bytes.length);
    if (actual === null || !bytes.equals(actual)) changed.push(rel);
  }
  return { changed: changed.sort(), missing: missing.sort(), extra: extra.sort() };
}

/** The file's bytes; null when it is refused (a link, FIFO or device, gone since the listing, or larger than `maxBytes`). */
function readOrNull(read: ReturnType<typeof bundleFileReader>, rel: string, maxBytes: number): Buffer | null {
  try {
    return read(rel, maxBytes);
  } catch (error) {
    if (error instanceof FileRefused) return null;
    throw error;
  }
}

export function isFresh(s: Staleness): boolean {
  return s.changed.length === 0 && s.missing.length === 0 && s.extra.length === 0;
}
