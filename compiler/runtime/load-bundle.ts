/**
 * Loads a bundle directory (`dist/`). Every artifact is checked against the
 * manifest's sha256 before it is used: a half-copied, truncated or edited
 * bundle fails here with the file's name instead of producing a wrong prompt.
 * The only module of the runtime that touches the file system.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BundleError, createBundle, type Bundle } from './bundle.js';
import type { ThunkFactory } from './manifest.js';
import { importHandlebarsRuntime, needsHandlebars } from './thunk-runtime.js';
import { listArtifacts, validateManifest, type Artifact } from './validate-manifest.js';

/** `dir`: the bundle directory, as a path or a `file:` URL (e.g. `new URL('./dist', import.meta.url)`). */
export async function loadBundle(dir: string | URL): Promise<Bundle> {
  const root = resolve(typeof dir === 'string' ? dir : fileURLToPath(dir));
  const origin = `bundle ${root}`;
  const manifest = validateManifest(parseJson(await readArtifact(root, 'manifest.json', origin), origin), origin);
  const { texts, thunks } = listArtifacts(manifest, origin);
  const [textEntries, thunkEntries] = await Promise.all([
    Promise.all(texts.map(async (artifact) => [artifact.file, await readText(root, artifact, origin)] as const)),
    Promise.all(thunks.map(async (artifact) => [artifact.file, await importThunk(root, artifact, origin)] as const)),
  ]);
  const handlebars = thunkEntries.some(([, thunk]) => thunk.handlebars) ? await importHandlebarsRuntime() : null;
  const factories = thunkEntries.map(([file, thunk]) => [file, thunk.factory] as const);
  return createBundle(manifest, { texts: new Map(textEntries), thunks: new Map(factories) }, origin, handlebars);
}

async function readText(root: string, artifact: Artifact, origin: string): Promise<string> {
  return (await readVerified(root, artifact, origin)).toString('utf8');
}

async function importThunk(root: string, artifact: Artifact, origin: string): Promise<{ factory: ThunkFactory; handlebars: boolean }> {
  // The bytes were verified just before; importing by path keeps real file
  // names in stack traces of a failing template.
  const bytes = await readVerified(root, artifact, origin);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(join(root, artifact.file)).href)) as { default?: unknown };
  } catch (cause) {
    throw new BundleError(`${origin}: thunk ${artifact.file} cannot be imported: ${String(cause)}`, { cause });
  }
  if (typeof module.default !== 'function') {
    throw new BundleError(`${origin}: thunk ${artifact.file} has no default-exported factory function`);
  }
  return { factory: module.default as ThunkFactory, handlebars: needsHandlebars(bytes) };
}

async function readVerified(root: string, { file, hash }: Artifact, origin: string): Promise<Buffer> {
  const bytes = await readArtifact(root, file, origin);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== hash) {
    throw new BundleError(
      `${origin}: artifact ${file} does not match the manifest (sha256 ${actual.slice(0, 12)}…, ` +
        `expected ${hash.slice(0, 12)}…; ${bytes.length} bytes). The bundle is corrupted, ` +
        `half-copied or edited by hand: rebuild it.`,
    );
  }
  return bytes;
}

async function readArtifact(root: string, file: string, origin: string): Promise<Buffer> {
  try {
    return await readFile(join(root, file));
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    const what = missing ? 'is missing' : `cannot be read: ${String(cause)}`;
    throw new BundleError(`${origin}: ${file} ${what}`, { cause });
  }
}

function parseJson(bytes: Buffer, origin: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new BundleError(`${origin}: manifest.json is not valid JSON (truncated?): ${String(cause)}`, { cause });
  }
}
