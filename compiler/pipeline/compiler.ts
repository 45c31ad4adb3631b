/**
 * The build's stages 1–6, in order, in `Compiler.build` (stage 7, write, and
 * the up-to-date shortcut are `buildProject`'s, in project.ts). A `Compiler`
 * keeps what each stage gave, so watch mode runs a stage only for what a
 * change can reach. Results are never mutated, only replaced, which is what
 * makes reusing them safe.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveBuildOptions, type BuildOptions } from '../core/options.js';
import { compileSource, type CompileSetup, type SourceResult } from './compile-source.js';
import { discoverSources, sourcePathTest } from './discover.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostics.js';
import { applyRuleLevels } from '../diagnostics/rule-levels.js';
import { agentFiles, createEmitCache, sectionFiles, sourceEntry, type EmittedBundle } from '../bundle/emit.js';
import { emitStage } from '../bundle/emit-stage.js';
import { link } from '../link/link.js';
import type { ProfileCheckCache } from '../link/profile-checks.js';
import { Entries } from '../incremental/entries.js';
import { isInside } from '../core/paths.js';
import type { IncludeHost } from '../include/include.js';
import { openParseCache } from '../incremental/parse-cache.js';
import type { SourceEntry } from '../runtime/manifest.js';
import type { Source } from '../markdown/source.js';
import { isSource, SourceStore, type Loaded } from '../incremental/source-store.js';
import { SourcesRecord } from '../incremental/sources-record.js';
import { TOOL_FINGERPRINT } from '../core/version.js';
import type { TokenCountingLoader } from '../bundle/count-for-emit.js';
import { startCounting, type BackgroundCounter } from '../tokens/background-counter.js';
import type { CompiledSection } from '../definitions/compiled.js';
import type { CompiledProject } from '../lint/project.js';

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
  bundle: EmittedBundle | null;
  /** Outputs compiled in this run (root-relative source paths), for watch-mode reports. */
  recompiled: string[];
  stats: { sources: number; cacheHits: number; cacheMisses: number; cacheDiscarded: string | null };
}

/** How one build runs. */
export interface BuildRunOptions {
  /**
   * Assemble the bundle's files (default: yes). A caller that reads only the manifest and the diagnostics (the
   * language server, `lint`: they write nothing) leaves them out, and `bundle.files` is empty: gathering every
   * profile's files and writing `manifest.json` and `bundle.mjs` in pieces is most of what an edit's rebuild emits.
   */
  files?: boolean;
  /**
   * Given each section's and agent's files as soon as it is compiled: `buildProject` starts writing them then, while
   * the build goes on. The build may still fail after, or leave some out (a section in no profile).
   */
  onArtifacts?: (artifacts: ReadonlyMap<string, string>) => void;
}

export interface CompilerSetup {
  /**
   * Texts that stand for files (absolute path → text), read in their place by every stage — the language server's
   * unsaved buffers. The map is the caller's and read at each load: after changing it, `build` the paths changed.
   */
  overlay?: ReadonlyMap<string, string>;
  /** The counting thread, when the caller started it earlier than this (`buildProject`); by default one is started here. */
  counter?: BackgroundCounter | null;
}

/** A compiler, its counting thread started (`close` ends it). */
export async function createCompiler(partial: Partial<BuildOptions> & { root: string }, { overlay, counter }: CompilerSetup = {}): Promise<Compiler> {
  const options = resolveBuildOptions(partial);
  const root = await fs.realpath(options.root).catch(() => options.root);
  const cache = await openParseCache(options.cacheDir, TOOL_FINGERPRINT);
  const store = new SourceStore(root, options, cache, options.parallelThreshold, overlay);
  const background = counter === undefined ? startCounting(options) : counter;
  return new Compiler({ ...options, root }, store, cache.stats, await sourcePathTest(options.sourceDirs, options.agentIgnore), background);
}

export class Compiler {
  /** What emitting keeps between builds: this compiler's own. */
  private readonly emitCache = createEmitCache();
  /** What linking keeps between builds: each profile's checks. */
  private readonly profileChecks: ProfileCheckCache = new WeakMap();
  private readonly entries = new Entries(this.emitCache);
  /** Root-relative paths of the sources, sorted; null until the first build. */
  private discovered: string[] | null = null;
  /** The same paths, to look up (kept beside the list: a rebuild must not build a set of every source). */
  private discoveredSet = new Set<string>();
  private readonly sources = new SourcesRecord();
  private readonly host: IncludeHost;
  private readonly setup: CompileSetup;
  /** The token counters: the counting thread (a no-change build never starts one), or a tokenizer loaded here. */
  private readonly tokenCounting: TokenCountingLoader;

