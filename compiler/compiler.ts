/**
 * The build, stage by stage:
 *
 *   discover → load (cache, parse on all cores) → read definitions →
 *   compile texts (includes, template checks) → check names → emit → (write)
 *
 * A `Compiler` keeps what it loaded and compiled, so watch mode can rebuild
 * only the outputs a change can affect. Compiled results are never mutated,
 * only replaced, which is what makes reusing them safe.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveBuildOptions, type BuildOptions } from './config.js';
import { compileAgent, compileSection, type CompiledText } from './compile-text.js';
import { readAgent, readProfile, readSection, roleOf, type AgentDef, type ProfileDef, type SectionDef } from './definitions.js';
import { discoverSources } from './discover.js';
import { diagnostic, hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import { checkProfiles, emitBundle, type Bundle, type CompiledAgent, type CompiledSection, type ProfileInput } from './emit.js';
import { isInside, type IncludeHost } from './include.js';
import { openParseCache } from './parse-cache.js';
import type { SourceEntry } from './runtime/manifest.js';
import { problemToDiagnostic, type ReadFailure, type Source } from './source.js';
import { isSource, SourceStore, type Loaded } from './source-store.js';
import { TOOL_FINGERPRINT } from './version.js';
import { fieldPosition } from './frontmatter-fields.js';

export interface FileChange {
  /** Absolute path. */
  path: string;
  kind: 'add' | 'change' | 'unlink';
}

export interface BuildResult {
  ok: boolean;
  /** Sorted, duplicates removed. */
  diagnostics: Diagnostic[];
  /** The bundle, or null when there were errors. */
  bundle: Bundle | null;
  /** Outputs compiled in this run (root-relative source paths), for watch-mode reports. */
  recompiled: string[];
  stats: { sources: number; cacheHits: number; cacheMisses: number; cacheDiscarded: string | null };
}

/** One discovered file and what it yields. Replaced, never mutated. */
interface Entry {
  rel: string;
  loaded: Loaded;
  result: SectionResult | AgentResult | ProfileResult | FragmentResult;
}
type SectionResult = { role: 'section'; def: SectionDef | null; compiled: CompiledText | null; diagnostics: Diagnostic[] };
type AgentResult = { role: 'agent'; def: AgentDef | null; compiled: CompiledText | null; diagnostics: Diagnostic[] };
type ProfileResult = { role: 'profile'; def: ProfileDef | null; diagnostics: Diagnostic[] };
type FragmentResult = { role: 'fragment'; diagnostics: Diagnostic[] };

export async function createCompiler(partial: Partial<BuildOptions> & { root: string }): Promise<Compiler> {
  const options = resolveBuildOptions(partial);
  const root = await fs.realpath(options.root).catch(() => options.root);
  const cache = await openParseCache(options.cacheDir, TOOL_FINGERPRINT);
  return new Compiler({ ...options, root }, new SourceStore(root, options, cache, options.parallelThreshold), cache.stats);
}

export class Compiler {
  private entries = new Map<string, Entry>();
  private discovered: string[] | null = null;
  private readonly host: IncludeHost;

  constructor(
    readonly options: BuildOptions,
    private readonly store: SourceStore,
    private readonly cacheStats: { hits: number; misses: number; discarded: string | null },
  ) {
    this.host = { root: options.root, homeDir: options.homeDir, limits: options, load: (f) => store.load(f) };
  }

  /**
   * Compiles the project. With `changes`, only the outputs that depend on a
   * changed path are compiled again; the result equals a clean build.
   */
  async build(changes?: readonly FileChange[]): Promise<BuildResult> {
    const stale = await this.applyChanges(changes);
    const rels = this.discovered!;
    const files = rels.map((rel) => path.join(this.options.root, rel));
    const loaded = await this.store.loadMany(files);
    const recompiled: string[] = [];
    const next = new Map<string, Entry>();
    await Promise.all(
      rels.map(async (rel, i) => {
        const previous = this.entries.get(rel);
        if (previous && previous.loaded === loaded[i] && !stale(previous)) {
          next.set(rel, previous);
          return;
        }
        next.set(rel, { rel, loaded: loaded[i]!, result: await this.compileEntry(rel, loaded[i]!) });
        recompiled.push(rel);
      }),
    );
    this.entries = next;
    await this.store.saveCache();
    return this.finish(recompiled.sort());
  }

