/**
 * One prompt set as the language server sees it: the project's options as
 * `build` reads them (the config file, defaults), one incremental `Compiler`
 * over the files on disk with the editor's unsaved buffers laid over them,
 * and what the last build said. Builds run one at a time; edits that arrive
 * meanwhile are taken by the next.
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveBuildOptions, type BuildOptions } from '../core/options.js';
import { findConfigFile } from '../config/find-config.js';
import { keyPosition } from '../config/load-config.js';
import { readProjectConfig } from '../config/project-config.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { applyRuleLevels } from '../diagnostics/rule-levels.js';
import { runBuiltInRules } from '../lint/built-in-rules.js';
import { discoverSources, sourcePathTest } from '../pipeline/discover.js';
import { isInside } from '../core/paths.js';
import { normaliseText, readTextFileSync } from '../markdown/source.js';
import type { Manifest } from '../runtime/manifest.js';
import { createCompiler, type Compiler, type FileChange } from '../pipeline/compiler.js';

export interface WorkspaceBuild {
  /** Every diagnostic of the build and of the config, by absolute path. */
  diagnostics: Map<string, Diagnostic[]>;
  /** The bundle's manifest: this build's, or the last one that compiled while this one has errors. */
  manifest: Manifest | null;
}

export class Workspace {
  /** Paths changed since the last build. */
  private pending = new Set<string>();
  private running: Promise<unknown> | null = null;
  private built = false;
  private lastManifest: Manifest | null = null;
  /** The project's plugins' findings by root-relative path: each file's run again only when it changes. */
  private readonly pluginFindings = new Map<string, Diagnostic[]>();
  /** What the plugins' last run found at no source (a plugin that threw when set up, at the config): replaced by each run. */
  private pluginSetup: Diagnostic[] = [];
  /** What the last lint found (built-in rules and plugins, rule levels applied), shown with every build until the next lint. */
  private linted: Diagnostic[] = [];
  /** The changes built since the last lint: the plugins run again over these. null: lint everything. */
  private unlinted: FileChange[] | null = null;
  private compiled: { diagnostics: readonly Diagnostic[]; manifest: Manifest | null } = { diagnostics: [], manifest: null };

  private constructor(
    readonly root: string,
    readonly options: BuildOptions,
    private readonly compiler: Compiler,
    /** Absolute path → the editor's text of an open file: the compiler reads it in the file's place. */
    private readonly unsaved: Map<string, string>,
    private readonly configDiagnostics: readonly Diagnostic[],
    /** The config file and its text as read, for going to a constant; null without one. */
    private readonly config: { file: string; text: string } | null,
    /** Whether a root-relative path is a source, as the build finds them (dot-folders and `agents.ignore` left out). */
    private readonly isSource: (rel: string) => boolean,
  ) {}

  /** The prompt set at `root` (a real directory), with its config file read as `build` reads it. */
  static async open(root: string): Promise<Workspace> {
    const real = fs.realpathSync.native(root);
    let fromConfig: Partial<BuildOptions> = {};
    let configDiagnostics: Diagnostic[] = [];
    let config: { file: string; text: string } | null = null;
    if (findConfigFile(real) !== null) {
      // As `build` reads it, plugins included: the editor shows what `lint` reports.
      const read = await readProjectConfig(real, { plugins: true });
      // A plugin that does not load means none runs, as in `lint` (docs/lint.md#plugins): not the rest of them alone.
      fromConfig = read.diagnostics.some((d) => d.rule === 'plugin/load-failed') ? { ...read.options, plugins: [] } : read.options;
      configDiagnostics = read.diagnostics;
      config = read.source;
    }
    // The editor's builds write nothing: the out directory only keeps the default's shape.
    const options = resolveBuildOptions({ outDir: path.join(real, 'dist'), ...fromConfig, root: real });
    const unsaved = new Map<string, string>();
    const isSource = await sourcePathTest(options.sourceDirs, options.agentIgnore);
    return new Workspace(real, options, await createCompiler(options, { overlay: unsaved }), unsaved, configDiagnostics, config, isSource);
  }

  /** The file (absolute) holding the section `name`, as of the last build. */
  sectionFile(name: string): string | undefined {
    const rel = this.compiler.sectionSource(name);
    return rel === undefined ? undefined : path.join(this.root, rel);
  }

  sectionNames(): string[] {
    return this.compiler.sectionNames().sort();
  }

  /** Where the config file sets the constant `name` (1-based), if it does. */
  constantAt(name: string): { file: string; line: number; column: number } | null {
    if (!this.config || !Object.hasOwn(this.options.constants, name)) return null;
    return { file: this.config.file, ...keyPosition(this.config.text, ['constants', name]) };
  }