  constructor(
    readonly options: BuildOptions,
    private readonly store: SourceStore,
    private readonly cacheStats: { hits: number; misses: number; discarded: string | null },
    private readonly isSourcePath: (rel: string) => boolean,
    background: BackgroundCounter | null,
  ) {
    this.tokenCounting = { background, loaded: null };
    this.host = { root: options.root, homeDir: options.homeDir, limits: options, constants: options.constants, load: (f) => store.load(f) };
    this.setup = { host: this.host, options, lookup: (rel) => this.lookup(rel) };
  }

  /**
   * Compiles the project: the stages in order. With `changes`, only the
   * outputs that depend on a changed path are compiled again; the result
   * equals a clean build.
   */
  async build(changes?: readonly FileChange[], { files = true, onArtifacts }: BuildRunOptions = {}): Promise<BuildResult> {
    const full = !changes || this.discovered === null;
    // 1 discover: every source on a full build; on a rebuild, what the changes reach.
    const candidates = await this.discover(changes);
    // 2 load: read, checked, parsed (from the parse cache, or on all cores when there are many).
    const loaded = await this.store.loadMany(candidates.map((rel) => path.join(this.options.root, rel)));
    // 3 define and 4 compile, per source.
    const recompiled = await this.compile(candidates, loaded, files ? onArtifacts : undefined);
    // A rebuild parses a handful of files; rewriting the whole parse cache after each would cost more than it saves.
    if (full) await this.store.saveCache();
    // The manifest's record of every source, also of a build that fails: the record follows every change.
    const sources = await this.sourceEntries(full);
    // 5 link: names, profiles, rule levels.
    const profiles = this.entries.profiles();
    const linked = link({ diagnostics: this.entries.diagnostics(), profiles, sectionNamesKnown: () => this.entries.sectionNamesKnown() }, this.options.ruleLevels, this.profileChecks);
    // 6 emit, unless linking found errors.
    const emitted = hasErrors(linked)
      ? null
      : await emitStage(
          { profiles, unused: this.entries.unusedSections(), agents: this.entries.agents(), skippedAgents: this.entries.skippedAgents(), claudeFiles: this.entries.claudeFiles(), skippedClaudeFiles: this.entries.skippedClaudeFiles(), sources, files },
          this.options,
          this.emitCache,
          this.tokenCounting,
        );
    const diagnostics = uniqueDiagnostics(sortDiagnostics([...linked, ...(emitted?.diagnostics ?? [])]));
    // A warning of emit's that the project made an error (`cache/prefix-below-minimum`…) fails the build too.
    const bundle = emitted && !hasErrors(diagnostics) ? emitted.bundle : null;
    const stats = { sources: this.sources.size, cacheHits: this.cacheStats.hits, cacheMisses: this.cacheStats.misses, cacheDiscarded: this.cacheStats.discarded };
    return { ok: bundle !== null, diagnostics, bundle, recompiled, stats };
  }

  /** Stages 3 and 4 for the candidates whose source is not the one their entry was compiled from; returns those paths, sorted. */
  private async compile(candidates: readonly string[], loaded: readonly Loaded[], onArtifacts: BuildRunOptions['onArtifacts']): Promise<string[]> {
    const recompiled: string[] = [];
    /** A source with an error (at the project's rule levels, as link will judge it): the build fails, and writes no more. */
    let failing = false;
    await Promise.all(
      candidates.map(async (rel, i) => {
        // Kept while its source is the same object: the store reloads only what changed.
        if (this.entries.get(rel)?.loaded === loaded[i]) return;
        const result = await compileSource(rel, loaded[i]!, this.setup);
        this.entries.set({ rel, loaded: loaded[i]!, result });
        // Counted on the other core while the rest compiles: emit needs every text's count.
        if ('compiled' in result && result.compiled) this.tokenCounting.background?.countAhead(result.compiled.text);
        recompiled.push(rel);
        if (onArtifacts && !failing) {
          failing = hasErrors(applyRuleLevels(result.diagnostics, this.options.ruleLevels));
          if (!failing) this.handOver(result, onArtifacts);
        }
      }),
    );
    return recompiled.sort();
  }

  /** A compiled section's or agent's files, to the caller that writes them while the build goes on. */
  private handOver(result: SourceResult, onArtifacts: NonNullable<BuildRunOptions['onArtifacts']>): void {
    if (result.role === 'section' && result.def && result.compiled) onArtifacts(sectionFiles({ def: result.def, compiled: result.compiled }, this.options.targets, this.emitCache));
    if (result.role === 'agent' && result.def && result.compiled) onArtifacts(agentFiles({ def: result.def, compiled: result.compiled }, this.emitCache));
  }

