/**
 * Provider prompt-cache facts, as data: per provider and model family, the
 * minimum cacheable prefix (below it a provider silently does not cache at
 * all), the breakpoint limit, the TTLs and the price multipliers. Every row
 * names its source and the day it was read. Where sources disagree the row
 * says so, and `minimumTokens` — what the build warns below — takes the safe
 * (larger) side. Matching a model id to a row: `cache-fact-lookup.ts`.
 */

export type CacheFactProvider = 'anthropic' | 'bedrock' | 'openai' | 'gemini';

export interface CacheFact {
  provider: CacheFactProvider;
  /** Human name, e.g. `Claude Opus 4.5`. */
  family: string;
  /** Canonical model ids (see `canonicalModelId`) this row is for, matched exactly. */
  ids: readonly string[];
  /** Canonical id prefixes matched at a `-` or `.` boundary (`gpt-5` → `gpt-5-mini`, `gpt-5.1`); the longest wins. */
  prefixes?: readonly string[];
  /** The threshold the build warns below: the documented minimum, or the larger figure where sources disagree. */
  minimumTokens: number;
  /** The documented minimum, when `minimumTokens` is a larger, observed one. */
  documentedMinimumTokens?: number;
  /** `breakpoints`: the request marks what to cache; `automatic`: the provider caches prefixes by itself. */
  caching: 'breakpoints' | 'automatic';
  /** Breakpoints a request may hold, when `caching` is `breakpoints`. */
  maxBreakpoints?: number;
  /** Automatic caching extends the cached prefix in steps of this many tokens. */
  prefixIncrement?: number;
  /** Cache lifetimes a request may choose; the first is the default. Empty: set by the provider. */
  ttls: readonly string[];
  /** Price of a cache write per TTL (`automatic` for automatic caching), as a multiple of the base input price. */
  writeMultiplier: Readonly<Record<string, number>>;
  /** Price of a cached (read) token as a multiple of the base input price. */
  readMultiplier: number;
  /** Where the figures come from. */
  source: string;
  /** The day the source was read (YYYY-MM-DD). */
  read: string;
  note?: string;
}

const ANTHROPIC_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const ANTHROPIC_PRICES = 'https://platform.claude.com/docs/en/about-claude/pricing';
const ANTHROPIC_SOURCE = `${ANTHROPIC_CACHING} (minimum cacheable prompt length; the table as quoted in anthropics/anthropic-sdk-python#1194); ${ANTHROPIC_PRICES} (5m / 1h cache writes, cache hits)`;
const READ = '2026-12-01';

function claude(family: string, ids: readonly string[], minimumTokens: number, extra: Partial<CacheFact> = {}): CacheFact {
  return {
    provider: 'anthropic',
    family,
    ids,
    minimumTokens,
    caching: 'breakpoints',
    maxBreakpoints: 4,
    ttls: ['5m', '1h'],
    writeMultiplier: { '5m': 1.25, '1h': 2 },
    readMultiplier: 0.1,
    source: ANTHROPIC_SOURCE,
    read: READ,
    ...extra,
  };
}

/** Anthropic's first-party API; Google Vertex AI serves the same models under the same rules (see the lookup). */
const ANTHROPIC: readonly CacheFact[] = [
  claude('Claude Opus 4.8', ['claude-opus-4-8'], 1024, {
    source: `https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-8 ("a lower 1,024-token minimum cacheable prompt length"); ${ANTHROPIC_PRICES}`,
  }),
  claude('Claude Opus 4.6', ['claude-opus-4-6'], 4096),
  claude('Claude Opus 4.5', ['claude-opus-4-5'], 4096),
  claude('Claude Opus 4.1', ['claude-opus-4-1'], 1024),
  claude('Claude Opus 4', ['claude-opus-4', 'claude-4-opus'], 1024),
  claude('Claude Sonnet 4.6', ['claude-sonnet-4-6'], 2048, {
    documentedMinimumTokens: 1024,
    note:
      "Anthropic's table says 1,024; anthropics/anthropic-sdk-python#1194 reports no cache below 2,048 in practice, " +
      'and docs.orq.ai/docs/proxy/prompt-caching lists 2,048. The build warns below 2,048.',
  }),
  claude('Claude Sonnet 4.5', ['claude-sonnet-4-5'], 1024),
  claude('Claude Sonnet 4', ['claude-sonnet-4', 'claude-4-sonnet'], 1024),
  claude('Claude Sonnet 3.7', ['claude-3-7-sonnet'], 1024),
  claude('Claude Haiku 4.5', ['claude-haiku-4-5'], 4096),
  claude('Claude Haiku 3.5', ['claude-3-5-haiku'], 2048),
  claude('Claude Haiku 3', ['claude-3-haiku'], 2048),
];

/**
 * An id without a version (`claude-sonnet`, the default model list) could be
 * any model of the line: the largest minimum among them, so a prefix that
 * passes is cached on each.
 */
