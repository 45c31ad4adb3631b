/**
 * Which cache facts apply to a configured model id. Ids come in many
 * spellings — dated (`claude-3-5-haiku-20241022`), Bedrock
 * (`us.anthropic.claude-haiku-4-5-20251001-v1:0`, `us.amazon.nova-pro-v1:0`), Vertex
 * (`claude-opus-4-5@20251101`), router (`anthropic/claude-sonnet-4.5`),
 * Claude Code's context suffix (`claude-opus-5-5[1m]`) — so
 * an id is first brought to a canonical form, then matched: exact ids before
 * prefixes, the longest prefix first, the user's facts before the built-in
 * ones. Claude rows match exactly only: `claude-opus-4` must not claim
 * `claude-opus-4-7`, whose facts are not known (that is a warning, not a guess).
 */
import { CACHE_FACTS, MODELS_WITHOUT_FACTS, type CacheFact, type CacheFactProvider, type FactlessModel } from './cache-facts.js';

/** Where a model runs; Vertex serves Anthropic's models under Anthropic's rules. */
export type ModelHost = CacheFactProvider | 'vertex';

export interface CanonicalModelId {
  host: ModelHost | null;
  id: string;
}

/** Anthropic's models on Bedrock, and Amazon's own (Nova), with or without a cross-region prefix. */
const BEDROCK_ID = /^(?:(?:us|eu|apac|au|ca|jp|us-gov|global)\.)?(?:anthropic|amazon)\.(.+)$/;
const VERTEX_ID = /^(claude-[^@]+)@(?:\d{8}|latest|default)$/;

export function canonicalModelId(model: string): CanonicalModelId {
  let id = model.trim().toLowerCase();
  let host: ModelHost | null = null;
  const bedrock = BEDROCK_ID.exec(id);
  const vertex = VERTEX_ID.exec(id);
  if (bedrock) [host, id] = ['bedrock', bedrock[1]!.replace(/-v\d+(?::\d+)?$/, '')];
  else if (vertex) [host, id] = ['vertex', vertex[1]!];
  id = id.replace(/^(?:anthropic|openai|google|models)\//, '');
  if (id.startsWith('claude')) {
    // `claude-sonnet-4.5` (router spelling) is `claude-sonnet-4-5`; dates, `-latest`, `:thinking` and `[1m]` name no other model.
    id = id.replace(/(\d)\.(\d)/g, '$1-$2').replace(/\[\d+[km]\]$/, '').replace(/:[a-z]+$/, '').replace(/-(?:\d{8}|latest)$/, '');
    host ??= 'anthropic';
  } else if (/^(?:gpt-|o\d|chatgpt-)/.test(id)) {
    id = id.replace(/-\d{4}-\d{2}-\d{2}$/, '');
    host = 'openai';
  } else if (id.startsWith('gemini-')) {
    id = id.replace(/-(?:preview|exp)(?:-[\w.-]*)?$/, '').replace(/-(?:\d{3}|latest)$/, '');
    host = 'gemini';
  }
  return { host, id };
}

export interface ResolvedCacheFact {
  fact: CacheFact;
  /** How the id was read, e.g. `claude-haiku-4-5 on bedrock`. */
  canonical: CanonicalModelId;
  /** Set when a Bedrock or Vertex id uses Anthropic's row. */
  via?: 'anthropic';
}

const SEARCH_ORDER: Readonly<Record<ModelHost, readonly CacheFactProvider[]>> = {
  anthropic: ['anthropic'],
  vertex: ['anthropic'],
  bedrock: ['bedrock', 'anthropic'],
  openai: ['openai'],
  gemini: ['gemini'],
};
const EVERY_PROVIDER: readonly CacheFactProvider[] = ['anthropic', 'bedrock', 'openai', 'gemini'];

/** The facts for `model`, or undefined when none are known; `extra` (the user's) win over the built-in ones. */
export function resolveCacheFact(model: string, extra: readonly CacheFact[] = []): ResolvedCacheFact | undefined {
  const canonical = canonicalModelId(model);
  // An id of no known shape may still be one the user has facts for.
  const providers = canonical.host === null ? EVERY_PROVIDER : SEARCH_ORDER[canonical.host];
  for (const table of [extra, CACHE_FACTS]) {
    for (const provider of providers) {
      const fact = match(table.filter((f) => f.provider === provider), canonical.id);
      if (!fact) continue;
      const borrowed = fact.provider === 'anthropic' && (canonical.host === 'bedrock' || canonical.host === 'vertex');
      return borrowed ? { fact, canonical, via: 'anthropic' } : { fact, canonical };
    }
  }
  return undefined;
}

function match(facts: readonly CacheFact[], id: string): CacheFact | undefined {
  const exact = facts.find((f) => f.ids.includes(id));
  if (exact) return exact;
  let best: { fact: CacheFact; length: number } | undefined;
  for (const fact of facts) {
    for (const prefix of fact.prefixes ?? []) {
      const boundary = id.charAt(prefix.length);
      if (id.startsWith(prefix) && (boundary === '' || boundary === '-' || boundary === '.') && prefix.length > (best?.length ?? -1)) {
        best = { fact, length: prefix.length };
      }
    }
  }
  return best?.fact;
}

/** A current model the sources name without giving its minimum (cache-facts.ts), for the unknown-model warning's words. */
export function factlessModel(model: string): FactlessModel | undefined {
  const { host, id } = canonicalModelId(model);
  const providers = host === null ? EVERY_PROVIDER : SEARCH_ORDER[host];
  return MODELS_WITHOUT_FACTS.find((m) => providers.includes(m.provider) && m.ids.includes(id));
}

/** @deprecated Use `resolveCacheFact`: the facts that apply to `model`, or undefined. */
export function minimumCacheableTokens(model: string): CacheFact | undefined {
  return resolveCacheFact(model)?.fact;
}
