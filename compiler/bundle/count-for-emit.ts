/**
 * The counters a build's emit stage needs, with every text's count made
 * before emitting, so that emitting itself stays synchronous and pure: by
 * the thread the compiler's first build started (background-counter.ts),
 * else by a tokenizer loaded here, once per compiler (never by a no-change
 * build); in exact mode, with the texts' count_tokens results fetched first.
 */
import type { BuildOptions } from '../core/options.js';
import type { CompiledAgent } from '../definitions/compiled.js';
import type { LinkedProfile } from '../link/linked-profile.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { fetchExactCounts } from '../tokens/exact-counts.js';
import type { BackgroundCounter } from '../tokens/background-counter.js';
import { loadTokenCounting, tokenCounting, type TokenCounting } from '../tokens/token-counters.js';

/** A compiler's own, kept from one build to the next. */
export interface TokenCountingLoader {
  /** The counting thread; null when there is none (or it failed): counting is then done here. */
  background: BackgroundCounter | null;
  /** The counters of a build without exact counts, when counting is done here. */
  loaded: Promise<TokenCounting> | null;
}

export async function countTokensForEmit(
  options: Pick<BuildOptions, 'models' | 'exactTokens' | 'cacheDir'>,
  profiles: readonly LinkedProfile[],
  /** The agents, and the other texts emitted beside them (a Claude Code project's skills, commands…): only their text is read. */
  agents: readonly Pick<CompiledAgent, 'compiled'>[],
  loader: TokenCountingLoader,
): Promise<{ counting: TokenCounting; diagnostics: Diagnostic[] }> {
  if (!options.exactTokens) {
    const counted = await loader.background?.counterFor(textsOf(profiles, agents));
    if (counted) return { counting: tokenCounting(options.models, new Map(), counted), diagnostics: [] };
    // No thread, or it failed (then it is not asked again).
    loader.background = null;
    loader.loaded ??= loadTokenCounting(options.models);
    return { counting: await loader.loaded, diagnostics: [] };
  }
  const { counts, problem } = await fetchExactCounts({ models: options.models, texts: [...textsOf(profiles, agents)], cacheDir: options.cacheDir });
  const counting = await loadTokenCounting(options.models, counts);
  return { counting, diagnostics: problem === null ? [] : [unavailable(problem, profiles)] };
}

/** Every text emitting counts: each profile's sections', each agent's. */
function textsOf(profiles: readonly LinkedProfile[], agents: readonly Pick<CompiledAgent, 'compiled'>[]): Set<string> {
  const texts = new Set<string>();
  for (const profile of profiles) for (const section of profile.sections) if (section) texts.add(section.compiled.text);
  for (const agent of agents) texts.add(agent.compiled.text);
  return texts;
}

/** One warning, on the first profile file (the option has no file of its own until a config file exists). */
function unavailable(problem: string, profiles: readonly LinkedProfile[]): Diagnostic {
  const first = profiles.reduce<string | undefined>((a, p) => (a === undefined || p.def.source < a ? p.def.source : a), undefined) ?? 'prompts';
  return diagnostic('tokens/exact-unavailable', first, { line: 1, column: 1 }, `exact Claude token counts unavailable (${problem}): estimates used instead`, {
    severity: 'warning',
    note: 'texts already counted keep their exact counts (build cache); the rest are marked "estimate" in the manifest',
  });
}
