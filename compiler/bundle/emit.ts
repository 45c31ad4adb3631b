/**
 * Turns compiled texts into the bundle: content-addressed artifacts, source
 * maps, the manifest and the single-file module. Pure: data in, a map of
 * bundle-relative paths to file contents out — writing is another stage.
 */
import { createRequire } from 'node:module';
import {
  SCHEMA_VERSION,
  type AgentEntry,
  type Manifest,
  type ProfileEntry,
  type SectionEntry,
  type SourceEntry,
  type OutputOptions,
  type SourceMap,
  type TokenCount,
} from '../runtime/manifest.js';
import { bundleModulePieces, createBundleModuleCache, type BundleModuleCache } from './bundle-module.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { cacheWarnings, resolveModels, unknownModelWarnings } from '../cache-facts/cache-warnings.js';
import type { CompiledText } from '../definitions/compile-text.js';
import type { AgentDef, ProfileDef, SectionDef } from '../definitions/definitions.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { itemPosition } from '../definitions/frontmatter-fields.js';
import { nearestNames } from '../diagnostics/did-you-mean.js';
import { sha256, shortHash, stableStringify } from './hash.js';
import { BundleFiles, sameItems } from '../incremental/pieces.js';
import type { Source } from '../markdown/source.js';
import { createJsonPieceCache, stableJsonPieces, type JsonPieceCache } from '../incremental/stable-json.js';
import { generatePythonModule, generateThunkModule } from '../template/index.js';
import type { BuildTarget } from '../build/config.js';
import { TOOL_VERSION } from '../build/version.js';
import type { TokenCounting } from '../tokens/token-counters.js';

export interface CompiledSection {
  def: SectionDef;
  compiled: CompiledText;
}
export interface CompiledAgent {
  def: AgentDef;
  compiled: CompiledText;
}
export interface ProfileInput {
  def: ProfileDef;
  source: Source;
  /**
   * What each name of `def.sections` resolves to: its section; null when only
   * files that failed to compile claim the name (reported where they are
   * written); undefined when nothing does. Never changed: a profile whose
   * sections change is a new object, so what is derived from it is kept with it.
   */
  sections: ReadonlyArray<CompiledSection | null | undefined>;
}

export interface EmitInput {
  /** Sections no profile names: reported, not emitted. */
  unused: readonly CompiledSection[];
  profiles: readonly ProfileInput[];
  agents: readonly CompiledAgent[];
  sources: Readonly<Record<string, SourceEntry>>;
  models: readonly string[];
  /** The user's cache facts, searched before the built-in ones. */
  cacheFacts?: readonly CacheFact[];
  options: OutputOptions;
  /** Runtimes the bundle is for; `python` adds each dynamic section's Python module. Default: JavaScript only. */
  targets?: readonly BuildTarget[];
  /** The token counters the configured models use (tokens/token-counters.ts). */
  tokens: TokenCounting;
}

export interface Bundle {
  manifest: Manifest;
  /** Bundle-relative POSIX path → content; `manifest.json` and `bundle.mjs` in pieces too. */
  files: BundleFiles;
  diagnostics: Diagnostic[];
}

/**
 * Profile errors: unknown sections, sections listed twice, static after
 * dynamic. `knownNames`: every section name there is, asked for only by the
 * note on an unknown one.
 */
export function checkProfiles(profiles: readonly ProfileInput[], knownNames: () => readonly string[], cache: EmitCache): Diagnostic[] {
  return profiles.flatMap((profile) => checkProfileOnce(profile, knownNames, cache));
}

/**
 * What emitting keeps from one build to the next, by the identity of its
 * inputs: owned by one compiler and passed in, so two compilers in one
 * process share nothing. Emission is a pure function of a definition and
 * its compiled text, and the compiler replaces a `CompiledText` when
 * anything it depends on changes, never mutating it. So in watch mode an
 * output that did not change is emitted once, not on every rebuild: code
 * generation, hashing and source maps are paid only for what a change reached.
 */
