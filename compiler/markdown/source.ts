/**
 * Reading one Markdown source: bytes → normalised text (BOM removed, CRLF →
 * LF) → frontmatter (gray-matter, YAML through `yaml` with its alias limit, so
 * a YAML bomb is a diagnostic, not an out-of-memory) → body → scan.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import matter from 'gray-matter';
import jsyaml from 'js-yaml';
import YAML from 'yaml';
import { diagnostic, positionAt, type Diagnostic } from '../diagnostics/diagnostics.js';
import { sha256 } from '../core/hash.js';
import { fileType, readAtMost } from '../runtime/read-regular-file.js';
import { scanBody, type Scan } from './scan.js';
import { textProblem, type TextProblem } from './text-check.js';
import { parseLeniently, type LenientStop, type QuotedLine } from './lenient-yaml.js';
import type { BIDI_RULE, CONTROL_RULE } from './control-chars.js';

export type Frontmatter = Record<string, unknown>;

/** What is derived from a file's bytes alone: cacheable by content hash. */
export interface ParsedSource {
  data: Frontmatter;
  /** Offset of the body in the normalised text. */
  bodyOffset: number;
  scan: Scan;
  /** Frontmatter errors (positions are in the file). */
  problems: Problem[];
}

export interface Source extends ParsedSource {
  /** Absolute path as read (not realpath'd). */
  path: string;
  /** Root-relative POSIX path, or the absolute path when outside the root. */
  rel: string;
  /** sha256 of the raw bytes. */
  hash: string;
  /** Normalised full text. */
  text: string;
  body: string;
}

/** A diagnostic before a file name is attached: what the cache stores. */
export interface Problem {
  rule: 'frontmatter/invalid-yaml' | 'frontmatter/lenient-yaml' | typeof CONTROL_RULE | typeof BIDI_RULE;
  /** Absent: an error. */
  severity?: 'warning';
  offset: number;
  message: string;
  note?: string;
  /** Printed on one line unless asked for detail (see `Diagnostic.brief`). */
  brief?: true;
}

export type ReadFailure =
  | { kind: 'missing' }
  /** `what`: "a FIFO", "a socket", "a directory"… */
  | { kind: 'not-a-file'; what: string }
  /** A path under the root whose real path leaves it (a symlink): never opened. */
  | { kind: 'outside-root' }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'text'; problem: TextProblem }
  | { kind: 'unreadable'; message: string };

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false; failure: ReadFailure };

/**
 * Opening a FIFO blocks until a writer comes, and opening a device may act on
 * it: only a path that `stat` says is a regular file is opened. Non-blocking,
 * so a file swapped for a FIFO between the two still cannot hang the build;
 * `fstat` on the open file then refuses it.
 */
const OPEN_FLAGS = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0) | (fsSync.constants.O_NOCTTY ?? 0);

/** Reads a text file under the type, size and encoding guards (docs/authoring.md#text-files-only). */
export async function readTextFile(file: string, maxBytes: number): Promise<ReadResult> {
  let handle: fs.FileHandle;
  try {
    const refused = guard(await fs.stat(file), maxBytes);
    if (refused) return refused;
    handle = await fs.open(file, OPEN_FLAGS);
  } catch (error) {
    return { ok: false, failure: openFailure(error) };
  }
  try {
    return guard(await handle.stat(), maxBytes) ?? checkText(await handle.readFile());
  } catch (error) {
    return { ok: false, failure: openFailure(error) };
  } finally {
    await handle.close();
  }
}

/**
 * The same, blocking. A build reads thousands of small files and does nothing
 * else meanwhile: four promise round trips per file cost more than the reads.
 * `lstat`, when the caller has it (see core/real-paths.ts), is the path's own
 * and says it is no link: it stands for the `stat` before opening, and the
 * file is opened without following a link that took its place since.
 */
export function readTextFileSync(file: string, maxBytes: number, lstat?: fsSync.Stats): ReadResult {
  let fd: number;
  try {
    const refused = guard(lstat ?? fsSync.statSync(file), maxBytes);
    if (refused) return refused;
    fd = fsSync.openSync(file, lstat ? OPEN_FLAGS | (fsSync.constants.O_NOFOLLOW ?? 0) : OPEN_FLAGS);
  } catch (error) {
    return { ok: false, failure: openFailure(error) };
  }
  try {
    const stat = fsSync.fstatSync(fd);
    return guard(stat, maxBytes) ?? checkText(readAtMost(fd, stat.size));
  } catch (error) {
    return { ok: false, failure: openFailure(error) };
  } finally {
    fsSync.closeSync(fd);
  }
}

/** Refuses before reading: not a regular file, or over the size limit. */
function guard(stat: fsSync.Stats, maxBytes: number): ReadResult | null {
  if (!stat.isFile()) return { ok: false, failure: { kind: 'not-a-file', what: fileType(stat) } };
  if (stat.size > maxBytes) return { ok: false, failure: { kind: 'too-large', bytes: stat.size } };
  return null;
}

