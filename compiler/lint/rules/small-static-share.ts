/**
 * `profile/small-static-share` (docs/lint.md#small-static-share), an
 * info: a profile whose static prefix — the part cached once for every user
 * — is under half of its text, counted by the first configured model's
 * counter (a dynamic section counted as its template), with enough in its
 * dynamic sections to be worth moving. What they hold that is the same for
 * every user could move into static sections, where every user shares the
 * cache. A profile with `cacheWarning: false` is left alone.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostics.js';
import type { LintInput } from '../project.js';

/** Below this share of the profile's tokens, the prefix is called small. */
export const SMALL_STATIC_SHARE = 0.5;
/** Fewer tokens than this in the dynamic sections would gain little moved: not reported. */
export const MIN_DYNAMIC_TOKENS = 200;

export function smallStaticShares(input: LintInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  // `cacheWarning: false`: the profile's author has said its caching is as meant (a prompt short by design, texts rendered one by one).
  const quiet = new Set(input.project.profiles.filter(({ def }) => !def.cacheWarning).map(({ def }) => def.name));
  for (const profile of Object.values(input.manifest?.profiles ?? {})) {
    const dynamic = profile.sections.slice(profile.boundaryIndex);
    const total = profile.sections.reduce((n, s) => n + s.tokens, 0);
    const moved = total - profile.staticTokens;
    if (quiet.has(profile.name) || dynamic.length === 0 || moved < MIN_DYNAMIC_TOKENS || profile.staticTokens / total >= SMALL_STATIC_SHARE) continue;
    const percent = Math.round((profile.staticTokens / total) * 100);
    out.push(
      diagnostic('profile/small-static-share', profile.source, { line: 1, column: 1 }, `profile '${profile.name}': its static prefix is ${percent} % of its text (~${profile.staticTokens} of ~${total} tokens)`, {
        note:
          `its dynamic sections (${dynamic.map((s) => s.name).join(', ')}) hold ~${moved} tokens of template, cached per session at best; ` +
          `whatever in them is the same for every user could move into a static section, where every user shares the cache: up to ~${moved} tokens more in the shared prefix`,
      }),
    );
  }
  return out;
}