  /** Whether `file` (absolute) is under the root. */
  holds(file: string): boolean {
    const rel = path.relative(this.root, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  }

  /**
   * The text of `file`: the editor's when open, else the disk's — read as the build reads a source: only a regular
   * file whose real path is inside the root, within the size limit (a link out of the project, a FIFO: null).
   */
  textOf(file: string): string | null {
    const open = this.unsaved.get(file);
    if (open !== undefined) return open;
    let real: string;
    try {
      real = fs.realpathSync.native(file);
    } catch {
      return null;
    }
    if (!isInside(this.root, real)) return null;
    const read = readTextFileSync(real, this.options.maxBytes);
    return read.ok ? read.bytes.toString('utf8') : null;
  }

  /** An open file's text changed (or the file was opened). */
  edit(file: string, text: string): void {
    this.unsaved.set(file, text);
    this.pending.add(file);
  }

  /** An open file was closed: the disk's text stands for it again. */
  close(file: string): void {
    if (this.unsaved.delete(file)) this.pending.add(file);
  }

  /** A file changed on disk (saved, created or deleted by anything). */
  changedOnDisk(file: string): void {
    this.pending.add(file);
  }

  /** Builds what the edits since the last build reach (everything, the first time). */
  build(): Promise<WorkspaceBuild> {
    // One build at a time; a build asked for meanwhile runs after it, with every edit made until then.
    const next = (this.running ?? Promise.resolve()).then(() => this.buildNow());
    this.running = next.catch(() => undefined);
    return next;
  }

  private async buildNow(): Promise<WorkspaceBuild> {
    const changes: FileChange[] = [...this.pending].map((file) => ({ path: file, kind: fs.existsSync(file) || this.unsaved.has(file) ? 'change' : 'unlink' }));
    this.pending = new Set();
    const first = !this.built;
    // Nothing is written: only the manifest and the diagnostics are read.
    const result = await this.compiler.build(first ? undefined : changes, { files: false });
    this.built = true;
    if (result.bundle) this.lastManifest = result.bundle.manifest;
    this.compiled = { diagnostics: result.diagnostics, manifest: result.bundle?.manifest ?? null };
    if (!first && this.unlinted !== null) this.unlinted.push(...changes);
    return this.answer();
  }

  /**
   * What `lint` adds (docs/lint.md): the built-in rules over what was last compiled (they read the whole project, so
   * they run when edits pause, not on every keystroke), the plugins over the sources changed since the last lint.
   */
  lint(): Promise<WorkspaceBuild> {
    const next = (this.running ?? Promise.resolve()).then(async () => {
      const changes = this.unlinted;
      this.unlinted = [];
      const builtIn = runBuiltInRules({ project: this.compiler.compiledProject(), manifest: this.compiled.manifest, models: this.options.models });
      if (this.options.plugins.length > 0) await this.runPlugins(changes);
      this.linted = applyRuleLevels([...builtIn, ...this.pluginSetup, ...[...this.pluginFindings.values()].flat()], this.options.ruleLevels);
      return this.answer();
    });
    this.running = next.catch(() => undefined);
    return next;
  }

  /** The last build's diagnostics with the config's and the last lint's, by file. */
  private answer(): WorkspaceBuild {
    const diagnostics = new Map<string, Diagnostic[]>();
    for (const d of [...this.configDiagnostics, ...this.compiled.diagnostics, ...this.linted]) {
      const file = path.isAbsolute(d.file) ? d.file : path.join(this.root, d.file);
      const list = diagnostics.get(file);
      if (list) list.push(d);
      else diagnostics.set(file, [d]);
    }
    return { diagnostics, manifest: this.lastManifest };
  }

  /** The plugins over every source (`changes` null), or over the sources among `changes`, as the editor has them. */
  private async runPlugins(changes: readonly FileChange[] | null): Promise<void> {
    const rels = changes === null
      ? await discoverSources(this.root, this.options.sourceDirs, this.options.agentIgnore)
      : changes.map((c) => path.relative(this.root, c.path).split(path.sep).join('/')).filter((rel) => this.pluginFindings.has(rel) || this.isSource(rel));
    const sources = rels.flatMap((rel) => {
      this.pluginFindings.delete(rel);
      const text = this.textOf(path.join(this.root, rel));
      return text === null ? [] : [{ rel, text: normaliseText(Buffer.from(text, 'utf8')) }];
    });
    // unified and remark are loaded only for a project with plugins.
    const { runPlugins } = await import('../lint/run-plugins.js');
    for (const { rel } of sources) this.pluginFindings.set(rel, []);
    // A finding at a source stays until that source is linted again; one elsewhere (a set-up failure, reported at the
    // config on every run) is this run's only, or each pass would add another copy.
    const setup: Diagnostic[] = [];
    for (const d of await runPlugins(sources, this.options.plugins, this.options.extensions)) {
      const list = this.pluginFindings.get(d.file);
      if (list) list.push(d);
      else setup.push(d);
    }
    this.pluginSetup = setup;
  }
}
