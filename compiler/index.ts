/**
 * The compiler's public API (`import … from 'prompt-build'`). The CLI is a
 * thin layer over these functions.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { readStamp, stampHolds, stampKey, writeStamp } from './build-stamp.js';
import { createCompiler, type BuildResult } from './compiler.js';
import { resolveBuildOptions, type BuildOptions } from './config.js';
import { discoverSources } from './discover.js';
import { sha256 } from './hash.js';
import type { Manifest } from './runtime/manifest.js';
import { TOOL_FINGERPRINT } from './version.js';
import { writeBundle, type WriteReport } from './write-bundle.js';

export { createCompiler, Compiler, type BuildResult, type FileChange } from './compiler.js';
export { resolveBuildOptions, DEFAULT_LIMITS, type BuildOptions, type IncludeLimits } from './config.js';
export { RULES, sortDiagnostics, hasErrors, type Diagnostic, type RuleId, type Severity } from './diagnostics.js';
export { formatHuman, formatJson, formatGithub, REPORTERS, type ReporterName } from './diagnostics-format.js';
export { collectContextFiles, type ContextFile, type ContextCollection } from './include.js';
export { writeBundle, listFiles, type WriteReport, type WrittenBundle } from './write-bundle.js';
export { CACHE_FACTS, type CacheFact, type CacheFactProvider } from './cache-facts.js';
export { canonicalModelId, minimumCacheableTokens, resolveCacheFact, type CanonicalModelId, type ModelHost, type ResolvedCacheFact } from './cache-fact-lookup.js';
export { diffManifests, isEmptyDiff, type BundleDiff, type ProfileChange, type SectionChange, type AgentChange } from './bundle-diff.js';
export type { Manifest, ProfileEntry, SectionEntry, AgentEntry, SourceMap } from './runtime/manifest.js';

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
  const resolved = resolveBuildOptions({ ...options, root: await realRoot(options.root) });
  const write = options.write !== false;
  const key = stampKey(resolved, TOOL_FINGERPRINT);
  if (write) {
    const reused = await reuseLastBuild(resolved, key);
    if (reused) return reused;
  }
  const compiler = await createCompiler(resolved);
  const result = await compiler.build();
  if (!result.bundle || !write) return { ...result, written: null, upToDate: false, manifest: result.bundle?.manifest ?? null };
  const written = await writeBundle(resolved.outDir, result.bundle.files);
  const { manifest, files } = result.bundle;
  await writeStamp(resolved, {
    key,
    inputs: Object.fromEntries(Object.entries(manifest.sources).map(([rel, s]) => [path.join(resolved.root, rel), s.hash])),
    manifestHash: sha256(files.get('manifest.json')!),
    files: [...files.keys()].sort(),
    diagnostics: result.diagnostics,
  });
  return { ...result, written, upToDate: false, manifest };
}

async function reuseLastBuild(options: BuildOptions, key: string): Promise<ProjectBuild | null> {
  const stamp = await readStamp(options);
  if (!stamp) return null;
  const discovered = (await discoverSources(options.root)).map((rel) => path.join(options.root, rel));
  if (!(await stampHolds(stamp, key, discovered, options.outDir))) return null;
  const manifest = JSON.parse(await fs.readFile(path.join(options.outDir, 'manifest.json'), 'utf8')) as Manifest;
  return {
    ok: true,
    diagnostics: stamp.diagnostics,
    bundle: null,
    recompiled: [],
    stats: { sources: Object.keys(manifest.sources).length, cacheHits: 0, cacheMisses: 0, cacheDiscarded: null },
    written: null,
    upToDate: true,
    manifest,
  };
}

async function realRoot(root: string): Promise<string> {
  return fs.realpath(path.resolve(root)).catch(() => path.resolve(root));
}
