/**
 * Turns compiled texts into the bundle: content-addressed artifacts, source
 * maps, the manifest and the single-file module. Pure: data in, a map of
 * bundle-relative paths to file contents out — writing is another stage.
 */
import { createRequire } from 'node:module';
import {
  SCHEMA_VERSION,
  type AgentEntry,
  type CacheFactsInfo,
  type ClaudeCodeBundle,
  type ClaudeCodeEntry,
  type TextEntry,
  type Manifest,
  type ProfileEntry,
  type SectionEntry,
  type SkippedAgent,
  type SourceEntry,
  type OutputOptions,
} from '../runtime/manifest.js';
import { bundleModulePieces, createBundleModuleCache, type BundleModuleCache } from './bundle-module.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { cacheWarnings, resolveModels, unknownModelWarnings, type ConfiguredModel } from './cache-warnings.js';
import { CACHE_FACTS_READ, factsOutdatedWarning } from '../cache-facts/facts-age.js';
import type { CompiledText } from '../definitions/compile-text.js';
import type { CompiledAgent, CompiledClaudeFile, CompiledSection } from '../definitions/compiled.js';
import type { ProfileDef } from '../definitions/definitions.js';
import type { LinkedProfile } from '../link/linked-profile.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { sha256 } from '../core/hash.js';
import { addArtifact, sourceMap, strippedComments, sumCounts, textSize } from './artifacts.js';
import { BundleFiles, sameItems } from './pieces.js';
import type { Source } from '../markdown/source.js';
import { createJsonPieceCache, stableJsonPieces, type JsonPieceCache } from './stable-json.js';
import { generatePythonModule, generateThunkModule } from '../template/index.js';
import type { BuildTarget } from '../core/options.js';
import { TOOL_VERSION } from '../core/version.js';
import type { TokenCounting } from '../tokens/token-counters.js';

export interface EmitInput {
  /** Sections no profile names: reported, not emitted. */
  unused: readonly CompiledSection[];
  profiles: readonly LinkedProfile[];
  agents: readonly CompiledAgent[];
  /** Agent files left out, as Claude Code leaves them out, by path; none when absent. */
  skippedAgents?: Readonly<Record<string, SkippedAgent>>;
  /** The files of a Claude Code project's other folders that compiled, in path order, and those Claude Code skips; none when absent. */
  claudeFiles?: readonly CompiledClaudeFile[];
  skippedClaudeFiles?: Readonly<Record<string, SkippedAgent>>;
  sources: Readonly<Record<string, SourceEntry>>;
  models: readonly string[];
  /** The user's cache facts, searched before the built-in ones. */
  cacheFacts?: readonly CacheFact[];
  /** The day the facts' age is judged on (YYYY-MM-DD); default the real date. Not written to the bundle. */
  today?: string;
  options: OutputOptions;
  /** Runtimes the bundle is for; `python` adds each dynamic section's Python module. Default: JavaScript only. */
  targets?: readonly BuildTarget[];
  /** The token counters the configured models use (tokens/token-counters.ts). */
  tokens: TokenCounting;
  /**
   * Assemble the bundle's files (the default). A caller that reads only the manifest and the diagnostics (the
   * language server, `lint`) leaves them out: gathering every profile's files and writing `manifest.json` and
   * `bundle.mjs` in pieces is most of what an edit's rebuild emits. `files` is then empty.
   */
  files?: boolean;
}

export interface EmittedBundle {
  manifest: Manifest;
  /** Bundle-relative POSIX path → content; `manifest.json` and `bundle.mjs` in pieces too. */
  files: BundleFiles;
  diagnostics: Diagnostic[];
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
  readonly profiles: WeakMap<LinkedProfile, EmittedProfile>;
  readonly sections: WeakMap<CompiledText, Emitted<SectionEntry>>;
  readonly agents: WeakMap<CompiledText, Emitted<AgentEntry>>;
  readonly claude: WeakMap<CompiledText, Emitted<ClaudeCodeEntry>>;
  /** Each text's files, made once: as it is compiled (`sectionFiles`, `agentFiles`), or by the emit that needs them first. */
  readonly artifacts: WeakMap<CompiledText, Artifacts<unknown>>;
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
    claude: new WeakMap(),
    artifacts: new WeakMap(),
    sourceEntries: new WeakMap(),
    json: createJsonPieceCache(),
    bundleModule: createBundleModuleCache(),
  };
}