/** Bytes that did not come from a file (an editor's unsaved buffer), under the same size and text guards as a file. */
export function textFromBytes(bytes: Buffer, maxBytes: number): ReadResult {
  return bytes.length > maxBytes ? { ok: false, failure: { kind: 'too-large', bytes: bytes.length } } : checkText(bytes);
}

function checkText(bytes: Buffer): ReadResult {
  const problem = textProblem(bytes);
  return problem ? { ok: false, failure: { kind: 'text', problem } } : { ok: true, bytes };
}

function openFailure(error: unknown): ReadFailure {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EISDIR') return { kind: 'not-a-file', what: 'a directory' };
  return { kind: 'unreadable', message: (error as Error).message };
}

export function normaliseText(bytes: Uint8Array): string {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // CRLF is a line break written the Windows way; a lone CR is a byte the author wrote, kept (docs/authoring.md#fidelity).
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

export function parseSource(text: string, extensions: readonly string[]): ParsedSource {
  const { data, bodyOffset, problems } = splitFrontmatter(text);
  const proseTemplates = data.kind !== 'dynamic';
  return { data, bodyOffset, problems, scan: scanBody(text.slice(bodyOffset), extensions, { proseTemplates }) };
}

/** A file read but not yet parsed. */
export interface RawFile {
  path: string;
  rel: string;
  hash: string;
  text: string;
}

export function rawFile(file: string, rel: string, bytes: Uint8Array): RawFile {
  return { path: file, rel, hash: sha256(bytes), text: normaliseText(bytes) };
}

export function makeSource(raw: RawFile, parsed: ParsedSource): Source {
  return { ...parsed, ...raw, body: raw.text.slice(parsed.bodyOffset) };
}

export function problemToDiagnostic(source: Pick<Source, 'rel' | 'text'>, problem: Problem): Diagnostic {
  const extra = {
    ...(problem.severity ? { severity: problem.severity } : {}),
    ...(problem.note === undefined ? {} : { note: problem.note }),
    ...(problem.brief ? { brief: true as const } : {}),
  };
  return diagnostic(problem.rule, source.rel, positionAt(source.text, problem.offset), problem.message, extra);
}

// Duplicate keys are found below (firstDuplicateKey): the library's own check compares each key with every earlier one (60,000 keys: 90 s).
const YAML_OPTIONS = { schema: 'core', uniqueKeys: false, prettyErrors: false } as const;

/**
 * js-yaml (core schema: no timestamps, so values stay strings) reads common
 * frontmatter several times faster than `yaml`; `yaml` takes over for anything
 * with an alias — its alias limit turns a "billion laughs" into a diagnostic —
 * and for errors, whose positions it reports more precisely.
 */
function parseYaml(source: string): { ok: true; value: unknown; quoted: QuotedLine[] } | { ok: false; offset: number; message: string; continues?: LenientStop['continues'] } {
  if (!HAS_ALIAS.test(source) && !QUOTE_LEFT_OPEN.test(source)) {
    try {
      return { ok: true, value: jsyaml.load(source, { schema: jsyaml.CORE_SCHEMA }), quoted: [] };
    } catch {
      // fall through: `yaml` explains the error, with its position
    }
  }
  const strict = parseStrictly(source);
  if (strict.ok) return { ...strict, quoted: [] };
  const lenient = parseLeniently(source, parseStrictly);
  if (lenient.ok) return lenient;
  // Where the lenient reading stops, not the strict parser's first complaint: that is often a line it has already read.
  const { offset, reason, continues } = lenient.stop;
  return { ok: false, offset, message: reason, ...(continues ? { continues } : {}) };
}

function parseStrictly(source: string): { ok: true; value: unknown } | { ok: false; offset: number; message: string } {
  try {
    const document = YAML.parseDocument(source, YAML_OPTIONS);
    const error = document.errors[0];
    if (error) return { ok: false, offset: error.pos[0], message: firstLine(error.message) };
    const duplicate = firstDuplicateKey(document.contents);
    if (duplicate !== null) return { ok: false, offset: duplicate, message: 'Map keys must be unique' };
    return { ok: true, value: document.toJS({ maxAliasCount: 100 }) };
  } catch (error) {
    const pos = (error as { pos?: [number, number] }).pos;
    return { ok: false, offset: pos?.[0] ?? 0, message: firstLine((error as Error).message) };
  }
}

/** The offset of the first key that repeats one of its map, in one pass with a set per map (aliases not followed), or null. */
function firstDuplicateKey(root: unknown): number | null {
  const pending: unknown[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (YAML.isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (YAML.isScalar(pair.key)) {
          const key = `${typeof pair.key.value}:${String(pair.key.value)}`;
          if (seen.has(key)) return pair.key.range?.[0] ?? 0;
          seen.add(key);
        }
        pending.push(pair.value);
      }
    } else if (YAML.isSeq(node)) for (const item of node.items) pending.push(item);
  }
  return null;
}