  /** What the last build compiled, as the built-in lint rules read it (lint/): every section, agent and profile, each source by path. */
  compiledProject(): CompiledProject {
    const sections = new Set<CompiledSection>(this.entries.unusedSections());
    const profiles = this.entries.profiles();
    for (const profile of profiles) for (const section of profile.sections) if (section) sections.add(section);
    return {
      sections: [...sections].sort((a, b) => (a.def.source < b.def.source ? -1 : a.def.source > b.def.source ? 1 : 0)),
      agents: this.entries.agents(),
      claudeFiles: this.entries.claudeFiles(),
      profiles,
      source: (rel) => this.lookup(rel),
    };
  }

  /** Absolute paths (as written and real) that the last build's includes went through. */
  watchedPaths(): string[] {
    return this.entries.watchedPaths();
  }

  /** The file (root-relative) that holds the section `name`, as of the last build; undefined when none compiled. */
  sectionSource(name: string): string | undefined {
    return this.entries.sectionSource(name);
  }

  /** Every section name some file claims, as of the last build. */
  sectionNames(): string[] {
    return this.entries.sectionNamesKnown();
  }

  /**
   * Saves the parse cache. A full build does so itself; a watch session
   * calls this when it ends, so that the files edited meanwhile are not
   * parsed again by the next cold build.
   */
  saveCache(): Promise<void> {
    return this.store.saveCache();
  }

  /** Ends the counting thread, if any: a process that goes on after it is done with a compiler calls this. */
  async close(): Promise<void> {
    const background = this.tokenCounting.background;
    this.tokenCounting.background = null;
    await background?.close();
  }

  /** `work`'s result, the compiler closed after it, whether it succeeded or not: for a caller that builds once. */
  async closedAfter<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      await this.close();
    }
  }

  /**
   * Takes in what changed: forgets changed files, updates the sources and
   * drops the entries a change reaches. Returns the sources to compile unless
   * their entry is kept, sorted: every source on a full build, on a rebuild
   * the changed ones and the dependents of any changed path.
   */
  private async discover(changes: readonly FileChange[] | undefined): Promise<string[]> {
    if (!changes || this.discovered === null) {
      this.discovered = await discoverSources(this.options.root, this.options.sourceDirs, this.options.agentIgnore);
      this.discoveredSet = new Set(this.discovered);
      for (const rel of this.entries.paths()) if (!this.discoveredSet.has(rel)) this.entries.drop(rel);
      return this.discovered;
    }
    const changed = new Set(changes.map((c) => path.resolve(c.path)));
    for (const file of changed) this.store.forget(file);
    const discovered = this.discoveredSet;
    let reshaped = false;
    for (const change of changes) {
      const rel = this.relative(change.path);
      if (!isInside(this.options.root, change.path) || !this.isSourcePath(rel)) continue;
      if (change.kind === 'unlink') {
        if (discovered.delete(rel)) this.entries.drop(rel);
      } else if (!discovered.has(rel)) discovered.add(rel);
      else continue;
      reshaped = true;
    }
    if (reshaped) this.discovered = [...discovered].sort();
    const candidates = new Set<string>();
    for (const file of changed) {
      const rel = this.relative(file);
      if (discovered.has(rel)) candidates.add(rel);
      for (const dependent of this.entries.dependentsOf(file)) {
        this.entries.drop(dependent);
        if (discovered.has(dependent)) candidates.add(dependent);
      }
    }
    return [...candidates].sort();
  }

  private relative(file: string): string {
    return path.relative(this.options.root, file).split(path.sep).join('/');
  }

  /**
   * The store, not `entries`: during an incremental build `entries` still
   * holds the previous build's sources, so a changed file would be positioned
   * against its old text.
   */
  private lookup(rel: string): Source | undefined {
    return this.store.peek(path.join(this.options.root, rel));
  }

  /**
   * The `sources` of the manifest: every source, and every file one includes,
   * with the files it includes directly — the build's dependency graph. A
   * rebuild looks again only at the paths its changes touched.
   */
  private async sourceEntries(full: boolean): Promise<Record<string, SourceEntry>> {
    const touched = this.entries.takeTouched();
    const discovered = this.discoveredSet;
    const entryOf = (rel: string): SourceEntry | null | Promise<SourceEntry | null> => {
      if (discovered.has(rel)) return this.entries.sourceEntryOf(rel);
      // Reached by includes only (outside prompts/ and agents/).
      if (!this.entries.inGraph(rel)) return null;
      return this.store.load(path.join(this.options.root, rel)).then((loaded) => (isSource(loaded) ? sourceEntry(loaded, this.entries.includesOf(rel), this.emitCache) : null));
    };
    if (!full) {
      const updated = await this.sources.update(touched, entryOf);
      if (updated) return updated;
    }
    const reached = this.entries.graphPaths().filter((rel) => !discovered.has(rel));
    return this.sources.rebuild([...this.discovered!, ...reached], entryOf);
  }
}

/** Diagnostics sorted, each once: a file reached by several includes reports a problem of its own once. */
function uniqueDiagnostics(sorted: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return sorted.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.rule}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
