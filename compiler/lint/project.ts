/**
 * What the built-in rules read (docs/lint.md#built-in-rules): what a build
 * compiled — every section, agent and profile, each source by path — and,
 * when it emitted, the manifest with its token counts. The rules build no
 * tree and parse nothing again but the few files they must look into.
 */
import type { CompiledAgent, CompiledClaudeFile, CompiledSection } from '../definitions/compiled.js';
import type { LinkedProfile } from '../link/linked-profile.js';
import type { Source } from '../markdown/source.js';
import type { Manifest } from '../runtime/manifest.js';

export interface CompiledProject {
  /** Every section that compiled, in path order. */
  sections: readonly CompiledSection[];
  agents: readonly CompiledAgent[];
  /** A Claude Code project's skills, commands, output styles and rules that compiled (docs/claude-code.md), in path order; none when absent. */
  claudeFiles?: readonly CompiledClaudeFile[];
  profiles: readonly LinkedProfile[];
  /** A loaded source by root-relative path: the project's and the files they include. */
  source: (rel: string) => Source | undefined;
}

export interface LintInput {
  project: CompiledProject;
  /** The emitted manifest; null when the build had errors (the rules that need token counts then say nothing). */
  manifest: Manifest | null;
  /** The configured models, the first one's count being the manifest's `tokens`. */
  models: readonly string[];
}
