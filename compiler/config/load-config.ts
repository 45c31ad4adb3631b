/**
 * Finding and loading `prompt-build.config.{ts,mts,js,mjs,json}`: the first
 * found at the root wins, or the file `--config` names. A config that does
 * not load or does not fit the schema is a positioned diagnostic on the
 * config file (the key's line where it can be found), never a stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { diagnostic, positionAt, type Diagnostic, type RuleId } from '../diagnostics/diagnostics.js';
import type { ProjectConfig } from './define-config.js';
import { jsonErrorOffset } from './json-error.js';
import { findConfigFile } from './find-config.js';
import { validateConfig } from './validate-config.js';

export interface LoadedConfig {
  /** Absolute path of the config file, or null when the project has none. */
  file: string | null;
  /** The config; empty when there is none or it has errors. */
  config: ProjectConfig;
  diagnostics: Diagnostic[];
}

export async function loadConfig(root: string, explicit?: string): Promise<LoadedConfig> {
  const file = findConfigFile(root, explicit);
  if (file === null) return { file, config: {}, diagnostics: [] };
  const rel = shownPath(root, file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return failed(file, diagnostic('config/load-failed', rel, { line: 1, column: 1 }, code === 'ENOENT' ? `no config file ${rel}` : `cannot read ${rel}: ${(error as Error).message}`));
  }
  const loaded = await evaluate(file, text);
  if (!loaded.ok) return failed(file, diagnostic(loaded.rule, rel, positionAt(text, loaded.offset), loaded.message, loaded.note === undefined ? {} : { note: loaded.note }));
  const { config, problems } = validateConfig(loaded.value);
  const diagnostics = problems.map((p) => diagnostic(p.rule, rel, keyPosition(text, p.keyPath), p.message, p.note === undefined ? {} : { note: p.note }));
  return { file, config, diagnostics };
}

type Evaluated = { ok: true; value: unknown } | { ok: false; rule: RuleId; offset: number; message: string; note?: string };

async function evaluate(file: string, text: string): Promise<Evaluated> {
  const ext = path.extname(file);
  if (ext === '.json') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch (error) {
      return { ok: false, rule: 'config/syntax', offset: jsonErrorOffset(text), message: `not valid JSON: ${firstLine((error as Error).message)}` };
    }
  }
  if (!['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].includes(ext)) {
    return { ok: false, rule: 'config/load-failed', offset: 0, message: `a config file is .ts, .mts, .js, .mjs or .json, not '${ext || path.basename(file)}'` };
  }
  try {
    const module = ext.endsWith('ts') ? await importTypeScript(file) : await importJavaScript(file);
    if (!('default' in module) || module.default === undefined) {
      return { ok: false, rule: 'config/invalid-value', offset: 0, message: 'the config module has no default export', note: 'write `export default defineConfig({ … })`' };
    }
    return { ok: true, value: module.default };
  } catch (error) {
    return { ok: false, rule: 'config/syntax', offset: errorOffset(error, file, text), message: `the config did not load: ${firstLine(String((error as Error).message ?? error))}` };
  }
}

/** Node's own loader; on a syntax error, which Node reports without a position, jiti parses it again to say where. */
async function importJavaScript(file: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof SyntaxError) await importTypeScript(file);
    throw error;
  }
}

/**
 * jiti, loaded only for a TypeScript config: Node 20 cannot strip types, and
 * jiti (no dependencies of its own) transpiles one file and caches nothing
 * outside node_modules.
 */
async function importTypeScript(file: string): Promise<Record<string, unknown>> {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
  return (await jiti.import(file)) as Record<string, unknown>;
}

/** The offset an error's message or stack gives for `file` (`file:line:col`), else 0. */
function errorOffset(error: unknown, file: string, text: string): number {
  const haystack = `${String((error as Error)?.message ?? '')}\n${String((error as Error)?.stack ?? '')}`;
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(haystack);
  if (!match) return 0;
  const lines = text.split('\n');
  const line = Math.min(Number(match[1]), lines.length) - 1;
  const start = lines.slice(0, Math.max(0, line)).reduce((n, l) => n + l.length + 1, 0);
  return start + Math.min(Number(match[2] ?? 0), (lines[line] ?? '').length);
}

/**
 * Where a key path is written: each key searched for after the previous one
 * (`"key":`, `'key':` or `key:`); list indices are skipped. Good enough for
 * the configs people write; when a key is not found, the last one found.
 */
export function keyPosition(text: string, keyPath: readonly string[]) {
  let offset = 0;
  let found = 0;
  for (const key of keyPath) {
    if (/^\d+$/.test(key)) continue;
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`(["'\`]?)${escaped}\\1\\s*:`, 'g');
    re.lastIndex = offset;
    const match = re.exec(text);
    if (!match) break;
    offset = match.index;
    found = match.index;
  }
  return positionAt(text, found);
}

function failed(file: string, d: Diagnostic): LoadedConfig {
  return { file, config: {}, diagnostics: [d] };
}

function shownPath(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}
