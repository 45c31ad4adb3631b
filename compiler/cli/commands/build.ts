import path from 'node:path';
import { buildProject } from '../../pipeline/project.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { plural, report, toBuildOptions } from '../shared.js';
import type { Manifest } from '../../runtime/manifest.js';
import { claudeCodeParts } from '../claude-code-parts.js';

/** `plugins`: run the config's plugins (false: `--no-plugins`). */
export async function runBuild(options: CommonOptions, io: Io, plugins = true): Promise<number> {
  // process.hrtime, not performance.now(): the global `performance` loads perf_hooks, ten modules, on first use.
  const started = process.hrtime.bigint();
  const buildOptions = await toBuildOptions(options, { plugins });
  const result = await buildProject(buildOptions);
  const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const out = path.relative(process.cwd(), buildOptions.outDir!) || '.';
  report(io, options, result.ok, result.diagnostics, { outDir: out, written: result.written?.written.length ?? 0 });
  if (options.reporter === 'human' && result.manifest) {
    const m = result.manifest;
    const written = result.upToDate
      ? 'up to date'
      : result.written
        ? `${plural(result.written.written.length, 'file')} written`
        : 'nothing written';
    const skipped = Object.keys(m.skippedAgents ?? {}).length;
    io.err(
      `built ${plural(Object.keys(m.profiles).length, 'profile')}, ${plural(Object.keys(m.agents).length, 'agent')} ` +
        (skipped > 0 ? `(${plural(skipped, 'agent file')} skipped, listed in the manifest's skippedAgents) ` : '') +
        claudeCodeCounts(m) +
        `from ${plural(result.stats.sources, 'source')} into ${out}/ (${written}) in ${ms} ms`,
    );
  } else if (options.reporter === 'human' && !result.ok) {
    io.err(`${out}/ left unchanged`);
  }
  return result.ok ? 0 : 1;
}

/** `2 skills, 1 command (1 Claude Code file skipped…) `: what a Claude Code project's other folders gave, when the config names any. */
function claudeCodeCounts({ claudeCode }: Manifest): string {
  if (!claudeCode) return '';
  const counts = claudeCodeParts(claudeCode).map(([entries, word]) => plural(Object.keys(entries ?? {}).length, word)).join(', ');
  const skipped = Object.keys(claudeCode.skipped ?? {}).length;
  return `and ${counts} ` + (skipped > 0 ? `(${plural(skipped, 'Claude Code file')} skipped, listed in the manifest's claudeCode.skipped) ` : '');
}