export interface EmitCache {
  /** A rebuild reuses what an unchanged profile emitted, entry object included (so its manifest text is reused too). */
  readonly profiles: WeakMap<ProfileInput, EmittedProfile>;
  readonly sections: WeakMap<CompiledText, Emitted<SectionEntry>>;
  readonly agents: WeakMap<CompiledText, Emitted<AgentEntry>>;
  /** A profile's errors follow from the profile alone — unless it names an unknown section, whose note lists every known name. */
  readonly checkedProfiles: WeakMap<ProfileInput, Diagnostic[]>;
  /** A source's manifest entry, the same object while its bytes and direct includes are, so that its manifest text is reused. */
  readonly sourceEntries: WeakMap<Source, SourceEntry>;
  readonly json: JsonPieceCache;
  readonly bundleModule: BundleModuleCache;
}

export function createEmitCache(): EmitCache {
  return {
    profiles: new WeakMap(),
    sections: new WeakMap(),
    agents: new WeakMap(),
    checkedProfiles: new WeakMap(),
    sourceEntries: new WeakMap(),
    json: createJsonPieceCache(),
    bundleModule: createBundleModuleCache(),
  };
}

/** Emits a bundle from inputs that passed every check (see `checkProfiles`). */
export function emitBundle(input: EmitInput, cache: EmitCache): Bundle {
  const files = new BundleFiles();
  const diagnostics: Diagnostic[] = [];
  const profiles: Record<string, ProfileEntry> = {};
  const models = resolveModels(input.models, input.cacheFacts);
  const python = input.targets?.includes('python') ?? false;
  for (const profile of input.profiles) {
    const emitted = emitProfile(profile, cache, python, input.tokens);
    copyFiles(emitted.files, files);
    diagnostics.push(...cacheWarnings(profile.def, emitted.entry, models, input.tokens));
    profiles[emitted.entry.name] = emitted.entry;
  }
  diagnostics.push(...unknownModelWarnings(models, input.profiles.map((profile) => profile.def)));
  for (const { def } of input.unused) {
    const at = { line: 1, column: 1 };
    diagnostics.push(diagnostic('section/unused', def.source, at, `section '${def.name}' is in no profile and is not emitted`, { severity: 'warning' }));
  }

  const agents: Record<string, AgentEntry> = {};
  for (const agent of input.agents) agents[agent.def.name] = emitOnce(cache.agents, agent, files, (a, own) => emitAgent(a, own, input.tokens));

  const manifest: Manifest = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'prompt-build', version: TOOL_VERSION, handlebars: HANDLEBARS_VERSION },
    options: input.options,
    profiles,
    agents,
    sources: input.sources,
  };
  // Depth 2: each profile, agent and source entry is one piece, reused while the entry is.
  const manifestJson = stableJsonPieces(manifest, 2, cache.json);
  files.setPieces('bundle.mjs', bundleModulePieces(manifest, files, manifestJson, cache.bundleModule));
  files.setPieces('manifest.json', manifestJson);
  return { manifest, files, diagnostics };
}

const HANDLEBARS_VERSION = (createRequire(import.meta.url)('handlebars/package.json') as { version: string }).version;

/** What emitting a profile produced: its manifest entry, and the files of its sections. */
interface EmittedProfile {
  entry: ProfileEntry;
  files: ReadonlyMap<string, string>;
}

/** A profile is emitted once, like a section, without a visit to each of its sections when it is unchanged. */
function emitProfile(profile: ProfileInput, cache: EmitCache, python: boolean, tokens: TokenCounting): EmittedProfile {
  let emitted = cache.profiles.get(profile);
  if (!emitted) {
    const files = new Map<string, string>();
    const emit = (section: CompiledSection, into: Map<string, string>) => emitSection(section, into, python, tokens);
    // Checked before emitting: every name resolves to a section.
    const entries = profile.sections.map((section) => emitOnce(cache.sections, section!, files, emit));
    emitted = { entry: profileEntry(profile.def, entries), files };
    cache.profiles.set(profile, emitted);
  }
  return emitted;
}

/** `forEach`, not `for…of`: no entry array per file, on every rebuild of a large bundle. */
function copyFiles(from: ReadonlyMap<string, string>, to: Map<string, string>): void {
  from.forEach((content, file) => to.set(file, content));
}

/** What emitting one section or agent produced: its manifest entry and its files. */
interface Emitted<E> {
  def: object;
  entry: E;
  files: ReadonlyMap<string, string>;
}

