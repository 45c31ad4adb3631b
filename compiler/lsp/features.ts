/**
 * What the server answers about a place in a prompt file, as plain data in
 * the protocol's shapes: pure functions of the document, the last manifest
 * and the project's options, so each is tested without a connection.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { prefixEconomics } from '../cache-facts/cache-economics.js';
import type { BuildOptions } from '../core/options.js';
import type { Diagnostic as BuildDiagnostic } from '../diagnostics/diagnostics.js';
import type { Manifest, ProfileEntry, SectionEntry } from '../runtime/manifest.js';
import { staticCountFor } from '../tokens/counter-names.js';
import { inFrontmatter, mustacheAt, offsetOf, positionOf, type PromptDocument } from './document.js';
import { AGENT_FIELDS, claudeFields, PROFILE_FIELDS, SECTION_FIELDS, type FieldDoc } from './frontmatter-docs.js';
import { quickFixFor } from './quick-fixes.js';

export interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
export interface Location {
  uri: string;
  range: Range;
}

/** The protocol's symbol kinds this outline uses: the frontmatter an Object, a heading a String. */
type SymbolKind = 19 | 15;

const FILE_START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export const uriOf = (file: string): string => pathToFileURL(file).href;

function rangeOf(text: string, start: number, end: number): Range {
  return { start: positionOf(text, start), end: positionOf(text, end) };
}

/** A build diagnostic in the protocol's shape: at its line and column, to the end of the word there; the note as related information. */
/** `lines`: the file's text split once per file, not once per diagnostic. */
export function toProtocolDiagnostic(d: BuildDiagnostic, file: string, lines: readonly string[] | null) {
  const start = { line: d.line - 1, character: d.column - 1 };
  const lineText = lines?.[d.line - 1] ?? '';
  const word = /^\S*/.exec(lineText.slice(d.column - 1))![0];
  const end = { line: start.line, character: start.character + Math.max(word.length, 1) };
  const severity: 1 | 2 | 3 = d.severity === 'error' ? 1 : d.severity === 'warning' ? 2 : 3;
  return {
    range: { start, end },
    severity,
    code: d.rule,
    source: 'prompt-build',
    message: d.message,
    ...(d.note ? { relatedInformation: [{ location: { uri: uriOf(file), range: { start, end } }, message: d.note }] } : {}),
    // The fix travels with the diagnostic: the editor sends it back when it asks for code actions.
    ...(lines === null ? {} : withFix(quickFixFor(d, lines))),
  };
}

function withFix(fix: ReturnType<typeof quickFixFor>): { data?: { fix: NonNullable<typeof fix> } } {
  return fix ? { data: { fix } } : {};
}

/** Where the thing at `offset` is defined: an include's file, a listed section's file, a constant in the config. */
export function definitionAt(
  doc: PromptDocument,
  offset: number,
  sectionFile: (name: string) => string | undefined,
  constantAt: (name: string) => Location | null,
): Location | null {
  const constant = /^const\.([\w-]+)/.exec(mustacheAt(doc.text, offset) ?? '');
  if (constant) return constantAt(constant[1]!);
  const include = doc.includes.find((i) => offset >= i.start && offset <= i.end);
  if (include) return include.target.ok ? { uri: uriOf(include.target.file), range: FILE_START } : null;
  const item = doc.sectionItems.find((i) => offset >= i.start && offset <= i.end);
  if (item) {
    const file = sectionFile(item.name);
    return file === undefined ? null : { uri: uriOf(file), range: FILE_START };
  }
  return null;
}

/**
 * Every text and profile that reaches `rel`: the files whose includes lead to it (at each directive that does), and
 * the profiles listing a section that does, by the last build's manifest. `docOf` reads a file as the editor has it.
 */
export function referencesTo(rel: string, manifest: Manifest | null, root: string, docOf: (file: string) => PromptDocument | null): Location[] {
  if (!manifest) return [];
  const includers = new Map<string, string[]>();
  for (const [from, entry] of Object.entries(manifest.sources)) for (const to of entry.includes) includers.set(to, [...(includers.get(to) ?? []), from]);
  const reaching = new Set<string>([rel]);
  for (const file of reaching) for (const from of includers.get(file) ?? []) reaching.add(from);
  const locations: Location[] = [];
  for (const from of [...reaching].filter((f) => f !== rel).sort()) {
    const doc = docOf(path.join(root, from));
    const at = doc?.includes.filter((i) => i.target.ok && reaching.has(path.relative(root, i.target.file).split(path.sep).join('/'))) ?? [];
    if (at.length === 0) locations.push({ uri: uriOf(path.join(root, from)), range: FILE_START });
    for (const i of at) locations.push({ uri: uriOf(path.join(root, from)), range: rangeOf(doc!.text, i.start, i.end) });
  }
  for (const profile of Object.values(manifest.profiles).sort((a, b) => (a.source < b.source ? -1 : 1))) {
    const listed = profile.sections.filter((s) => reaching.has(s.source));
    if (listed.length === 0) continue;
    const doc = docOf(path.join(root, profile.source));
    const items = doc?.sectionItems.filter((i) => listed.some((s) => s.name === i.name)) ?? [];
    if (items.length === 0) locations.push({ uri: uriOf(path.join(root, profile.source)), range: FILE_START });
    for (const i of items) locations.push({ uri: uriOf(path.join(root, profile.source)), range: rangeOf(doc!.text, i.start, i.end) });
  }
  return locations;
}

