/** Shared by the runtime tests: the hand-made bundle (see make-fixture-bundle.mjs) and a deferred promise. */
import { cp, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/runtime-bundle', import.meta.url));

/** A private copy of the fixture bundle, safe to damage. */
export async function copyFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prompt-build-runtime-'));
  await cp(FIXTURE_DIR, dir, { recursive: true });
  return dir;
}

/** Every file of the fixture bundle except the manifest, by bundle path. */
export async function fixtureFiles(): Promise<Map<string, string>> {
  const entries = await readdir(FIXTURE_DIR, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.isFile() || entry.name === 'manifest.json') continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(FIXTURE_DIR, path).split('\\').join('/'), await readFile(path, 'utf8'));
  }
  return files;
}

/** The file of the fixture bundle whose path starts with `prefix` (names carry a hash). */
export async function fixturePath(prefix: string): Promise<string> {
  const matches = [...(await fixtureFiles()).keys()].filter((file) => file.startsWith(prefix));
  if (matches.length !== 1) throw new Error(`expected one fixture file starting with ${prefix}, got ${matches.length}`);
  return matches[0] as string;
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