function lineAlias(id: string, line: string): CacheFact {
  const members = ANTHROPIC.filter((fact) => fact.family.startsWith(`${line} `));
  const strictest = members.reduce((a, b) => (b.minimumTokens > a.minimumTokens ? b : a));
  return claude(`${line} (any version)`, [id], strictest.minimumTokens, {
    note: `no version given: the largest minimum among ${members.map((m) => m.family).join(', ')} (${strictest.family})`,
  });
}

const BEDROCK_SOURCE = 'https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html (minimum tokens per cache checkpoint)';

function bedrock(family: string, ids: readonly string[], minimumTokens: number, note: string): CacheFact {
  return {
    ...claude(family, ids, minimumTokens),
    provider: 'bedrock',
    source: BEDROCK_SOURCE,
    note: `${note} Price multipliers are Anthropic's; the Bedrock pricing page was not read.`,
  };
}

/** Bedrock rows where its guide gives a figure; other Claude ids on Bedrock fall back to Anthropic's rows. */
const BEDROCK: readonly CacheFact[] = [
  bedrock('Claude Haiku 4.5 on Bedrock', ['claude-haiku-4-5'], 4096, 'Also stated by strandsagents.com (Bedrock prompt caching): 4,096 for Claude Haiku.'),
  bedrock('Claude Sonnet 3.7 on Bedrock', ['claude-3-7-sonnet'], 1024, 'The guide\'s example: "at least 1,024 tokens per cache checkpoint".'),
];

const OPENAI_SOURCE =
  'https://developers.openai.com/api/docs/guides/prompt-caching (automatic from 1,024 tokens, 128-token steps); ' +
  'https://developers.openai.com/api/docs/pricing (cached input), as summarised in the api-evangelist pricing post of 2026-11-06';

function openai(family: string, prefix: string, readMultiplier: number): CacheFact {
  return {
    provider: 'openai',
    family,
    ids: [],
    prefixes: [prefix],
    minimumTokens: 1024,
    caching: 'automatic',
    prefixIncrement: 128,
    ttls: [],
    writeMultiplier: { automatic: 1 },
    readMultiplier,
    source: OPENAI_SOURCE,
    read: READ,
    note: 'No write surcharge; the cache lasts minutes in memory (24 h with extended retention). gpt-5.6 and later also take explicit breakpoints.',
  };
}

const OPENAI: readonly CacheFact[] = [
  openai('GPT-5 family', 'gpt-5', 0.1),
  openai('GPT-4.1 family', 'gpt-4.1', 0.25),
  openai('GPT-4o family', 'gpt-4o', 0.5),
];

const GEMINI_SOURCE =
  'https://ai.google.dev/gemini-api/docs/caching (implicit caching, minimum input tokens per model); ' +
  'https://docs.cloud.google.com/vertex-ai/generative-ai/docs/context-cache/context-cache-overview (90 % discount on implicit cache hits)';

function gemini(family: string, id: string, minimumTokens: number, note: string, documentedMinimumTokens?: number): CacheFact {
  return {
    provider: 'gemini',
    family,
    ids: [id],
    minimumTokens,
    ...(documentedMinimumTokens === undefined ? {} : { documentedMinimumTokens }),
    caching: 'automatic',
    ttls: [],
    writeMultiplier: { automatic: 1 },
    readMultiplier: 0.1,
    source: GEMINI_SOURCE,
    read: READ,
    note,
  };
}

const GEMINI: readonly CacheFact[] = [
  gemini(
    'Gemini 2.5 Flash',
    'gemini-2.5-flash',
    2048,
    'Versions of the caching page disagree: 1,024 (last updated 2026-05-07), 2,048 (2026-07-07, 2026-10-13). The build warns below 2,048.',
    1024,
  ),
  gemini(
    'Gemini 2.5 Pro',
    'gemini-2.5-pro',
    4096,
    'Versions of the caching page disagree: 4,096 (last updated 2026-05-07), 2,048 (2026-07-07, 2026-10-13). The build warns below 4,096.',
    2048,
  ),
  gemini('Gemini 3.1 Pro', 'gemini-3.1-pro', 4096, 'Listed as Gemini 3.1 Pro Preview.'),
  gemini('Gemini 3.5 Flash', 'gemini-3.5-flash', 4096, 'One translated copy of the page (2026-05-28) says 1,024; the English ones say 4,096. The build warns below 4,096.', 1024),
];

export const CACHE_FACTS: readonly CacheFact[] = [
  ...ANTHROPIC,
  lineAlias('claude-opus', 'Claude Opus'),
  lineAlias('claude-sonnet', 'Claude Sonnet'),
  lineAlias('claude-haiku', 'Claude Haiku'),
  ...BEDROCK,
  ...OPENAI,
  ...GEMINI,
];
