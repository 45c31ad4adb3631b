/**
 * The compiler's public API (`import … from 'prompt-build'`). The CLI is a
 * thin layer over these functions.
 */
export { buildProject, writeFailure, type BuildProjectOptions, type ProjectBuild } from './build/project.js';
export { createCompiler, Compiler, type BuildResult, type FileChange } from './compiler.js';
export { resolveBuildOptions, DEFAULT_LIMITS, type BuildOptions, type IncludeLimits } from './config.js';
export { RULES, sortDiagnostics, hasErrors, type Diagnostic, type RuleId, type Severity } from './diagnostics.js';
export { formatHuman, formatJson, formatGithub, REPORTERS, type ReporterName } from './diagnostics-format.js';
export { collectContextFiles, type ContextFile, type ContextCollection } from './include.js';
export { writeBundle, listFiles, OutputWriteError, type WriteReport, type WrittenBundle, type WriteOptions } from './bundle/write-bundle.js';
export { OutDirError, assertWritableOutDir } from './bundle/out-dir.js';
export { LockTimeoutError } from './bundle/lock.js';
export { CACHE_FACTS, type CacheFact, type CacheFactProvider } from './cache-facts.js';
export { canonicalModelId, minimumCacheableTokens, resolveCacheFact, type CanonicalModelId, type ModelHost, type ResolvedCacheFact } from './cache-fact-lookup.js';
export { diffManifests, isEmptyDiff, type BundleDiff, type ProfileChange, type SectionChange, type AgentChange } from './bundle-diff.js';
export type { Manifest, ProfileEntry, SectionEntry, AgentEntry, SourceMap } from './runtime/manifest.js';