/** What a hover over `offset` shows, as Markdown. */
export function hoverAt(doc: PromptDocument, offset: number, manifest: Manifest | null, options: BuildOptions, sizeOf: (file: string) => number | null): string | null {
  const include = doc.includes.find((i) => offset >= i.start && offset <= i.end);
  if (include) {
    // What a file wrote goes into code spans: the hover is Markdown, and a crafted path must not become a link.
    if (!include.target.ok) return `${code(`@${include.written}`)}: ${code(include.target.message)}`;
    const bytes = sizeOf(include.target.file);
    const rel = path.relative(options.root, include.target.file).split(path.sep).join('/');
    return `${code(`@${include.written}`)} → ${code(rel)}${bytes === null ? '' : ` · ${bytes.toLocaleString('en')} bytes`}`;
  }
  const expression = mustacheAt(doc.text, offset);
  if (expression !== null && doc.role === 'section') return inputHover(doc, expression);
  if (doc.role === 'section') return sectionHover(doc, manifest, options);
  return null;
}

function inputHover(doc: PromptDocument, expression: string): string | null {
  const name = /^[A-Za-z_$][\w$]*/.exec(expression)?.[0];
  if (!name || name === 'const') return null;
  const inputs = stringList(doc.parsed.data.inputs);
  const optional = stringList(doc.parsed.data.optional);
  if (optional.includes(name)) return `\`${name}\`: an optional input of this section (\`optional:\`)`;
  if (inputs.includes(name)) return `\`${name}\`: an input of this section (\`inputs:\`)`;
  return null;
}

/** A section: its kind, its tokens per model, and each profile listing it, with whether it is in that profile's cached prefix. */
function sectionHover(doc: PromptDocument, manifest: Manifest | null, options: BuildOptions): string | null {
  if (!manifest) return null;
  const listing = Object.values(manifest.profiles).flatMap((p) => {
    const i = p.sections.findIndex((s) => s.source === doc.rel);
    return i < 0 ? [] : [{ profile: p, section: p.sections[i]!, inPrefix: i < p.boundaryIndex }];
  });
  if (listing.length === 0) return `No profile lists this section: it is not in the bundle.`;
  const section = listing[0]!.section;
  const lines = [`**${markdownText(section.name)}** · ${section.kind}${section.kind === 'dynamic' ? ` (${section.cache})` : ''}`, '', tokensLine(section, options.models)];
  const prefix = listing.filter((l) => l.inPrefix).map((l) => code(l.profile.name));
  const tail = listing.filter((l) => !l.inPrefix).map((l) => code(l.profile.name));
  if (prefix.length > 0) lines.push('', `Editing this changes the cached prefix of ${prefix.join(', ')}.`);
  if (tail.length > 0) lines.push('', `After the boundary in ${tail.join(', ')}: edits there leave the cached prefix alone.`);
  return lines.join('\n');
}

function tokensLine(section: SectionEntry, models: readonly string[]): string {
  const counts = Object.entries(section.tokenCounts ?? {}).map(([counter, c]) => `${counter} ${c.method === 'exact' ? '' : '≈'}${c.tokens.toLocaleString('en')}`);
  return counts.length > 0 ? `Tokens: ${counts.join(' · ')}` : `Tokens ≈${section.tokens.toLocaleString('en')} (${models.map(code).join(', ')})`;
}

/** Code lenses on a profile file: the static prefix against each configured model's minimum. */
export function profileLenses(doc: PromptDocument, manifest: Manifest | null, options: BuildOptions): Array<{ range: Range; title: string }> {
  if (doc.role !== 'profile' || !manifest) return [];
  const profile = Object.values(manifest.profiles).find((p) => p.source === doc.rel);
  if (!profile) return [];
  const top = rangeOf(doc.text, 0, 0);
  const lenses = options.models.map((model) => ({ range: top, title: prefixTitle(profile, model, options) }));
  const items = new Map(doc.sectionItems.map((item) => [item.name, item]));
  profile.sections.forEach((section, i) => {
    const item = items.get(section.name);
    if (!item) return;
    const where = i < profile.boundaryIndex ? 'static prefix' : 'after the boundary';
    const line = offsetOf(doc.text, positionOf(doc.text, item.start).line + 1, 1);
    lenses.push({ range: rangeOf(doc.text, line, line), title: `≈${section.tokens.toLocaleString('en')} tokens · ${where}` });
  });
  return lenses;
}