/** A first line `---` (gray-matter's opening; `----` opens nothing) with no later line starting `---` (its closing). */
function neverClosed(text: string): boolean {
  if (text.charAt(3) === '-') return false;
  const firstLineEnd = text.indexOf('\n');
  return firstLineEnd === -1 || !text.includes('\n---', firstLineEnd);
}

const HAS_ALIAS = /(^|[\s[{,:-])\*[^\s*]/;
/**
 * A quoted value with more after its closing quote on the same line
 * (`description: "Use this…" Examples: …`): js-yaml reads the words after
 * it as a second key, where YAML refuses the line and Claude Code's retry
 * reads it whole. `yaml` decides.
 */
const QUOTE_LEFT_OPEN = /^[A-Za-z_][\w.-]*:[ \t]+(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'(?!'))[ \t]*[^\s#]/m;

export function splitFrontmatter(text: string): Pick<ParsedSource, 'data' | 'bodyOffset' | 'problems'> {
  if (!text.startsWith('---')) return { data: {}, bodyOffset: 0, problems: [] };
  // gray-matter would read the whole file as YAML: its error (or, for prose, a silent mapping) would not say what is wrong.
  if (neverClosed(text)) {
    const note = 'close it with a line holding only `---`, or remove the first line if the file has no frontmatter';
    return { data: {}, bodyOffset: 0, problems: [{ rule: 'frontmatter/invalid-yaml', offset: 0, message: 'frontmatter opened at line 1 is never closed', note }] };
  }
  // `---js` would have gray-matter evaluate the block as JavaScript, with this process's rights: a file someone
  // else wrote (a pull request's) must never run. Only YAML is read; any other language is refused unread.
  const language = text.charAt(3) === '-' ? '' : matter.language(text).name;
  if (language !== '' && !/^ya?ml$/i.test(language)) {
    const note = 'open the frontmatter with a line holding only `---`, and write it in YAML';
    // The name as the file wrote it, cut: the rest of a long first line is not a language.
    const named = language.length > 40 ? `${language.slice(0, 40)}…` : language;
    return { data: {}, bodyOffset: 0, problems: [{ rule: 'frontmatter/invalid-yaml', offset: 3, message: `frontmatter in '${named}' is not read: only YAML frontmatter is`, note }] };
  }
  let yamlError: { offset: number; message: string; note?: string } | undefined;
  const lenient: Problem[] = [];
  const parsed = matter(text, {
    engines: {
      yaml: (source: string) => {
        const result = parseYaml(source);
        const at = text.indexOf(source);
        if (result.ok) {
          for (const q of result.quoted) lenient.push(lenientProblem(q, at));
          return (result.value ?? {}) as object;
        }
        yamlError = { offset: at + result.offset, message: result.message };
        if (result.continues) yamlError.note = continuationNote(result.continues, lineOf(text, at) + result.continues.line, lineOf(text, at + result.offset));
        return {};
      },
    },
  });
  const bodyOffset = text.endsWith(parsed.content) ? text.length - parsed.content.length : 0;
  if (yamlError) return { data: {}, bodyOffset, problems: [{ rule: 'frontmatter/invalid-yaml', ...yamlError }] };
  const data: unknown = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const problem: Problem = { rule: 'frontmatter/invalid-yaml', offset: 4, message: 'frontmatter must be a YAML mapping' };
    return { data: {}, bodyOffset, problems: [problem] };
  }
  return { data: data as Frontmatter, bodyOffset, problems: lenient };
}

/** 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The multi-line value written at the margin (`description: … Examples:`, then `<example>`…): what YAML makes of it, and the two ways out. */
function continuationNote(continues: NonNullable<LenientStop['continues']>, keyLine: number, stopLine: number): string {
  return (
    `line ${stopLine} goes on with '${continues.key}' (line ${keyLine}) at the left margin, where YAML reads every line as a new key: ` +
    `indent the value's lines under it (\`${continues.key}: |\`, then each line two spaces in), or move them into the body`
  );
}

/** A line read as if quoted, as the warning that shows the quoting to write. */
function lenientProblem(q: QuotedLine, yamlOffset: number): Problem {
  return {
    rule: 'frontmatter/lenient-yaml',
    severity: 'warning',
    offset: yamlOffset + q.offset,
    message: `'${q.key}' is not valid YAML as written (${q.reason}); read as if quoted, as Claude Code reads it`,
    note: `put the value in quotes: ${q.key}: ${JSON.stringify(q.value)}`,
    brief: true,
  };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
