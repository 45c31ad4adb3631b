/**
 * The compiler's public API (`import … from 'prompt-build'`). The CLI is a
 * thin layer over these functions.
 */
export { buildProject, writeFailure, type BuildProjectOptions, type ProjectBuild } from './pipeline/project.js';
export { createCompiler, Compiler, type BuildResult, type FileChange } from './pipeline/compiler.js';
export { resolveBuildOptions, DEFAULT_LIMITS, type BuildOptions, type IncludeLimits } from './core/options.js';
export { RULES, sortDiagnostics, hasErrors, type Diagnostic, type RuleId, type Severity } from './diagnostics/diagnostics.js';
export { formatHuman, formatJson, formatGithub, REPORTERS, type ReporterName } from './diagnostics/format.js';
export { collectInstructionFiles, type CollectedFile, type InstructionCollection } from './include/include.js';
/** @deprecated The name before 0.13: `collectInstructionFiles`. */
export { collectInstructionFiles as collectContextFiles } from './include/include.js';
export { writeBundle, listFiles, OutputWriteError, type WriteReport, type WrittenBundle, type WriteOptions } from './write/write-bundle.js';
export { OutDirError, assertWritableOutDir } from './write/out-dir.js';
export { checkBundle, type CheckPolicy, type CheckResult, type PrefixChange, type StaleFile } from './pipeline/check-bundle.js';
export { defineConfig, type ProjectConfig, type RuleLevel, type CommentPolicy } from './config/define-config.js';
export { loadConfig, type LoadedConfig } from './config/load-config.js';
export { configBuildOptions } from './config/config-options.js';
export { LockTimeoutError } from './write/lock.js';
export { CACHE_FACTS, type CacheFact, type CacheFactProvider } from './cache-facts/cache-facts.js';
export { CACHE_FACTS_READ, FACTS_MAX_AGE_DAYS, TODAY_ENV } from './cache-facts/facts-age.js';
export { canonicalModelId, minimumCacheableTokens, resolveCacheFact, type CanonicalModelId, type ModelHost, type ResolvedCacheFact } from './cache-facts/cache-fact-lookup.js';
export { diffManifests, isEmptyDiff, type BundleDiff, type ProfileChange, type SectionChange, type AgentChange } from './bundle/bundle-diff.js';
export type { Manifest, ProfileEntry, SectionEntry, AgentEntry, SourceMap, CacheFactsInfo } from './runtime/manifest.js';

