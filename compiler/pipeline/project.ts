/**
 * Building a project, as the CLI's \`build\` and library users call it: the
 * up-to-date shortcut first, then compile and write. The compiler and the
 * writer are loaded only when the shortcut does not hold, so a build that
 * finds nothing changed loads little more than the stamp's checks.
 */
import fsSync from 'node:fs';
import path from 'node:path';
import { prepareStamp, reuseIfUnchanged, type Unchanged } from './build-stamp.js';
import { assertWritableOutDir } from '../write/out-dir.js';
import type { OutputWriteError, PendingWrite, WriteReport } from '../write/write-bundle.js';
import type { BuildResult } from './compiler.js';
import { resolveBuildOptions, type BuildOptions } from '../core/options.js';
import { diagnostic, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostics.js';
import type { Manifest } from '../runtime/manifest.js';
import { startCounting } from '../tokens/background-counter.js';

export type BuildProjectOptions = Partial<BuildOptions> & { root: string; write?: boolean };

export interface ProjectBuild extends BuildResult {
  /** What was written, or null when nothing was (errors, `write: false`, or up to date). */
  written: WriteReport | null;
  /** The sources and `dist/` were exactly as the last build left them: nothing was compiled. */
  upToDate: boolean;
  /** The bundle's manifest: the new one, or the one in `dist/` when up to date; null on errors. */
  manifest: Manifest | null;
}

/**
 * Builds a project and, when it compiles without errors and `write` is not
 * false, writes the bundle. On errors nothing is written: `dist/` keeps the
 * previous good build. When nothing changed since the last build (see
 * build-stamp.ts), nothing is compiled either.
 */
export async function buildProject(options: BuildProjectOptions): Promise<ProjectBuild> {
  const resolved = resolveBuildOptions({ ...options, root: realRoot(options.root) });
  const write = options.write !== false;
  // Before anything is compiled: a directory the tool may not write is a usage error, not a diagnostic.
  if (write) assertWritableOutDir(resolved);
  const unchanged = write ? await reuseIfUnchanged(resolved) : null;
  if (unchanged) return withPluginFindings(upToDate(unchanged), await pluginFindings(resolved));
  // First: the tokenizer loads on the other core while this thread loads the compiler and builds.
  const counter = startCounting(resolved);
  /** The bundle's artifacts being written, as the build compiles them: on a slow disk, most of a cold build's time. */
  let writing: Promise<PendingWrite> | null = null;
  try {
    const [{ createCompiler }, { OutputWriteError, beginWrite }] = await Promise.all([import('./compiler.js'), import('../write/write-bundle.js')]);
    const compiler = await createCompiler(resolved, { counter });
    const begin = () => beginWrite(resolved.outDir, new Map(), undefined, { ...resolved, thread: true });
    // Before the build, so that a plugin's error keeps it from starting to write: they read the sources themselves.
    const found = await pluginFindings(resolved);
    // The out directory's lock is taken now, and each text's artifacts written as it is compiled. A refusal (a lock
    // held too long, a file in the way) is reported after the build, with its diagnostics.
    if (write && !hasErrors(found)) writing = begin();
    const started = writing && (await writing.catch(() => null));
    const built = await compiler.build(undefined, started ? { onArtifacts: (artifacts) => started.add(artifacts) } : {});
    // The plugins' findings are not the stamp's to replay (they run on every build): `built` keeps the build's own.
    const result = withPluginFindings(built, found);
    if (!result.bundle || !write) return { ...result, written: null, upToDate: false, manifest: result.bundle?.manifest ?? null };
    const { manifest, files } = result.bundle;
    // Exact counts that fell back to estimates are tried again by the next build, not frozen by the stamp. Prepared
    // before the commit, while the artifacts may still be on their way to disk.
    const exactLater = result.diagnostics.some((d) => d.rule === 'tokens/exact-unavailable');
    const recordStamp = exactLater ? null : prepareStamp(resolved, { manifest, files, watched: compiler.watchedPaths(), diagnostics: built.diagnostics });
    let written: WriteReport;
    try {
      const pending: PendingWrite = await (writing ?? begin());
      writing = null;
      written = await pending.commit(files);
    } catch (error) {
      if (!(error instanceof OutputWriteError)) throw error;
      const diagnostics = [...result.diagnostics, writeFailure(resolved.root, error)];
      return { ...result, ok: false, diagnostics, bundle: null, written: null, upToDate: false, manifest: null };
    }
    await recordStamp?.();
    return { ...result, written, upToDate: false, manifest };
  } finally {
    // A build that failed after its artifacts were started (an error in a source, of link's or emit's): they go again.
    const started = writing as Promise<PendingWrite> | null;
    if (started) await started.then((pending) => pending.abort(), () => {});
    // A library caller's process goes on: the thread and its tokenizer must not.
    await counter?.close();
  }
}

/** A write the file system refused, as a diagnostic on the path it refused (root-relative when inside the root). */
export function writeFailure(root: string, error: OutputWriteError): Diagnostic {
  const rel = path.relative(root, error.file);
  const file = rel.startsWith('..') || path.isAbsolute(rel) ? error.file : rel.split(path.sep).join('/');
  return diagnostic('output/write-failed', file, { line: 1, column: 1 }, error.message, {
    note: 'the previous bundle was left as it was; free space or fix permissions, then build again',
  });
}

/** The config's plugins' findings (docs/lint.md#plugins); none, and nothing loaded, without plugins. */
async function pluginFindings(options: BuildOptions): Promise<Diagnostic[]> {
  if (options.plugins.length === 0) return [];
  const { lintStage } = await import('./lint-stage.js');
  return lintStage(options, { built: null });
}

/** A build with the plugins' findings added: an error among them fails it, and then nothing is written. */
function withPluginFindings<T extends BuildResult & { manifest?: Manifest | null }>(result: T, found: readonly Diagnostic[]): T {
  if (found.length === 0) return result;
  const diagnostics = sortDiagnostics([...result.diagnostics, ...found]);
  if (!hasErrors(found)) return { ...result, diagnostics };
  return { ...result, ok: false, diagnostics, bundle: null, ...('manifest' in result ? { manifest: null } : {}) };
}

function upToDate({ manifest, diagnostics }: Unchanged): ProjectBuild {
  return {
    ok: true,
    diagnostics,
    bundle: null,
    recompiled: [],
    stats: { sources: Object.keys(manifest.sources).length, cacheHits: 0, cacheMisses: 0, cacheDiscarded: null },
    written: null,
    upToDate: true,
    manifest,
  };
}

function realRoot(root: string): string {
  try {
    return fsSync.realpathSync.native(path.resolve(root));
  } catch {
    return path.resolve(root);
  }
}
