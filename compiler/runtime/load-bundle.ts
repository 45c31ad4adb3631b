/**
 * Loads a bundle directory (`dist/`). Every artifact is read as a regular
 * file inside the bundle (`read-regular-file.ts`: no link, FIFO or device)
 * and checked against the manifest's sha256 before it is used: a half-copied,
 * truncated or edited bundle fails here with the file's name instead of
 * producing a wrong prompt. A thunk is imported from the very bytes that were
 * checked, never read a second time.
 */
import { ArgumentError } from './arguments.js';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BundleError, createBundle, type Bundle } from './bundle.js';
import type { ThunkFactory } from './manifest.js';
import { bundleFileReader, FileRefused, verified } from './read-regular-file.js';
import { importHandlebarsRuntime, needsHandlebars } from './thunk-runtime.js';
import { listArtifacts, validateManifest, type Artifact } from './validate-manifest.js';

type Read = (rel: string) => Buffer;

/** `dir`: the bundle directory, as a path or a `file:` URL (e.g. `new URL('./dist', import.meta.url)`). */
export async function loadBundle(dir: string | URL): Promise<Bundle> {
  if (typeof dir !== 'string' && !(dir instanceof URL)) throw new ArgumentError('loadBundle', 'dir', 'a directory path or a file: URL', dir);
  const root = resolve(typeof dir === 'string' ? dir : fileURLToPath(dir));
  const origin = `bundle ${root}`;
  const read = bundleFileReader(root);
  const manifest = validateManifest(parseJson(readArtifact(read, 'manifest.json', origin), origin), origin);
  const { texts, thunks } = listArtifacts(manifest, origin);
  // Blocking reads: a bundle is many small files, and a promise per read costs more than the read.
  const textEntries = texts.map((artifact) => [artifact.file, readVerified(read, artifact, origin).toString('utf8')] as const);
  const thunkEntries = await Promise.all(thunks.map(async (artifact) => [artifact.file, await importThunk(root, read, artifact, origin)] as const));
  const handlebars = thunkEntries.some(([, thunk]) => thunk.handlebars) ? await importHandlebarsRuntime() : null;
  const factories = thunkEntries.map(([file, thunk]) => [file, thunk.factory] as const);
  return createBundle(manifest, { texts: new Map(textEntries), thunks: new Map(factories) }, origin, handlebars);
}

async function importThunk(root: string, read: Read, artifact: Artifact, origin: string): Promise<{ factory: ThunkFactory; handlebars: boolean }> {
  const bytes = readVerified(read, artifact, origin);
  // Imported from the checked bytes, not by path: a file swapped after the
  // check cannot run. The sourceURL comment after them keeps the file's name
  // in the stack trace of a failing template; it adds no code.
  const source = Buffer.concat([bytes, Buffer.from(`\n//# sourceURL=${pathToFileURL(join(root, artifact.file)).href}\n`)]);
  let module: { default?: unknown };
  try {
    module = (await import(`data:text/javascript;base64,${source.toString('base64')}`)) as { default?: unknown };
  } catch (cause) {
    throw new BundleError(`${origin}: thunk ${artifact.file} cannot be imported: ${String(cause)}`, { cause });
  }
  if (typeof module.default !== 'function') {
    throw new BundleError(`${origin}: thunk ${artifact.file} has no default-exported factory function`);
  }
  return { factory: module.default as ThunkFactory, handlebars: needsHandlebars(bytes) };
}

function readVerified(read: Read, { file, hash }: Artifact, origin: string): Buffer {
  const bytes = readArtifact(read, file, origin);
  try {
    return verified(bytes, hash);
  } catch (refused) {
    throw new BundleError(
      `${origin}: artifact ${file} ${(refused as Error).message}. The bundle is corrupted, half-copied or edited by hand: rebuild it.`,
    );
  }
}

function readArtifact(read: Read, file: string, origin: string): Buffer {
  try {
    return read(file);
  } catch (cause) {
    if (cause instanceof FileRefused) throw new BundleError(`${origin}: ${file} ${cause.message}`, { cause });
    throw cause;
  }
}

function parseJson(bytes: Buffer, origin: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new BundleError(`${origin}: manifest.json is not valid JSON (truncated?): ${String(cause)}`, { cause });
  }
}
