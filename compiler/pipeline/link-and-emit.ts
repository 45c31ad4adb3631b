/**
 * Stages 5 and 6 of the build (see pipeline.ts): the compiled sources linked
 * into profiles and checked as a whole (names, profile order), the project's
 * rule levels applied, and the bundle emitted — or not, on any error.
 */
import type { BuildOptions } from '../core/options.js';
import { checkProfiles } from '../link/profile-checks.js';
import { emitBundle, type Bundle, type CompiledAgent, type CompiledSection, type EmitCache, type ProfileInput } from '../bundle/emit.js';
import { outputOptions } from '../bundle/output-options.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics/diagnostics.js';
import { applyRuleLevels } from '../diagnostics/rule-levels.js';
import { countTokensForEmit, type TokenCountingLoader } from '../bundle/count-for-emit.js';
import type { SkippedAgent, SourceEntry } from '../runtime/manifest.js';

export interface LinkInput {
  /** Every source's own diagnostics and the duplicate-name ones, in path order. */
  diagnostics: Diagnostic[];
  profiles: readonly ProfileInput[];
  /** Every section name there is, asked for only by the note on an unknown one. */
  sectionNamesKnown: () => string[];
  unused: readonly CompiledSection[];
  agents: readonly CompiledAgent[];
  /** Agent files left out, by path: recorded in the manifest. */
  skippedAgents: Readonly<Record<string, SkippedAgent>>;
  sources: Readonly<Record<string, SourceEntry>>;
}

export async function linkAndEmit(
  input: LinkInput,
  options: BuildOptions,
  cache: EmitCache,
  tokenCounting: TokenCountingLoader,
): Promise<{ bundle: Bundle | null; diagnostics: Diagnostic[] }> {
  const found = [...input.diagnostics, ...checkProfiles(input.profiles, input.sectionNamesKnown, cache)];
  // The project's rule levels, once: they decide whether anything is emitted.
  const diagnostics = applyRuleLevels(found, options.ruleLevels);
  let emitted: Bundle | null = null;
  if (!hasErrors(diagnostics)) {
    // The token counters are loaded here, by the first build that emits: a no-change build never gets this far.
    const tokens = await countTokensForEmit(options, input.profiles, input.agents, tokenCounting);
    emitted = emitBundle(
      {
        unused: input.unused,
        profiles: input.profiles,
        agents: input.agents,
        skippedAgents: input.skippedAgents,
        sources: input.sources,
        models: options.models,
        cacheFacts: options.cacheFacts,
        ...(options.today === undefined ? {} : { today: options.today }),
        targets: options.targets,
        options: outputOptions(options),
        tokens: tokens.counting,
      },
      cache,
    );
    for (const d of applyRuleLevels([...tokens.diagnostics, ...emitted.diagnostics], options.ruleLevels)) diagnostics.push(d);
  }
  const sorted = dedupe(sortDiagnostics(diagnostics));
  // A warning of emit's that the project made an error (`cache/prefix-below-minimum`…) fails the build too.
  return { bundle: emitted && !hasErrors(sorted) ? emitted : null, diagnostics: sorted };
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.rule}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
