/**
 * Loads the single-file form (`dist/bundle.mjs`) from the module object a
 * service imported, with no file-system access, into the same `Bundle` as
 * `loadBundle` — so both forms give identical prompts.
 *
 * Hashes are not re-checked here: the module is one file written atomically
 * by the build, a truncated one does not parse, and its thunks are functions
 * whose source bytes are no longer available to hash.
 */
import { ArgumentError, isRecord, optionsOf } from './arguments.js';
import { createBundle, type Bundle } from './bundle.js';
import type { ThunkFactory } from './manifest.js';
import { needsHandlebars, type HandlebarsRuntimeEnvironment } from './thunk-runtime.js';
import { validateManifest } from './validate-manifest.js';

const ORIGIN = 'bundle module';

/**
 * `handlebars`: `handlebars/runtime` (its default export), needed only when a
 * thunk of the bundle was compiled by Handlebars — the code generator's own
 * never are; such a thunk without it fails to load with a message that says so.
 */
export function loadBundleModule(module: unknown, given?: { handlebars?: unknown }): Bundle {
  if (!isRecord(module)) throw new ArgumentError('loadBundleModule', 'module', "the imported bundle module (await import('./dist/bundle.mjs'))", module);
  const options = optionsOf('loadBundleModule', given);
  const { manifest, texts, thunks } = (module ?? {}) as Record<string, unknown>;
  const factories = entriesOfType(thunks, (value): value is ThunkFactory => typeof value === 'function');
  const handlebars = [...factories.values()].some((f) => needsHandlebars(String(f))) ? ((options.handlebars ?? null) as HandlebarsRuntimeEnvironment | null) : null;
  return createBundle(
    validateManifest(manifest, ORIGIN),
    { texts: entriesOfType(texts, (value): value is string => typeof value === 'string'), thunks: factories },
    ORIGIN,
    handlebars,
  );
}

/** Entries of the wrong type are left out, so `createBundle` reports their file as missing. */
function entriesOfType<T>(record: unknown, isT: (value: unknown) => value is T): Map<string, T> {
  const entries = typeof record === 'object' && record !== null ? Object.entries(record) : [];
  return new Map(entries.filter((entry): entry is [string, T] => isT(entry[1])));
}
