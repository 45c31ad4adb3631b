/**
 * The config's `plugins` as the build runs them (docs/lint.md#plugins): each
 * entry's function, or the default export of the package or file it names —
 * a package resolved as the project would import it (from the root), a file
 * relative to the root and inside it, TypeScript through jiti as for the
 * config. A preset (`{ plugins: [...] }`, as remark-lint's) gives its
 * plugins. An entry that does not load is a diagnostic at its line of the
 * config, never a stack trace.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PromptPlugin } from '../core/options.js';
import { isInside, realish } from '../core/paths.js';
import { diagnostic, positionAt, type Diagnostic, type Position } from '../diagnostics/diagnostics.js';
import { LineIndex } from '../core/line-index.js';
import type { PluginConfig, PluginRef } from './define-config.js';
import { keyPositions } from './load-config.js';
import { describeThrown } from './validate-config.js';

/** The config file the entries are written in: its root-relative path and text, for positions. */
export interface PluginsDeclared {
  file: string;
  text: string;
}

type Attacher = PromptPlugin['attacher'];

export async function loadPlugins(root: string, entries: readonly PluginConfig[], declared: PluginsDeclared): Promise<{ plugins: PromptPlugin[]; diagnostics: Diagnostic[] }> {
  const positions = keyPositions(declared.text);
  const plugins: PromptPlugin[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [i, entry] of entries.entries()) {
    const [ref, ...options] = Array.isArray(entry) ? entry : [entry];
    const at = entryPosition(declared.text, positions(['plugins', String(i)]), ref as PluginRef);
    const declaredAt = { file: declared.file, line: at.line, column: at.column, excerpt: at.excerpt };
    const loaded = await load(root, ref as PluginRef);
    if (!loaded.ok) {
      diagnostics.push(diagnostic('plugin/load-failed', declared.file, at, `plugin ${JSON.stringify(shownRef(ref as PluginRef))} did not load: ${loaded.message}`, loaded.note === undefined ? {} : { note: loaded.note }));
      continue;
    }
    for (const [j, found] of loaded.plugins.entries()) {
      const name = loaded.plugins.length === 1 ? loaded.name : `${loaded.name}:${found.attacher.name || j + 1}`;
      // The entry's own options go to a plugin it names; a preset's plugins keep the options the preset gives them.
      const given = loaded.preset ? found.options : options;
      plugins.push({ name, attacher: found.attacher, ...(given.length > 0 ? { options: given[0] } : {}), declaredAt });
    }
  }
  return { plugins, diagnostics };
}

type Loaded =
  | { ok: true; name: string; preset: boolean; plugins: Array<{ attacher: Attacher; options: unknown[] }> }
  | { ok: false; message: string; note?: string };

async function load(root: string, ref: PluginRef): Promise<Loaded> {
  if (typeof ref === 'function') return { ok: true, name: ref.name || 'plugin', preset: false, plugins: [{ attacher: ref, options: [] }] };
  const isFile = ref.startsWith('.') || path.isAbsolute(ref);
  let module: unknown;
  try {
    module = isFile ? await importFile(root, ref) : await importPackage(root, ref);
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message, ...(error.note === undefined ? {} : { note: error.note }) };
    return { ok: false, message: `importing it threw ${describeThrown(error)}` };
  }
  const name = isFile ? path.basename(ref).replace(/\.[cm]?[jt]s$/, '') : ref;
  const value = typeof module === 'object' && module !== null && 'default' in module ? (module as { default: unknown }).default : module;
  if (typeof value === 'function') return { ok: true, name, preset: false, plugins: [{ attacher: value as Attacher, options: [] }] };
  const preset = presetPlugins(value);
  if (preset) return { ok: true, name, preset: true, plugins: preset };
  return { ok: false, message: 'its default export is neither a plugin (a function) nor a preset ({ plugins: [...] })' };
}

/** A unified preset's plugins, each with the options it gives; null when `value` is no preset of plugins. */
function presetPlugins(value: unknown): Array<{ attacher: Attacher; options: unknown[] }> | null {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { plugins?: unknown }).plugins)) return null;
  const out: Array<{ attacher: Attacher; options: unknown[] }> = [];
  for (const item of (value as { plugins: unknown[] }).plugins) {
    const [attacher, ...options] = Array.isArray(item) ? item : [item];
    if (typeof attacher !== 'function') return null;
    out.push({ attacher: attacher as Attacher, options });
  }
  return out;
}

class Refused extends Error {
  constructor(
    message: string,
    readonly note?: string,
  ) {
    super(message);
  }
}

/** A file the project's config names is the project's: inside the root, through any symlink, and a regular file. */
async function importFile(root: string, ref: string): Promise<unknown> {
  const file = path.resolve(root, ref);
  if (!isInside(root, file) || !isInside(realish(root), realish(file))) throw new Refused('it is outside the project root', 'a plugin file the config names must be in the project');
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Refused(`there is no file ${ref}`);
  if (/\.[cm]?ts$/.test(file)) {
    const { createJiti } = await import('jiti');
    return createJiti(pathToFileURL(file).href, { moduleCache: false, fsCache: false }).import(file);
  }
  return import(pathToFileURL(file).href);
}

/** A package, found as the project itself would find it: from the root's node_modules up. */
async function importPackage(root: string, name: string): Promise<unknown> {
  if (!isPackageName(name)) throw new Refused(`'${name}' is not a package name`, "name a package ('remark-lint', '@scope/name/sub') or a file in the project ('./path/to/plugin.mjs')");
  let resolved: string;
  try {
    resolved = createRequire(path.join(root, 'package.json')).resolve(name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw new Refused(`the package '${name}' cannot be resolved from the project root: ${describeThrown(error)}`, "name its entry file instead: './node_modules/…/index.js'");
    throw new Refused(`no package '${name}' is installed where the project is`, `install it (npm install --save-dev ${name}), or name a file: './path/to/plugin.mjs'`);
  }
  return import(pathToFileURL(resolved).href);
}

/**
 * An npm package name, scoped or not, with an optional subpath of plain
 * segments: never `.`, `..` or a backslash, which would let resolution walk
 * out of node_modules to any file (`x/../../../outside/evil.mjs`).
 */
function isPackageName(ref: string): boolean {
  const match = /^((?:@[a-z0-9~-][\w.~-]*\/)?[a-z0-9~-][\w.~-]*)((?:\/[^/\\]+)*)$/i.exec(ref);
  return match !== null && match[2]!.split('/').every((segment) => segment !== '.' && segment !== '..');
}

/** Where an entry naming a package or file is written: its name, quoted, after the `plugins` key; else the key. */
function entryPosition(text: string, key: Position, ref: PluginRef): Position {
  if (typeof ref !== 'string') return key;
  const keyOffset = new LineIndex(text).startOfLine(key.line) + key.column - 1;
  const quoted = [`'${ref}'`, `"${ref}"`, `\`${ref}\``].map((q) => text.indexOf(q, keyOffset)).filter((i) => i !== -1);
  return quoted.length === 0 ? key : positionAt(text, Math.min(...quoted));
}

function shownRef(ref: PluginRef): string {
  return typeof ref === 'function' ? ref.name || 'plugin' : ref;
}