function prefixTitle(profile: ProfileEntry, model: string, options: BuildOptions): string {
  const e = prefixEconomics(model, staticCountFor(profile, model), options.cacheFacts);
  const tokens = `static prefix ≈${e.staticTokens.toLocaleString('en')} tokens`;
  if (e.verdict === null) return `${tokens} — ${model}: no cache facts`;
  const minimum = e.minimumTokens!.toLocaleString('en');
  if (e.verdict === 'cached') return `${tokens} — ${model}: cached (minimum ${minimum})`;
  if (e.verdict === 'not-cached') return `${tokens} — below ${model}'s ${minimum}: not cached`;
  return `${tokens} — near ${model}'s ${minimum}: may not be cached`;
}

export interface Completion {
  label: string;
  detail?: string;
  documentation?: string;
}

/** What may be typed at `offset`: section names in a profile's list, paths after `@`, inputs in `{{`, frontmatter keys. */
export function completionsAt(doc: PromptDocument, offset: number, sectionNames: readonly string[], filesNear: (dir: string) => string[]): Completion[] {
  const lineStart = doc.text.lastIndexOf('\n', offset - 1) + 1;
  const before = doc.text.slice(lineStart, offset);
  if (inFrontmatter(doc, offset)) {
    if (doc.role === 'profile' && inSectionsList(doc.text, lineStart)) return sectionNames.map((label) => ({ label, detail: 'section' }));
    if (/^\s*[\w-]*$/.test(before)) return fieldsFor(doc).map((f) => ({ label: f.name, detail: f.values ?? '', documentation: f.doc }));
    return [];
  }
  const at = /(?:^|\s)@((?:\.{1,2}\/|[\w-]+\/)*[\w.-]*)$/.exec(before);
  if (at) {
    const written = at[1]!;
    const dir = path.posix.dirname(written.endsWith('/') ? `${written}x` : written);
    return filesNear(dir).map((label) => ({ label: dir === '.' && !written.startsWith('./') ? label : `${dir}/${label}`, detail: 'include' }));
  }
  if (doc.role === 'section' && /\{\{[#^/]?\s*[\w.]*$/.test(before)) {
    return [...stringList(doc.parsed.data.inputs), ...stringList(doc.parsed.data.optional)].map((label) => ({ label, detail: 'input' }));
  }
  return [];
}

function fieldsFor(doc: PromptDocument): readonly FieldDoc[] {
  if (doc.claudeKind) return claudeFields(doc.claudeKind);
  return doc.role === 'agent' ? AGENT_FIELDS : doc.role === 'profile' ? PROFILE_FIELDS : doc.role === 'section' ? SECTION_FIELDS : [];
}

/** Whether the line starting at `lineStart` is an item of a `sections:` block list (or the key's own line). */
function inSectionsList(text: string, lineStart: number): boolean {
  const lines = text.slice(0, lineStart).split('\n').reverse();
  const current = text.slice(lineStart, text.indexOf('\n', lineStart) >>> 0);
  if (/^sections\s*:/.test(current)) return true;
  if (!/^\s*-/.test(current) && current.trim() !== '') return false;
  for (const line of lines) {
    if (/^sections\s*:/.test(line)) return true;
    if (!/^\s*-/.test(line) && line.trim() !== '') return false;
  }
  return false;
}

/** Each include, as a link to its file. */
export function documentLinks(doc: PromptDocument): Array<{ range: Range; target: string }> {
  return doc.includes.flatMap((i) => (i.target.ok ? [{ range: rangeOf(doc.text, i.start, i.end), target: uriOf(i.target.file) }] : []));
}

/** The outline: the frontmatter, then the body's ATX headings. */
export function documentSymbols(doc: PromptDocument): Array<{ name: string; kind: SymbolKind; range: Range; selectionRange: Range }> {
  const symbols: Array<{ name: string; kind: SymbolKind; range: Range; selectionRange: Range }> = [];
  if (doc.parsed.bodyOffset > 0) {
    const range = rangeOf(doc.text, 0, doc.parsed.bodyOffset);
    symbols.push({ name: 'frontmatter', kind: 19 /* Object */, range, selectionRange: range });
  }
  let inFence = false;
  for (const m of doc.text.slice(doc.parsed.bodyOffset).matchAll(/^.*$/gm)) {
    if (/^\s{0,3}(```|~~~)/.test(m[0])) inFence = !inFence;
    const heading = inFence ? null : /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(m[0]);
    if (!heading) continue;
    const start = doc.parsed.bodyOffset + m.index!;
    const range = rangeOf(doc.text, start, start + m[0].length);
    symbols.push({ name: heading[2]!, kind: 15 /* String */, range, selectionRange: range });
  }
  return symbols;
}

/** `value` as a Markdown code span, its fence longer than any run of backticks in it, line ends as spaces. */
function code(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** `value` as Markdown text: every punctuation mark Markdown acts on escaped, so a name shows as written. */
function markdownText(value: string): string {
  return value.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&');
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
