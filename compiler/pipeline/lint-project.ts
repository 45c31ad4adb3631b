/**
 * `lint` as a library call: build in memory, write nothing, and report the
 * build's diagnostics with the built-in rules' and the plugins' findings
 * (docs/lint.md). Fails on any error among them.
 */
import type { BuildOptions } from '../core/options.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostics.js';
import { createCompiler } from './compiler.js';
import { lintStage } from './lint-stage.js';

export interface LintResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** Sources read by the build. */
  sources: number;
}

export async function lintProject(options: Partial<BuildOptions> & { root: string }): Promise<LintResult> {
  const compiler = await createCompiler(options);
  const { result, found } = await compiler.closedAfter(async () => {
    // Nothing is written: only the manifest and the diagnostics are read.
    const result = await compiler.build(undefined, { files: false });
    return { result, found: await lintStage(compiler.options, { built: { compiler, result } }) };
  });
  const diagnostics = sortDiagnostics([...result.diagnostics, ...found]);
  return { ok: !hasErrors(diagnostics), diagnostics, sources: result.stats.sources };
}
