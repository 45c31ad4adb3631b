/**
 * Stage 6, emit, as the build runs it: the token counters of the configured
 * models loaded (by the first build that emits: a no-change build never gets
 * here), the bundle emitted, and the project's rule levels applied to what
 * counting and emitting found.
 */
import type { BuildOptions } from '../core/options.js';
import type { CompiledAgent, CompiledClaudeFile, CompiledSection } from '../definitions/compiled.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { applyRuleLevels } from '../diagnostics/rule-levels.js';
import type { LinkedProfile } from '../link/linked-profile.js';
import type { SkippedAgent, SourceEntry } from '../runtime/manifest.js';
import { countTokensForEmit, type TokenCountingLoader } from './count-for-emit.js';
import { emitBundle, type EmitCache, type EmittedBundle } from './emit.js';
import { outputOptions } from './output-options.js';

export interface EmitStageInput {
  profiles: readonly LinkedProfile[];
  unused: readonly CompiledSection[];
  agents: readonly CompiledAgent[];
  /** Agent files left out, by path: recorded in the manifest. */
  skippedAgents: Readonly<Record<string, SkippedAgent>>;
  /** A Claude Code project's other files (docs/claude-code.md): those that compiled, and those Claude Code skips, by path. */
  claudeFiles: readonly CompiledClaudeFile[];
  skippedClaudeFiles: Readonly<Record<string, SkippedAgent>>;
  sources: Readonly<Record<string, SourceEntry>>;
  /** Assemble the bundle's files (default: yes); without, only the manifest and the diagnostics. */
  files?: boolean;
}

export async function emitStage(
  input: EmitStageInput,
  options: BuildOptions,
  cache: EmitCache,
  tokenCounting: TokenCountingLoader,
): Promise<{ bundle: EmittedBundle; diagnostics: Diagnostic[] }> {
  const tokens = await countTokensForEmit(options, input.profiles, [...input.agents, ...input.claudeFiles], tokenCounting);
  const bundle = emitBundle(
    {
      ...input,
      models: options.models,
      cacheFacts: options.cacheFacts,
      ...(options.today === undefined ? {} : { today: options.today }),
      targets: options.targets,
      options: outputOptions(options),
      tokens: tokens.counting,
    },
    cache,
  );
  return { bundle, diagnostics: applyRuleLevels([...tokens.diagnostics, ...bundle.diagnostics], options.ruleLevels) };
}
