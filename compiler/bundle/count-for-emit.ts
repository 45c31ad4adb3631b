/**
 * The counters a build's emit stage needs: loaded once per compiler (the
 * tokenizer is loaded by the first build that emits, never by a no-change
 * build), and in exact mode the texts' count_tokens results fetched first —
 * emitting itself stays synchronous and pure.
 */
import type { BuildOptions } from '../core/options.js';
import type { CompiledAgent } from '../definitions/compiled.js';
import type { LinkedProfile } from '../link/linked-profile.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { fetchExactCounts } from '../tokens/exact-counts.js';
import { loadTokenCounting, type TokenCounting } from '../tokens/token-counters.js';

/** A compiler's own: the counters of a build without exact counts, kept for the next build. */
export interface TokenCountingLoader {
  loaded: Promise<TokenCounting> | null;
}

export async function countTokensForEmit(
  options: Pick<BuildOptions, 'models' | 'exactTokens' | 'cacheDir'>,
  profiles: readonly LinkedProfile[],
  agents: readonly CompiledAgent[],
  loader: TokenCountingLoader,
): Promise<{ counting: TokenCounting; diagnostics: Diagnostic[] }> {
  if (!options.exactTokens) {
    loader.loaded ??= loadTokenCounting(options.models);
    return { counting: await loader.loaded, diagnostics: [] };
  }
  const texts = new Set<string>();
  for (const profile of profiles) for (const section of profile.sections) if (section) texts.add(section.compiled.text);
  for (const agent of agents) texts.add(agent.compiled.text);
  const { counts, problem } = await fetchExactCounts({ models: options.models, texts: [...texts], cacheDir: options.cacheDir });
  const counting = await loadTokenCounting(options.models, counts);
  return { counting, diagnostics: problem === null ? [] : [unavailable(problem, profiles)] };
}

/** One warning, on the first profile file (the option has no file of its own until a config file exists). */
function unavailable(problem: string, profiles: readonly LinkedProfile[]): Diagnostic {
  const first = profiles.reduce<string | undefined>((a, p) => (a === undefined || p.def.source < a ? p.def.source : a), undefined) ?? 'prompts';
  return diagnostic('tokens/exact-unavailable', first, { line: 1, column: 1 }, `exact Claude token counts unavailable (${problem}): estimates used instead`, {
    severity: 'warning',
    note: 'texts already counted keep their exact counts (build cache); the rest are marked "estimate" in the manifest',
  });
}
