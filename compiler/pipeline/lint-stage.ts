/**
 * What lint adds to a build (docs/lint.md): the built-in rules' findings over
 * what it compiled, and the project's plugins' over each source's tree, with
 * the project's rule levels laid over both. `lint` and `check` ask for both;
 * `build` for the plugins only, so a build without plugins runs nothing
 * here, and one with them runs them even when it finds nothing else to do
 * (a plugin is code the up-to-date stamp cannot see).
 *
 * The plugins read the sources from disk, as the build does (regular files
 * inside the root, within the size limit): a build that was up to date has
 * loaded none.
 */
import path from 'node:path';
import type { BuildOptions } from '../core/options.js';
import { isInside, realish } from '../core/paths.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { applyRuleLevels } from '../diagnostics/rule-levels.js';
import { runBuiltInRules } from '../lint/built-in-rules.js';
import { normaliseText, readTextFileSync } from '../markdown/source.js';
import type { BuildResult, Compiler } from './compiler.js';
import { discoverSources } from './discover.js';

export interface LintRequest {
  /** The build to run the built-in rules over; null for none (a `build`, or one that was up to date). */
  built: { compiler: Compiler; result: BuildResult } | null;
}

/** The plugins are `options.plugins`: none with `--no-plugins`. */
export async function lintStage(options: BuildOptions, { built }: LintRequest): Promise<Diagnostic[]> {
  const found: Diagnostic[] = [];
  if (built) {
    const input = { project: built.compiler.compiledProject(), manifest: built.result.bundle?.manifest ?? null, models: options.models };
    for (const d of runBuiltInRules(input)) found.push(d);
  }
  if (options.plugins.length > 0) {
    // unified and remark are loaded only for a project with plugins.
    const { runPlugins } = await import('../lint/run-plugins.js');
    for (const d of await runPlugins(await readSources(options), options.plugins, options.extensions)) found.push(d);
  }
  return applyRuleLevels(found, options.ruleLevels);
}

/** The project's sources as the build reads them; what it cannot read it reports itself, so here it is left out. */
async function readSources(options: BuildOptions): Promise<Array<{ rel: string; text: string }>> {
  const root = realish(options.root);
  const out: Array<{ rel: string; text: string }> = [];
  for (const rel of await discoverSources(options.root, options.sourceDirs, options.agentIgnore)) {
    const file = path.join(options.root, rel);
    if (!isInside(root, realish(file))) continue;
    const read = readTextFileSync(file, options.maxBytes);
    if (read.ok) out.push({ rel, text: normaliseText(read.bytes) });
  }
  return out;
}
