/**
 * `prompt-build check`: the CI gate. Builds in memory and writes nothing;
 * fails on diagnostics, on a `dist/` that differs from what the sources
 * produce, and — with `--allow-static-prefix-change` — on a static prefix hash
 * change (a global prompt-cache bust) of a profile not allowed to change.
 */
import { checkBundle, type CheckResult, type PrefixChange, type StaleFile } from '../../pipeline/check-bundle.js';
import { escapeData, escapeProperty } from '../../diagnostics/format.js';
import { terminalSafe } from '../../diagnostics/terminal-safe.js';
import type { CheckFlags, CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { readManifestArg } from '../read-manifest.js';
import { plural, report, toBuildOptions } from '../shared.js';

/** `plugins`: run the config's plugins (false: `--no-plugins`). */
export async function runCheck(options: CommonOptions, policy: CheckFlags, io: Io, plugins = true): Promise<number> {
  const result = await checkBundle(await toBuildOptions(options, { plugins }), {
    ...(policy.allowStaticPrefixChange === undefined ? {} : { allowStaticPrefixChange: policy.allowStaticPrefixChange }),
    ...(policy.baseline === undefined ? {} : { baseline: await readManifestArg(policy.baseline) }),
    allowMissingDist: policy.allowMissingDist,
  });
  const { ok, diagnostics, manifest: _manifest, outDir, ...extra } = result;
  report(io, options, ok, diagnostics, { outDir, ...extra });
  if (options.reporter === 'github') printGithub(io, result);
  else if (options.reporter === 'human') printHuman(io, result);
  return ok ? 0 : 1;
}

function printGithub(io: Io, r: CheckResult): void {
  if (r.missing) io.out(annotation(r.outDir, 'check/missing-dist', `${r.outDir}/ does not exist; ${MISSING_HINT}`));
  if (r.otherOptions.length > 0) io.out(annotation(r.outDir, 'check/other-options', optionsMessage(r.outDir, r.otherOptions)));
  for (const s of r.stale) io.out(annotation(s.file, 'check/stale-dist', `${s.file} ${STATE_TEXT[s.state]}; ${REBUILD_HINT}`));
  for (const c of r.staticPrefixChanges.filter((x) => !x.allowed)) io.out(annotation(c.source, 'check/static-prefix-change', prefixMessage(c), 1));
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

/** Stale files named on a terminal: enough to see what happened, not a screenful per rebuilt bundle. */
const STALE_SHOWN = 10;

/** Names and paths here come from the bundle, a baseline or the file system: shown through terminalSafe, as diagnostics are. */
function printHuman(io: Io, result: CheckResult): void {
  const err = (line: string) => io.err(terminalSafe(line));
  printHumanTo({ err }, result);
}

function printHumanTo(io: Pick<Io, 'err'>, o: CheckResult): void {
  if (o.missing) io.err(`error: ${o.outDir}/ does not exist; ${MISSING_HINT}`);
  else if (o.manifest && !o.compared) io.err(`note: ${o.outDir}/ does not exist, so there is nothing to compare with`);
  if (o.otherOptions.length > 0) io.err(`error: ${optionsMessage(o.outDir, o.otherOptions)}`);
  else if (o.stale.length > 0) {
    io.err(`${o.outDir}/ is stale: ${plural(o.stale.length, 'file')} differ from what the sources produce`);
    for (const s of o.stale.slice(0, STALE_SHOWN)) io.err(`  ${s.state.padEnd(7)}  ${s.file}`);
    if (o.stale.length > STALE_SHOWN) io.err(`  … and ${o.stale.length - STALE_SHOWN} more (--reporter json lists every one)`);
    io.err(`  ${REBUILD_HINT}`);
  }
  for (const c of o.staticPrefixChanges) {
    if (c.allowed) io.err(`note: static prefix of profile '${c.profile}' changed (allowed)`);
    else io.err(`error: ${prefixMessage(c)}`);
  }
  if (!o.ok || !o.manifest) {
    io.err('check failed');
    return;
  }
  const { profiles, agents } = o.manifest;
  const fresh = o.compared ? `${o.outDir}/ up to date` : `${o.outDir}/ not compared`;
  io.err(`check passed: ${plural(Object.keys(profiles).length, 'profile')}, ${plural(Object.keys(agents).length, 'agent')}; ${fresh}`);
}

/** A GitHub workflow command; `line` is omitted for files (such as a missing artifact) with no line to point at. */
function annotation(file: string, title: string, message: string, line?: number): string {
  const position = line === undefined ? '' : `,line=${line},col=1`;
  return `::error file=${escapeProperty(file)}${position},title=${escapeProperty(title)}::${escapeData(message)}`;
}
