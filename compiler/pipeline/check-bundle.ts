/**
 * `check` as a library call, the CI gate: build in memory, write nothing,
 * and fail on diagnostics, on an out directory that differs from what the
 * sources produce (naming the options when they are what differs), on a
 * missing one unless the project commits no bundle, and — given the profiles
 * allowed to — on a static prefix hash change, a global prompt-cache bust.
 */
import path from 'node:path';
import { createCompiler } from './compiler.js';
import type { BuildOptions } from '../core/options.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostics.js';
import { lintStage } from './lint-stage.js';
import type { Manifest } from '../runtime/manifest.js';
import { bundleFileReader } from '../runtime/read-regular-file.js';
import { validateManifestForReaders } from '../runtime/validate-manifest.js';
import { diffManifests } from '../bundle/bundle-diff.js';
import { optionDifferences } from '../bundle/output-options.js';
import { findStaleFiles, type Staleness } from '../write/staleness.js';

export interface CheckPolicy {
  /** Profiles whose static prefix hash may change (`*`: all); when given, any other change fails. */
  allowStaticPrefixChange?: readonly string[];
  /** What static prefix hashes are compared with; default: the manifest in the out directory. */
  baseline?: Manifest;
  /** A missing out directory passes (for projects that do not commit their bundle). */
  allowMissingDist?: boolean;
}

/** A profile whose static prefix hash differs from the baseline's. */
export interface PrefixChange {
  profile: string;
  source: string;
  old: string;
  new: string;
  allowed: boolean;
}

/** A bundle file (root-relative) that is not what the sources produce. */
export type StaleFile = { file: string; state: 'changed' | 'missing' | 'extra' };

export interface CheckResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** What the sources build to; null when they do not build. */
  manifest: Manifest | null;
  /** The out directory, root-relative (`.` for the root). */
  outDir: string;
  /** Whether the out directory was compared: false when the build failed or the directory does not exist. */
  compared: boolean;
  /** The out directory does not exist and the policy does not allow that. */
  missing: boolean;
  stale: StaleFile[];
  /** The options the bundle was built with that differ from these, worded (`comments (keep in the bundle, strip here)`). */
  otherOptions: string[];
  staticPrefixChanges: PrefixChange[];
}

export async function checkBundle(options: Partial<BuildOptions> & { root: string }, policy: CheckPolicy = {}): Promise<CheckResult> {
  const compiler = await createCompiler(options);
  const { root, outDir } = compiler.options;
  const outRel = path.relative(root, outDir).split(path.sep).join('/') || '.';
  const { result, found } = await compiler.closedAfter(async () => {
    const result = await compiler.build();
    // The built-in rules and the plugins (docs/lint.md): an error among their findings fails the check too.
    return { result, found: await lintStage(compiler.options, { built: { compiler, result } }) };
  });
  const bundle = result.bundle;
  const staleness = bundle ? await findStaleFiles(bundle.files, outDir) : null;
  const stale = staleness ? staleList(staleness, outRel) : [];
  const onDisk = bundle && (stale.length > 0 || policy.allowStaticPrefixChange) ? await readManifestIn(outDir) : null;
  // Stale because the options differ, not the sources: say which, or the suggested rebuild would undo them.
  const otherOptions = onDisk && bundle && stale.length > 0 ? optionDifferences(onDisk.options, bundle.manifest.options!) : [];
  const baseline = policy.baseline ?? onDisk;
  const prefix = baseline && bundle && policy.allowStaticPrefixChange ? prefixChanges(baseline, bundle.manifest, policy.allowStaticPrefixChange) : [];
  // A project that commits its bundle and has none has shipped nothing reviewed: that fails, unless the project says it commits none.
  const missing = bundle !== null && staleness === null && !policy.allowMissingDist;
  return {
    ok: result.ok && !hasErrors(found) && !missing && stale.length === 0 && prefix.every((c) => c.allowed),
    diagnostics: found.length === 0 ? result.diagnostics : sortDiagnostics([...result.diagnostics, ...found]),
    manifest: bundle?.manifest ?? null,
    outDir: outRel,
    compared: staleness !== null,
    missing,
    stale,
    otherOptions,
    staticPrefixChanges: prefix,
  };
}

/**
 * Profiles present in both manifests whose static prefix hash differs. New
 * and removed profiles bust no existing cache entry, so they are not listed.
 */
function prefixChanges(baseline: Manifest, built: Manifest, allowed: readonly string[]): PrefixChange[] {
  return diffManifests(baseline, built)
    .profiles.filter((p) => p.cacheBust)
    .map((p) => ({
      profile: p.name,
      source: built.profiles[p.name]!.source,
      old: p.staticPrefixHash.old!,
      new: p.staticPrefixHash.new!,
      allowed: allowed.includes('*') || allowed.includes(p.name),
    }));
}

/** The manifest already in the out directory, or null when there is none that reads (a link or FIFO there is none). */
async function readManifestIn(outDir: string): Promise<Manifest | null> {
  try {
    return validateManifestForReaders(JSON.parse(bundleFileReader(outDir)('manifest.json').toString('utf8')), outDir);
  } catch {
    return null;
  }
}

function staleList(s: Staleness, outRel: string): StaleFile[] {
  const at = (rel: string) => path.posix.join(outRel, rel);
  return [
    ...s.changed.map((rel) => ({ file: at(rel), state: 'changed' as const })),
    ...s.missing.map((rel) => ({ file: at(rel), state: 'missing' as const })),
    ...s.extra.map((rel) => ({ file: at(rel), state: 'extra' as const })),
  ].sort((a, b) => (a.file < b.file ? -1 : 1));
}
