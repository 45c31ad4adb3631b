/**
 * Finding and loading `prompt-build.config.{ts,mts,js,mjs,json}`: the first
 * found at the root wins, or the file `--config` names. A config that does
 * not load or does not fit the schema is a positioned diagnostic on the
 * config file (the key's line where it can be found), never a stack trace.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { diagnostic, positionAt, type Diagnostic, type Position, type RuleId } from '../diagnostics/diagnostics.js';
import type { ProjectConfig } from './define-config.js';
import { jsonErrorOffset } from '../diagnostics/json-error.js';
import { findConfigFile } from './find-config.js';
import { readConfigNamedFile } from './read-config-file.js';
import { describeThrown, validateConfig } from './validate-config.js';

export interface LoadedConfig {
  /** Absolute path of the config file, or null when the project has none. */
  file: string | null;
  /** The config; empty when there is none or it has errors. */
  config: ProjectConfig;
  diagnostics: Diagnostic[];
  /** The config file's text as read (once), for positions; empty when there is none. */
  text: string;
}

export async function loadConfig(root: string, explicit?: string): Promise<LoadedConfig> {
  const file = findConfigFile(root, explicit);
  if (file === null) return { file, config: {}, diagnostics: [], text: '' };
  const rel = shownPath(root, file);
  const kind = kindProblem(file);
  // Before a byte is read: `--config /etc/passwd` names no config.
  if (kind !== null) return failed(file, diagnostic('config/load-failed', rel, { line: 1, column: 1 }, kind), '');
  // The file found at the root is the project's, and must be in it; `--config` may name any file, still a regular one.
  const read = readConfigNamedFile(file, explicit === undefined ? root : null, rel);
  if (!read.ok) return failed(file, diagnostic('config/load-failed', rel, { line: 1, column: 1 }, read.missing ? `no config file ${rel}` : read.message), '');
  const { text } = read;
  const loaded = await evaluate(file, text);
  if (!loaded.ok) {
    // A file that is not a config at all is placed, never quoted.
    const at = loaded.quote ? positionAt(text, loaded.offset) : { line: 1, column: 1 };
    return failed(file, diagnostic(loaded.rule, rel, at, loaded.message, loaded.note === undefined ? {} : { note: loaded.note }), text);
  }
  const { config, problems } = validateConfig(loaded.value);
  const positions = keyPositions(text);
  const diagnostics = problems.map((p) => diagnostic(p.rule, rel, positions(p.keyPath), p.message, p.note === undefined ? {} : { note: p.note }));
  return { file, config, diagnostics, text };
}

/** `quote`: the file is what it claims to be, so the diagnostic may show the line at `offset`. */
type Evaluated = { ok: true; value: unknown } | { ok: false; rule: RuleId; offset: number; quote: boolean; message: string; note?: string };

const MODULE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

function kindProblem(file: string): string | null {
  const ext = path.extname(file);
  if (ext === '.json' || MODULE_EXTENSIONS.includes(ext)) return null;
  return `a config file is .ts, .mts, .js, .mjs or .json, not '${ext || path.basename(file)}'`;
}

async function evaluate(file: string, text: string): Promise<Evaluated> {
  const ext = path.extname(file);
  if (ext === '.json') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      // JSON.parse's own message quotes the text. A file that does not even open an object is no config: placed, not quoted.
      const opensObject = text.trimStart().startsWith('{');
      const offset = jsonErrorOffset(text);
      return { ok: false, rule: 'config/syntax', offset, quote: opensObject, message: opensObject ? 'not valid JSON here' : 'not a JSON object: a JSON config is one object of settings' };
    }
  }
  try {
    const module: unknown = ext.endsWith('ts') ? await importTypeScript(file) : await importJavaScript(file);
    const value = typeof module === 'object' && module !== null && 'default' in module ? module.default : undefined;
    if (value === undefined) {
      return { ok: false, rule: 'config/invalid-value', offset: 0, quote: true, message: 'the config module has no default export', note: 'write `export default defineConfig({ … })`' };
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, rule: 'config/syntax', offset: errorOffset(error, file, text), quote: true, message: `the config did not load: it threw ${describeThrown(error)}` };
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
  let haystack: string;
  try {
    haystack = `${String((error as Error)?.message ?? '')}\n${String((error as Error)?.stack ?? '')}`;
  } catch {
    return 0; // a thrown Proxy, a getter that throws: no position to give
  }
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
export function keyPosition(text: string, keyPath: readonly string[]): Position {
  return keyPositions(text)(keyPath);
}

/**
 * `keyPosition` for many key paths of one text: the text is scanned once for
 * every `key:` it writes and its line starts, then each lookup is a binary
 * search. A config with 20,000 bad entries must not scan its text 20,000 times.
 */
export function keyPositions(text: string): (keyPath: readonly string[]) => Position {
  const keys = new Map<string, number[]>();
  // A quoted key (escapes skipped; `['key']:` computed), or a bare identifier not preceded by one of its own characters (each is tried once).
  const KEY = /\[?(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1\]?\s*:|(?<![\w$])([A-Za-z_$][\w$]*)\s*:/g;
  for (let match = KEY.exec(text); match !== null; match = KEY.exec(text)) {
    const key = match[2] ?? match[3]!;
    const offsets = keys.get(key);
    if (offsets) offsets.push(match.index);
    else keys.set(key, [match.index]);
  }
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (keyPath) => {
    let found = 0;
    for (const key of keyPath) {
      if (/^\d+$/.test(key)) continue;
      const offsets = keys.get(key);
      const next = offsets ? offsets[firstAtOrAfter(offsets, found)] : undefined;
      if (next === undefined) break;
      found = next;
    }
    const line = firstAtOrAfter(lineStarts, found + 1) - 1;
    const lineStart = lineStarts[line]!;
    const lineEnd = line + 1 < lineStarts.length ? lineStarts[line + 1]! - 1 : text.length;
    return { line: line + 1, column: found - lineStart + 1, excerpt: text.slice(lineStart, lineEnd) };
  };
}

/** The index of the first value of the ascending `values` that is at least `min` (`values.length` if none). */
function firstAtOrAfter(values: readonly number[], min: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function failed(file: string, d: Diagnostic, text: string): LoadedConfig {
  return { file, config: {}, diagnostics: [d], text };
}

function shownPath(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}
