/**
 * `prompt-build check`: the CI gate. Builds in memory and writes nothing;
 * fails on diagnostics, on a `dist/` that differs from what the sources
 * produce, and — with `--allow-static-prefix-change` — on a static prefix hash
 * change (a global prompt-cache bust) of a profile not allowed to change.
 */
import path from 'node:path';
import { diffManifests } from '../../bundle/bundle-diff.js';
import { createCompiler } from '../../build/compiler.js';
import type { Manifest } from '../../runtime/manifest.js';
import { escapeData, escapeProperty } from '../../diagnostics/format.js';
import { optionDifferences } from '../../bundle/output-options.js';
import { findStaleFiles, isFresh, type Staleness } from '../../bundle/staleness.js';
import type { CheckPolicy, CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { readManifestArg } from '../read-manifest.js';
import { plural, report, toBuildOptions } from '../shared.js';

/** A profile whose static prefix hash differs from the baseline's. */
interface PrefixChange {
  profile: string;
  source: string;
  old: string;
  new: string;
  allowed: boolean;
}

type StaleFile = { file: string; state: 'changed' | 'missing' | 'extra' };

export async function runCheck(options: CommonOptions, policy: CheckPolicy, io: Io): Promise<number> {
  const compiler = await createCompiler(await toBuildOptions(options));
  const { root, outDir } = compiler.options;
  const outRel = path.relative(root, outDir).split(path.sep).join('/') || '.';
  const result = await compiler.build();
  const bundle = result.bundle;
  const staleness = bundle ? await findStaleFiles(bundle.files, outDir) : null;
  const stale = staleness ? staleList(staleness, outRel) : [];
  // Stale because the options differ, not the sources: say which, or the suggested rebuild would undo them.
  const written = stale.length > 0 && bundle ? await readManifestArg(outDir).catch(() => null) : null;
  const otherOptions = written && bundle ? optionDifferences(written.options, bundle.manifest.options!) : [];
  const baseline = bundle && policy.allowStaticPrefixChange ? await readBaseline(policy, outDir) : null;
  const prefix = baseline && bundle ? prefixChanges(baseline, bundle.manifest, policy.allowStaticPrefixChange!) : [];
  // A project that commits its bundle and has none has shipped nothing reviewed: that fails, unless the project says it commits none.
  const missing = bundle !== null && staleness === null && !policy.allowMissingDist;
  const ok = result.ok && !missing && stale.length === 0 && prefix.every((c) => c.allowed);

  report(io, options, ok, result.diagnostics, {
    outDir: outRel,
    // False when nothing was compared: the build failed, or the directory does not exist.
    compared: staleness !== null,
    missing,
    stale,
    otherOptions,
    staticPrefixChanges: prefix,
  });
  if (options.reporter === 'github') {
    if (missing) io.out(annotation(outRel, 'check/missing-dist', `${outRel}/ does not exist; ${MISSING_HINT}`));
    if (otherOptions.length > 0) io.out(annotation(outRel, 'check/other-options', optionsMessage(outRel, otherOptions)));
    for (const s of stale) io.out(annotation(s.file, 'check/stale-dist', `${s.file} ${STATE_TEXT[s.state]}; ${REBUILD_HINT}`));
    for (const c of prefix.filter((x) => !x.allowed)) io.out(annotation(c.source, 'check/static-prefix-change', prefixMessage(c), 1));
  } else if (options.reporter === 'human') {
    printHuman(io, { ok, missing, bundle: bundle?.manifest ?? null, staleness, stale, otherOptions, prefix, outDir: outRel });
  }
  return ok ? 0 : 1;
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

/** The explicit baseline, or the manifest already in the out directory; null when there is none to compare with. */
async function readBaseline(policy: CheckPolicy, outDir: string): Promise<Manifest | null> {
  if (policy.baseline !== undefined) return readManifestArg(policy.baseline);
  return readManifestArg(outDir).catch(() => null);
}

function staleList(s: Staleness, outRel: string): StaleFile[] {
  const at = (rel: string) => path.posix.join(outRel, rel);
  return [
    ...s.changed.map((rel) => ({ file: at(rel), state: 'changed' as const })),
    ...s.missing.map((rel) => ({ file: at(rel), state: 'missing' as const })),
    ...s.extra.map((rel) => ({ file: at(rel), state: 'extra' as const })),
  ].sort((a, b) => (a.file < b.file ? -1 : 1));
}

const STATE_TEXT: Record<StaleFile['state'], string> = {
  changed: 'differs from what the sources produce',
  missing: 'is missing: the sources produce it',
  extra: 'is left over: the sources no longer produce it',
};
const REBUILD_HINT = 'run `prompt-build build` and commit the result';
const MISSING_HINT = 'run `prompt-build build` and commit the result, or pass --allow-missing-dist if the project does not commit its bundle';

function optionsMessage(outDir: string, differences: readonly string[]): string {
  return `${outDir}/ was built with other options: ${differences.join(', ')}; run check with the options the bundle was built with (a config file keeps them in one place), or rebuild with these`;
}

function prefixMessage(c: PrefixChange): string {
  return (
    `static prefix of profile '${c.profile}' changed (${c.old.slice(0, 12)} → ${c.new.slice(0, 12)}): ` +
    `every user's cached prompt prefix is lost; if intended, allow it with --allow-static-prefix-change ${c.profile}`
  );
}

interface Outcome {
  ok: boolean;
  missing: boolean;
  bundle: Manifest | null;
  staleness: Staleness | null;
  stale: StaleFile[];
  otherOptions: string[];
  prefix: PrefixChange[];
  outDir: string;
}

function printHuman(io: Io, o: Outcome): void {
  if (o.missing) io.err(`error: ${o.outDir}/ does not exist; ${MISSING_HINT}`);
  else if (o.bundle && o.staleness === null) io.err(`note: ${o.outDir}/ does not exist, so there is nothing to compare with`);
  if (o.otherOptions.length > 0) io.err(`error: ${optionsMessage(o.outDir, o.otherOptions)}`);
  else if (o.staleness && !isFresh(o.staleness)) {
    io.err(`${o.outDir}/ is stale: ${plural(o.stale.length, 'file')} differ from what the sources produce`);
    for (const s of o.stale) io.err(`  ${s.state.padEnd(7)}  ${s.file}`);
    io.err(`  ${REBUILD_HINT}`);
  }
  for (const c of o.prefix) {
    if (c.allowed) io.err(`note: static prefix of profile '${c.profile}' changed (allowed)`);
    else io.err(`error: ${prefixMessage(c)}`);
  }
  if (!o.ok || !o.bundle) {
    io.err('check failed');
    return;
  }
  const { profiles, agents } = o.bundle;
  const fresh = o.staleness ? `${o.outDir}/ up to date` : `${o.outDir}/ not compared`;
  io.err(`check passed: ${plural(Object.keys(profiles).length, 'profile')}, ${plural(Object.keys(agents).length, 'agent')}; ${fresh}`);
}

/** A GitHub workflow command; `line` is omitted for files (such as a missing artifact) with no line to point at. */
function annotation(file: string, title: string, message: string, line?: number): string {
  const position = line === undefined ? '' : `,line=${line},col=1`;
  return `::error file=${escapeProperty(file)}${position},title=${escapeProperty(title)}::${escapeData(message)}`;
}