/** Emits a bundle from inputs that passed every check (see `checkProfiles`). */
export function emitBundle(input: EmitInput, cache: EmitCache): EmittedBundle {
  const files = new BundleFiles();
  /** Where the profiles', agents' and Claude Code files' own files are gathered; nowhere when no files are wanted. */
  const into = input.files === false ? null : files;
  const diagnostics: Diagnostic[] = [];
  const profiles: Record<string, ProfileEntry> = {};
  const models = resolveModels(input.models, input.cacheFacts);
  const python = input.targets?.includes('python') ?? false;
  for (const profile of input.profiles) {
    const emitted = emitProfile(profile, cache, python, input.tokens);
    if (into) copyFiles(emitted.files, into);
    diagnostics.push(...cacheWarnings(profile.def, emitted.entry, models, input.tokens));
    profiles[emitted.entry.name] = emitted.entry;
  }
  diagnostics.push(...unknownModelWarnings(models, input.profiles.map((profile) => profile.def)));
  const firstProfile = input.profiles.reduce<string | undefined>((a, p) => (a === undefined || p.def.source < a ? p.def.source : a), undefined);
  if (firstProfile !== undefined) diagnostics.push(...factsOutdatedWarning(input.today, usesBuiltInFacts(models, input.cacheFacts ?? []), firstProfile));
  for (const { def } of input.unused) {
    const at = { line: 1, column: 1 };
    diagnostics.push(diagnostic('section/unused', def.source, at, `section '${def.name}' is in no profile and is not emitted`, { severity: 'warning' }));
  }

  const agents: Record<string, AgentEntry> = {};
  for (const agent of input.agents) agents[agent.def.name] = emitOnce(cache.agents, cache, agent, into, agentArtifacts, input.tokens);

  const manifest: Manifest = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'prompt-build', version: TOOL_VERSION, handlebars: HANDLEBARS_VERSION },
    options: input.options,
    cacheFacts: cacheFactsInfo(input.cacheFacts ?? []),
    profiles,
    agents,
    // Only when there are any: a bundle with none keeps the bytes it had before the field existed.
    ...(input.skippedAgents && Object.keys(input.skippedAgents).length > 0 ? { skippedAgents: { ...input.skippedAgents } } : {}),
    ...claudeCodePart(input, cache, into),
    sources: input.sources,
  };
  if (into) {
    // Depth 2: each profile, agent and source entry is one piece, reused while the entry is.
    const manifestJson = stableJsonPieces(manifest, 2, cache.json);
    into.setPieces('bundle.mjs', bundleModulePieces(manifest, into, manifestJson, cache.bundleModule));
    into.setPieces('manifest.json', manifestJson);
  }
  return { manifest, files, diagnostics };
}

/** Whether any configured model is checked against the built-in table: one with no row of the user's (a known row or none). */
function usesBuiltInFacts(models: readonly ConfiguredModel[], user: readonly CacheFact[]): boolean {
  return models.some(({ resolved }) => !resolved || !user.includes(resolved.fact));
}

/** The dates of the facts this build checked against, for the manifest: the built-in table's, and the user's rows' own. */
function cacheFactsInfo(user: readonly CacheFact[]): CacheFactsInfo {
  if (user.length === 0) return { read: CACHE_FACTS_READ };
  return { read: CACHE_FACTS_READ, user: { rows: user.length, read: [...new Set(user.map((f) => f.read).filter((d) => d !== ''))].sort() } };
}

const HANDLEBARS_VERSION = (createRequire(import.meta.url)('handlebars/package.json') as { version: string }).version;

/** What emitting a profile produced: its manifest entry, and the files of its sections. */
interface EmittedProfile {
  entry: ProfileEntry;
  files: ReadonlyMap<string, string>;
}