  /** Forgets changed files; returns which kept entries must be compiled again. */
  private async applyChanges(changes: readonly FileChange[] | undefined): Promise<(entry: Entry) => boolean> {
    if (!changes || this.discovered === null) {
      this.discovered = await discoverSources(this.options.root);
      return () => false;
    }
    const changed = new Set(changes.map((c) => path.resolve(c.path)));
    for (const file of changed) this.store.forget(file);
    const discovered = new Set(this.discovered);
    for (const change of changes) {
      const rel = path.relative(this.options.root, change.path).split(path.sep).join('/');
      if (!isInside(this.options.root, change.path) || !isSourcePath(rel)) continue;
      if (change.kind === 'unlink') discovered.delete(rel);
      else discovered.add(rel);
    }
    this.discovered = [...discovered].sort();
    return (entry) => {
      if (entry.result.role !== 'section' && entry.result.role !== 'agent') return false;
      return entry.result.compiled?.watched.some((f) => changed.has(f)) ?? false;
    };
  }

  private async compileEntry(rel: string, loaded: Loaded): Promise<Entry['result']> {
    const role = roleOf(rel);
    if (!isSource(loaded)) {
      // A fragment is only read when included, and the include reports it.
      return failed(role, role === 'fragment' ? [] : [readFailure(rel, loaded, this.options.maxBytes)]);
    }
    const source = loaded;
    const base = source.problems.map((p) => problemToDiagnostic(source, p));
    const realPath = realpathOr(source.path);
    if (!isInside(this.options.root, realPath)) {
      return failed(role, [diagnostic('source/outside-root', rel, { line: 1, column: 1 }, 'source is a symlink leading outside the project root')]);
    }
    const lookup = (file: string) => this.lookup(file);
    switch (role) {
      case 'section': {
        const { def, diagnostics } = readSection(source);
        const compiled = def && base.length === 0 ? await compileSection(def, source, this.host, lookup) : null;
        return { role, def, compiled, diagnostics: [...base, ...diagnostics, ...(compiled?.diagnostics ?? [])] };
      }
      case 'agent': {
        const { def, diagnostics } = base.length === 0 ? readAgent(source) : { def: null, diagnostics: [] };
        const compiled = def ? await compileAgent(source, this.host) : null;
        return { role, def, compiled, diagnostics: [...base, ...diagnostics, ...(compiled?.diagnostics ?? [])] };
      }
      case 'profile': {
        const { def, diagnostics } = base.length === 0 ? readProfile(source) : { def: null, diagnostics: [] };
        return { role, def, diagnostics: [...base, ...diagnostics] };
      }
      case 'fragment':
        return { role, diagnostics: base };
    }
  }

  /**
   * The store, not `entries`: during an incremental build `entries` still
   * holds the previous build's sources, so a changed file would be positioned
   * against its old text.
   */
  private lookup(rel: string): Source | undefined {
    return this.store.peek(path.join(this.options.root, rel));
  }