function emitOnce<D extends { def: object; compiled: CompiledText }, E>(
  cache: WeakMap<CompiledText, Emitted<E>>,
  input: D,
  files: Map<string, string>,
  emit: (input: D, files: Map<string, string>) => E,
): E {
  let emitted = cache.get(input.compiled);
  if (emitted?.def !== input.def) {
    const own = new Map<string, string>();
    emitted = { def: input.def, entry: emit(input, own), files: own };
    cache.set(input.compiled, emitted);
  }
  copyFiles(emitted.files, files);
  return emitted.entry;
}

/** `python`: add the section's Python module (one compiler builds for one set of targets, so the emit cache holds either form). */
function emitSection({ def, compiled }: CompiledSection, files: Map<string, string>, python: boolean, tokens: TokenCounting): SectionEntry {
  const base = { name: def.name, source: def.source, ...textSize(compiled.text, tokens), ...strippedComments(compiled) };
  if (def.kind === 'static') {
    const { file, hash } = addArtifact(files, 'static', def.name, '.md', compiled.text);
    return { ...base, kind: 'static', file, hash, ...sourceMap(files, file, compiled) };
  }
  const options = { section: def.name, inputs: def.inputs, optional: def.optional };
  const module = generateThunkModule(compiled.text, options, compiled.template);
  const { file, hash } = addArtifact(files, 'dynamic', def.name, '.js', module);
  const template = file.replace(/\.js$/, '.hbs');
  files.set(template, compiled.text);
  const entry: SectionEntry = {
    ...base,
    kind: 'dynamic',
    cache: def.cache,
    file,
    hash,
    template,
    inputs: def.inputs,
    optional: def.optional,
    ...sourceMap(files, file, compiled),
  };
  if (def.reason !== undefined) entry.reason = def.reason;
  if (python) {
    // Checked before emitting (pythonDiagnostics): every template here has a Python form.
    const py = addArtifact(files, 'dynamic', def.name, '.py', generatePythonModule(compiled.text, options, compiled.template));
    Object.assign(entry, { python: py.file, pythonHash: py.hash });
  }
  return entry;
}

function emitAgent({ def, compiled }: CompiledAgent, files: Map<string, string>, tokens: TokenCounting): AgentEntry {
  const { file, hash } = addArtifact(files, 'agents', def.name, '.md', compiled.text);
  const entry: AgentEntry = {
    name: def.name,
    description: def.description,
    tools: def.tools,
    file,
    hash,
    ...textSize(compiled.text, tokens),
    ...strippedComments(compiled),
    source: def.source,
    ...sourceMap(files, file, compiled),
  };
  if (def.model !== undefined) entry.model = def.model;
  if (def.temperature !== undefined) entry.temperature = def.temperature;
  if (def.maxTokens !== undefined) entry.maxTokens = def.maxTokens;
  if (Object.keys(def.extra).length > 0) entry.extra = def.extra;
  return entry;
}

/** What the comment policy removed, when it removed anything: shown by `inspect`. */
function strippedComments({ stripped }: CompiledText): { stripped?: { comments: number; bytes: number } } {
  return stripped.comments === 0 ? {} : { stripped: { ...stripped } };
}

/** `<dir>/<name>.<hash8><ext>`: unchanged content never changes a file name. */
function addArtifact(files: Map<string, string>, dir: string, name: string, ext: string, content: string) {
  const hash = sha256(content);
  const file = `${dir}/${name}.${shortHash(hash)}${ext}`;
  files.set(file, content);
  return { file, hash };
}

/**
 * Where the text starts in its source, and a source map when it is more than
 * one piece of it (includes, removed comments). Most texts are one piece: no
 * map file for those, which halves the files of a large bundle. Maps name
 * themselves by their own content, like every other artifact.
 */
