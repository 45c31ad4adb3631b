/**
 * The compiler's public API (`import … from 'prompt-build'`). The CLI is a
 * thin layer over these functions.
 */
import { createCompiler, type BuildResult } from './compiler.js';
import type { BuildOptions } from './config.js';
import { writeBundle, type WriteReport } from './write-bundle.js';

export { createCompiler, Compiler, type BuildResult, type FileChange } from './compiler.js';
export { resolveBuildOptions, DEFAULT_LIMITS, type BuildOptions, type IncludeLimits } from './config.js';
export { RULES, sortDiagnostics, hasErrors, type Diagnostic, type RuleId, type Severity } from './diagnostics.js';
export { formatHuman, formatJson, formatGithub, REPORTERS, type ReporterName } from './diagnostics-format.js';
export { collectContextFiles, type ContextFile, type ContextCollection } from './include.js';
export { writeBundle, listFiles, type WriteReport } from './write-bundle.js';
export { CACHE_FACTS, minimumCacheableTokens } from './cache-facts.js';
export type { Manifest, ProfileEntry, SectionEntry, AgentEntry, SourceMap } from './runtime/manifest.js';

export type BuildProjectOptions = Partial<BuildOptions> & { root: string; write?: boolean };

/**
 * Builds a project and, when it compiles without errors and `write` is not
 * false, writes the bundle. On errors nothing is written: `dist/` keeps the
 * previous good build.
 */
export async function buildProject(options: BuildProjectOptions): Promise<BuildResult & { written: WriteReport | null }> {
  const compiler = await createCompiler(options);
  const result = await compiler.build();
  const written = result.bundle && options.write !== false ? await writeBundle(compiler.options.outDir, result.bundle.files) : null;
  return { ...result, written };
}
