/**
 * `prompt-build lint`: the build in memory, nothing written, its diagnostics
 * with the built-in rules' and the plugins' findings (docs/lint.md). Exit 1
 * on an error among them.
 */
import { lintProject } from '../../pipeline/lint-project.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { plural, report, toBuildOptions } from '../shared.js';

/** `plugins`: run the config's plugins (false: `--no-plugins`). */
export async function runLint(options: CommonOptions, io: Io, plugins = true): Promise<number> {
  const result = await lintProject(await toBuildOptions(options, { plugins }));
  report(io, options, result.ok, result.diagnostics, { sources: result.sources });
  if (options.reporter === 'human') io.err(`${result.ok ? 'lint passed' : 'lint failed'}: ${plural(result.sources, 'source')} read`);
  return result.ok ? 0 : 1;
}
