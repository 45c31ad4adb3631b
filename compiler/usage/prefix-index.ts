/**
 * What the bundles given to `prompt-build usage` say about a prefix seen in
 * a log, by its static prefix hash: its static sections, and its size by
 * the bundle's own count for a model, judged against that model's minimum
 * (the one verdict the build gives: `prefixVerdict`).
 */
import { prefixVerdict, type PrefixVerdict } from '../cache-facts/cache-economics.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import { resolveCacheFact } from '../cache-facts/cache-fact-lookup.js';
import type { Manifest, ProfileEntry } from '../runtime/manifest.js';
import { profileStaticSections, type StaticSection } from '../runtime/usage-bundle.js';
import { staticCountFor } from '../tokens/counter-names.js';

interface KnownPrefix {
  /** `profile` or `agent`, and its name. */
  kind: 'profile' | 'agent';
  name: string;
  sections: StaticSection[];
  /** The counts, shaped as a profile's (an agent's text is all prefix). */
  counts: Pick<ProfileEntry, 'staticTokens' | 'staticTokenCounts'>;
}

export interface PrefixSize {
  tokens: number;
  /** How far the count may be off (a fraction; 0: exact). */
  error: number;
  minimum: number;
  verdict: PrefixVerdict;
}

export class PrefixIndex {
  private readonly prefixes = new Map<string, KnownPrefix>();

  constructor(manifests: readonly Manifest[], private readonly facts: readonly CacheFact[] = []) {
    for (const manifest of manifests) {
      for (const [name, profile] of Object.entries(manifest.profiles)) {
        this.prefixes.set(profile.staticPrefixHash, { kind: 'profile', name, sections: profileStaticSections(profile), counts: profile });
      }
      for (const [name, agent] of Object.entries(manifest.agents)) {
        this.prefixes.set(agent.hash, { kind: 'agent', name, sections: [[name, agent.hash]], counts: { staticTokens: agent.tokens, staticTokenCounts: agent.tokenCounts } });
      }
    }
  }

  get size(): number {
    return this.prefixes.size;
  }

  /** The static sections of the prefix with this hash, or null when no given bundle holds it. */
  sections(hash: string | null): StaticSection[] | null {
    return hash === null ? null : (this.prefixes.get(hash)?.sections ?? null);
  }

  /** The prefix's size by the bundle's count for `model` and that model's minimum, or null when either is unknown. */
  sizeFor(hash: string | null, model: string | null): PrefixSize | null {
    const prefix = hash === null ? undefined : this.prefixes.get(hash);
    const fact = model === null ? undefined : resolveCacheFact(model, this.facts)?.fact;
    if (prefix === undefined || fact === undefined || model === null) return null;
    const count = staticCountFor(prefix.counts as ProfileEntry, model);
    return { ...count, minimum: fact.minimumTokens, verdict: prefixVerdict(count.tokens, count.error, fact.minimumTokens) };
  }
}