  private async finish(recompiled: string[]): Promise<BuildResult> {
    const diagnostics: Diagnostic[] = [];
    const sections = new Map<string, CompiledSection>();
    const sectionFiles = new Map<string, string>();
    const agents: CompiledAgent[] = [];
    const agentFiles = new Map<string, string>();
    const profiles: ProfileInput[] = [];
    const sources: Record<string, SourceEntry> = {};

    for (const entry of [...this.entries.values()].sort((a, b) => (a.rel < b.rel ? -1 : 1))) {
      const { result, loaded } = entry;
      diagnostics.push(...result.diagnostics);
      if (isSource(loaded)) sources[entry.rel] = { hash: loaded.hash, includes: [] };
      if (result.role === 'section' && result.def && result.compiled) {
        const first = sectionFiles.get(result.def.name);
        if (first) diagnostics.push(duplicate('section/duplicate-name', 'section', result.def.name, entry, first));
        else {
          sectionFiles.set(result.def.name, entry.rel);
          sections.set(result.def.name, { def: result.def, compiled: result.compiled });
        }
      } else if (result.role === 'agent' && result.def && result.compiled) {
        const first = agentFiles.get(result.def.name);
        if (first) diagnostics.push(duplicate('agent/duplicate-name', 'agent', result.def.name, entry, first));
        else {
          agentFiles.set(result.def.name, entry.rel);
          agents.push({ def: result.def, compiled: result.compiled });
        }
      } else if (result.role === 'profile' && result.def && isSource(loaded)) {
        profiles.push({ def: result.def, source: loaded });
      }
    }
    await this.recordIncludes(sources);

    // A section that failed to compile is still known (by its file name if need be), so profiles naming it add no errors.
    const known = new Map<string, SectionDef | null>();
    for (const e of this.entries.values()) {
      if (e.result.role === 'section' && !e.result.compiled) known.set(e.result.def?.name ?? stem(e.rel), null);
    }
    for (const [name, section] of sections) known.set(name, section.def);
    diagnostics.push(...checkProfiles(profiles, known));
    const bundle = hasErrors(diagnostics) ? null : emitBundle({ sections, profiles, agents, sources, models: this.options.models });
    if (bundle) diagnostics.push(...bundle.diagnostics);
    const sorted = dedupe(sortDiagnostics(diagnostics));
    return {
      ok: bundle !== null,
      diagnostics: sorted,
      bundle,
      recompiled,
      stats: {
        sources: Object.keys(sources).length,
        cacheHits: this.cacheStats.hits,
        cacheMisses: this.cacheStats.misses,
        cacheDiscarded: this.cacheStats.discarded,
      },
    };
  }

  /** The dependency graph of the manifest: every source with the files it includes directly. */
  private async recordIncludes(sources: Record<string, SourceEntry>): Promise<void> {
    const edges = new Map<string, Set<string>>();
    for (const entry of this.entries.values()) {
      const result = entry.result;
      if ((result.role !== 'section' && result.role !== 'agent') || !result.compiled) continue;
      for (const [from, to] of result.compiled.edges) {
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    for (const [from, targets] of edges) {
      if (!sources[from]) {
        const loaded = await this.store.load(path.join(this.options.root, from));
        if (!isSource(loaded)) continue;
        sources[from] = { hash: loaded.hash, includes: [] };
      }
      sources[from]!.includes = [...targets].sort();
      for (const to of targets) {
        if (sources[to]) continue;
        const loaded = await this.store.load(path.join(this.options.root, to));
        if (isSource(loaded)) sources[to] = { hash: loaded.hash, includes: [] };
      }
    }
  }
}

/** The result of a file that could not be read as what its place says it is. */
function failed(role: Entry['result']['role'], diagnostics: Diagnostic[]): Entry['result'] {
  switch (role) {
    case 'section':
    case 'agent':
      return { role, def: null, compiled: null, diagnostics };
    case 'profile':
      return { role, def: null, diagnostics };
    case 'fragment':
      return { role, diagnostics };
  }
}

/** One realpath(3) call, blocking: cheaper than the promise round trip for thousands of files. */
function realpathOr(file: string): string {
  try {
    return fsSync.realpathSync.native(file);
  } catch {
    return file;
  }
}

function stem(rel: string): string {
  return path.posix.basename(rel, '.md');
}

function isSourcePath(rel: string): boolean {
  return (rel.startsWith('prompts/') || rel.startsWith('agents/')) && rel.endsWith('.md');
}

function readFailure(rel: string, failure: ReadFailure, maxBytes: number): Diagnostic {
  const at = { line: 1, column: 1 };
  switch (failure.kind) {
    case 'too-large':
      return diagnostic('source/too-large', rel, at, `source is ${failure.bytes} bytes, over the ${maxBytes}-byte limit`);
    case 'binary':
      return diagnostic('source/binary', rel, at, 'source is not a text file (NUL byte in its first 8 KiB)');
    case 'missing':
    case 'not-a-file':
      return diagnostic('source/unreadable', rel, at, 'source disappeared while building');
    case 'unreadable':
      return diagnostic('source/unreadable', rel, at, `source cannot be read: ${failure.message}`);
  }
}

function duplicate(rule: 'section/duplicate-name' | 'agent/duplicate-name', what: string, name: string, entry: Entry, first: string): Diagnostic {
  const source = entry.loaded as Source;
  const at = source.data.name !== undefined ? fieldPosition(source, 'name') : { line: 1, column: 1 };
  return diagnostic(rule, entry.rel, at, `${what} name '${name}' is already used`, { note: `first defined in ${first}` });
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.rule}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