/** A profile is emitted once, like a section, without a visit to each of its sections when it is unchanged. */
function emitProfile(profile: LinkedProfile, cache: EmitCache, python: boolean, tokens: TokenCounting): EmittedProfile {
  let emitted = cache.profiles.get(profile);
  if (!emitted) {
    const files = new Map<string, string>();
    const artifacts = (section: CompiledSection) => sectionArtifacts(section, python);
    // Checked before emitting: every name resolves to a section.
    const entries = profile.sections.map((section) => emitOnce(cache.sections, cache, section!, files, artifacts, tokens));
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

/**
 * A text's files, and its manifest entry once its counts are known: the files
 * need no counts, so a build writes them while it is still compiling
 * (`sectionFiles`, `agentFiles`).
 */
interface Artifacts<E> {
  def: object;
  files: ReadonlyMap<string, string>;
  entry(tokens: TokenCounting): E;
}

type Emittable = { def: object; compiled: CompiledText };

function artifactsOnce<D extends Emittable, E>(cache: EmitCache, input: D, make: (input: D) => Artifacts<E>): Artifacts<E> {
  let made = cache.artifacts.get(input.compiled) as Artifacts<E> | undefined;
  if (made?.def !== input.def) {
    made = make(input);
    cache.artifacts.set(input.compiled, made);
  }
  return made;
}

function emitOnce<D extends Emittable, E>(
  entries: WeakMap<CompiledText, Emitted<E>>,
  cache: EmitCache,
  input: D,
  files: Map<string, string> | null,
  make: (input: D) => Artifacts<E>,
  tokens: TokenCounting,
): E {
  let emitted = entries.get(input.compiled);
  if (emitted?.def !== input.def) {
    const artifacts = artifactsOnce(cache, input, make);
    emitted = { def: input.def, entry: artifacts.entry(tokens), files: artifacts.files };
    entries.set(input.compiled, emitted);
  }
  if (files) copyFiles(emitted.files, files);
  return emitted.entry;
}

/**
 * A section's files as soon as it is compiled, made once (emit reuses them):
 * the build hands them to the writer before it links, counts and emits. Those
 * of a section the bundle leaves out in the end (in no profile) the writer
 * removes again.
 */
export function sectionFiles(section: CompiledSection, targets: readonly BuildTarget[] | undefined, cache: EmitCache): ReadonlyMap<string, string> {
  const python = targets?.includes('python') ?? false;
  return artifactsOnce(cache, section, (s: CompiledSection) => sectionArtifacts(s, python)).files;
}

/** An agent's files as soon as it is compiled, as `sectionFiles` (one whose name another agent took is removed again). */
export function agentFiles(agent: CompiledAgent, cache: EmitCache): ReadonlyMap<string, string> {
  return artifactsOnce(cache, agent, agentArtifacts).files;
}

/** `python`: add the section's Python module (one compiler builds for one set of targets, so the emit cache holds either form). */
function sectionArtifacts({ def, compiled }: CompiledSection, python: boolean): Artifacts<SectionEntry> {
  const files = new Map<string, string>();
  const stripped = strippedComments(compiled);
  let fields: Omit<SectionEntry, 'name' | 'source' | 'bytes' | 'tokens' | 'tokenCounts' | 'stripped'>;
  if (def.kind === 'static') {
    const { file, hash } = addArtifact(files, 'static', def.name, '.md', compiled.text);
    fields = { kind: 'static', file, hash, ...sourceMap(files, file, compiled) };
  } else {
    const options = { section: def.name, inputs: def.inputs, optional: def.optional };
    const module = generateThunkModule(compiled.text, options, compiled.template);
    const { file, hash } = addArtifact(files, 'dynamic', def.name, '.js', module);
    const template = file.replace(/\.js$/, '.hbs');
    files.set(template, compiled.text);
    const dynamic = {
      kind: 'dynamic' as const,
      cache: def.cache,
      file,
      hash,
      template,
      // The template is shown by `report` and `diff`: hashed so they can check it before using it.
      templateHash: sha256(compiled.text),
      inputs: def.inputs,
      optional: def.optional,
      ...sourceMap(files, file, compiled),
      ...(def.reason === undefined ? {} : { reason: def.reason }),
    };
    if (python) {
      // Checked before emitting (pythonDiagnostics): every template here has a Python form.
      const py = addArtifact(files, 'dynamic', def.name, '.py', generatePythonModule(compiled.text, options, compiled.template));
      Object.assign(dynamic, { python: py.file, pythonHash: py.hash });
    }
    fields = dynamic;
  }
  return { def, files, entry: (tokens) => ({ name: def.name, source: def.source, ...textSize(compiled.text, tokens), ...stripped, ...fields }) as SectionEntry };
}

/** A Markdown text's artifact, its source and map; its sizes once counted: what the entry of every text that is not a section holds. */
function textArtifacts(files: Map<string, string>, dir: string, name: string, compiled: CompiledText, source: string) {
  const { file, hash } = addArtifact(files, dir, name, '.md', compiled.text);
  const after = { ...strippedComments(compiled), source, ...sourceMap(files, file, compiled) };
  return (tokens: TokenCounting) => ({ file, hash, ...textSize(compiled.text, tokens), ...after });
}

function agentArtifacts({ def, compiled }: CompiledAgent): Artifacts<AgentEntry> {
  const files = new Map<string, string>();
  const text = textArtifacts(files, 'agents', def.name, compiled, def.source);
  const entry = (tokens: TokenCounting): AgentEntry => {
    const entry: AgentEntry = { name: def.name, description: def.description, tools: def.tools, ...text(tokens) };
    if (def.model !== undefined) entry.model = def.model;
    if (def.temperature !== undefined) entry.temperature = def.temperature;
    if (def.maxTokens !== undefined) entry.maxTokens = def.maxTokens;
    if (Object.keys(def.extra).length > 0) entry.extra = def.extra;
    return entry;
  };
  return { def, files, entry };
}

/** The manifest's `claudeCode`, when the project has any such file (docs/claude-code.md): each kind by its key, a skill's reference files under it. */
function claudeCodePart(input: EmitInput, cache: EmitCache, files: BundleFiles | null): { claudeCode?: ClaudeCodeBundle } {
  const skipped = input.skippedClaudeFiles ?? {};
  if ((input.claudeFiles ?? []).length === 0 && Object.keys(skipped).length === 0) return {};
  const part: ClaudeCodeBundle = {};
  const references: CompiledClaudeFile[] = [];
  for (const file of input.claudeFiles ?? []) {
    const { kind, key } = file.def;
    if (kind === 'skill-file') {
      references.push(file);
      continue;
    }
    const entry = emitOnce(cache.claude, cache, file, files, claudeArtifacts, input.tokens);
    const into = kind === 'skill' ? (part.skills ??= {}) : kind === 'command' ? (part.commands ??= {}) : kind === 'output-style' ? (part.outputStyles ??= {}) : (part.rules ??= {});
    into[key] = entry;
  }
  for (const file of references) {
    const skill = part.skills?.[file.def.skill!];
    // A skill whose SKILL.md did not compile has a diagnostic of its own; its files wait for it.
    if (!skill) continue;
    const { fields: _none, ...entry } = emitOnce(cache.claude, cache, file, files, claudeArtifacts, input.tokens);
    // A copy: the cached skill entry is shared with the next build.
    part.skills![file.def.skill!] = { ...skill, files: { ...skill.files, [file.def.key]: entry as TextEntry } };
  }
  if (Object.keys(skipped).length > 0) part.skipped = { ...skipped };
  return { claudeCode: part };
}

/** `claude/<folder as in the source>/<path without .md>.<hash8>.md`: a command's `:` never reaches a file name. */
function claudeArtifacts({ def, compiled }: CompiledClaudeFile): Artifacts<ClaudeCodeEntry> {
  const folder = { skill: 'skills', 'skill-file': 'skills', command: 'commands', 'output-style': 'output-styles', rule: 'rules' }[def.kind];
  const inFolder = def.kind === 'skill' ? `${def.key}/SKILL` : def.kind === 'skill-file' ? `${def.skill!}/${def.key.replace(/\.md$/, '')}` : def.kind === 'command' ? def.key.replaceAll(':', '/') : def.key;
  const files = new Map<string, string>();
  const text = textArtifacts(files, `claude/${folder}`, inFolder, compiled, def.source);
  return { def, files, entry: (tokens) => ({ name: def.key, ...text(tokens), fields: def.fields }) };
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

/** A source's manifest entry, the same object from build to build while its bytes and direct includes are (see `EmitCache`). */
export function sourceEntry(source: Source, includes: readonly string[], cache: EmitCache): SourceEntry {
  const known = cache.sourceEntries.get(source);
  if (known && sameItems(known.includes, includes)) return known;
  const entry = { hash: source.hash, includes: [...includes] };
  cache.sourceEntries.set(source, entry);
  return entry;
}