function sourceMap(files: Map<string, string>, output: string, compiled: CompiledText): { line: number; map?: string } {
  const [first] = compiled.segments;
  const line = first?.line ?? 1;
  if (!first || (compiled.segments.length === 1 && first.chain.length === 0)) return { line };
  const map: SourceMap = { output, segments: byteSegments(compiled) };
  const name = output.replace(/^[a-z]+\//, '').replace(/\.[^.]+\.[a-z]+$/, '');
  const kind = output.slice(0, output.indexOf('/'));
  return { line, map: addArtifact(files, `maps/${kind}`, name, '.json', stableStringify(map)).file };
}

/** The compiler works in UTF-16 offsets; the map promises UTF-8 byte offsets. */
function byteSegments(compiled: CompiledText): SourceMap['segments'] {
  let bytes = 0;
  let chars = 0;
  return compiled.segments.map(({ start, end, file, line, chain }) => {
    bytes += Buffer.byteLength(compiled.text.slice(chars, start));
    const byteStart = bytes;
    bytes += Buffer.byteLength(compiled.text.slice(start, end));
    chars = end;
    return { start: byteStart, end: bytes, file, line, chain };
  });
}

function textSize(text: string, tokens: TokenCounting): { bytes: number; tokens: number; tokenCounts: Record<string, TokenCount> } {
  return { bytes: Buffer.byteLength(text), ...tokens.countAll(text) };
}

/** Per counter, the sum of the parts' counts: exact only when every part was counted exactly. */
function sumCounts(sections: readonly SectionEntry[]): Record<string, TokenCount> {
  const sums: Record<string, TokenCount> = {};
  for (const section of sections) {
    for (const [name, { tokens, method }] of Object.entries(section.tokenCounts ?? {})) {
      const sum = (sums[name] ??= { tokens: 0, method: 'exact' });
      sum.tokens += tokens;
      if (method === 'estimate') sum.method = 'estimate';
    }
  }
  return sums;
}

function profileEntry(def: ProfileDef, sections: SectionEntry[]): ProfileEntry {
  const statics = sections.filter((s) => s.kind === 'static');
  return {
    name: def.name,
    description: def.description,
    source: def.source,
    sections,
    boundaryIndex: statics.length,
    staticPrefixHash: sha256(statics.map((s) => s.hash).join('\n')),
    staticTokens: statics.reduce((n, s) => n + s.tokens, 0),
    staticTokenCounts: sumCounts(statics),
  };
}

function checkProfileOnce(profile: ProfileInput, knownNames: () => readonly string[], cache: EmitCache): Diagnostic[] {
  let diagnostics = cache.checkedProfiles.get(profile);
  if (!diagnostics) {
    diagnostics = checkProfile(profile, knownNames);
    if (!profile.sections.includes(undefined)) cache.checkedProfiles.set(profile, diagnostics);
  }
  return diagnostics;
}

function checkProfile({ def, source, sections }: ProfileInput, knownNames: () => readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (item: string) => itemPosition(source, 'sections', item);
  const seen = new Set<string>();
  let firstDynamic: string | undefined;
  for (const [i, name] of def.sections.entries()) {
    const section = sections[i];
    if (section === undefined) {
      // The three nearest names and a count: a project may know hundreds of sections.
      const note = nearestNames(name, [...knownNames()].sort(), 'section');
      out.push(diagnostic('profile/unknown-section', def.source, at(name), `profile '${def.name}' lists unknown section '${name}'`, { note }));
      continue;
    }
    if (seen.has(name)) {
      out.push(diagnostic('profile/unknown-section', def.source, at(name), `profile '${def.name}' lists section '${name}' twice`));
    }
    seen.add(name);
    if (section === null) continue;
    if (section.def.kind === 'dynamic') firstDynamic ??= name;
    else if (firstDynamic !== undefined) {
      out.push(
        diagnostic(
          'profile/static-after-dynamic',
          def.source,
          at(name),
          `static section '${name}' comes after dynamic section '${firstDynamic}' in profile '${def.name}'`,
          { note: 'static sections form the cacheable prefix and must all come before the boundary' },
        ),
      );
    }
  }
  return out;
}

/** A source's manifest entry, the same object from build to build while its bytes and direct includes are (see `EmitCache`). */
export function sourceEntry(source: Source, includes: readonly string[], cache: EmitCache): SourceEntry {
  const known = cache.sourceEntries.get(source);
  if (known && sameItems(known.includes, includes)) return known;
  const entry = { hash: source.hash, includes: [...includes] };
  cache.sourceEntries.set(source, entry);
  return entry;
}
