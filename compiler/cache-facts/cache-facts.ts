/**
 * Provider prompt-cache facts, as data: per provider and model family, the
 * minimum cacheable prefix (below it a provider silently does not cache at
 * all), the breakpoint limit, the TTLs and the price multipliers. Every row
 * names its source and the day it was read. Where sources disagree the row
 * says so, and `minimumTokens` — what the build warns below — takes the safe
 * (larger) side. Matching a model id to a row: `cache-fact-lookup.ts`.
 */
import { CACHE_FACTS_READ } from './facts-age.js';

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
  /** Breakpoints a request may hold (or, for automatic caching with explicit breakpoints too, write). */
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

/** Every row was checked on the day the table was (facts-age.ts: the build warns when that day is over 180 days old). */
const READ = CACHE_FACTS_READ;

const ANTHROPIC_CACHING = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
/**
 * The newest copy of Anthropic's caching page read in full: the repository
 * llms-txt-archive/anthropic-platform holds one version of it, undated; it
 * names Claude Opus 5 (2026-07-24) and Opus 4.1 as retired (2026-08-05), not
 * Opus 5.5 (2026-09-22), so it is a copy of August or September 2026.
 */
const ANTHROPIC_SNAPSHOT =
  `${ANTHROPIC_CACHING} ("Cache limitations" and "Pricing"), as stored in llms-txt-archive/anthropic-platform ` +
  'docs/en/build-with-claude/prompt-caching.md @ 9be78a23 (a copy of 2026-08-05 to 2026-09-22)';
/**
 * The page's later wording, which the archive does not hold: quoted verbatim,
 * the same sentence, by several public research notes of October to December
 * 2026 (e.g. "512 tokens for Claude Fable 5.1, Claude Mythos 5.1, Claude Opus
 * 5.5, Claude Opus 5, Claude Sonnet 5.5, Claude Fable 5, and Claude Mythos 5";
 * "Cache hits and refreshes on Claude Opus 5.5 are priced at 0.05x", Fable 5.1
 * and Mythos 5.1 at 0.025x).
 */
const ANTHROPIC_QUOTED = `${ANTHROPIC_CACHING}, the page's current list as quoted verbatim in public notes of 2026-10 to 2026-12 (the page itself was not read)`;
const QUOTED_NOTE = "Anthropic's page was not read itself for this model: its figure is the page's sentence as others quote it.";

function claude(family: string, ids: readonly string[], minimumTokens: number, extra: Partial<CacheFact> = {}): CacheFact {
  return {
    provider: 'anthropic',
    family,
    ids,
    minimumTokens,
    caching: 'breakpoints',
    // "you can define up to 4 cache breakpoints"; automatic caching takes one of the 4 slots.
    maxBreakpoints: 4,
    ttls: ['5m', '1h'],
    writeMultiplier: { '5m': 1.25, '1h': 2 },
    readMultiplier: 0.1,
    source: ANTHROPIC_SNAPSHOT,
    read: READ,
    ...extra,
  };
}

/** Retired models the page no longer lists; their rows keep the figure it gave while it did. */
const RETIRED_SOURCE = `${ANTHROPIC_CACHING} (the list as quoted in anthropics/anthropic-sdk-python#1194, before the model's retirement)`;

/**
 * Anthropic's first-party API; its page says the same minimums apply on
 * Claude Platform on AWS, Google Cloud (Vertex) and Microsoft Foundry — "on
 * every platform where each model is available" — so Vertex ids use these
 * rows (see the lookup). Bedrock has a guide of its own (below).
 */
const ANTHROPIC: readonly CacheFact[] = [
  claude('Claude Fable 5.1', ['claude-fable-5-1'], 512, { source: ANTHROPIC_QUOTED, readMultiplier: 0.025, note: QUOTED_NOTE }),
  claude('Claude Mythos 5.1', ['claude-mythos-5-1'], 512, { source: ANTHROPIC_QUOTED, readMultiplier: 0.025, note: QUOTED_NOTE }),
  claude('Claude Opus 5.5', ['claude-opus-5-5'], 512, { source: ANTHROPIC_QUOTED, readMultiplier: 0.05, note: QUOTED_NOTE }),
  claude('Claude Sonnet 5.5', ['claude-sonnet-5-5'], 512, {
    source: `${ANTHROPIC_QUOTED}; https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview (cache read $0.20 on $2 input: 0.1×)`,
    note: QUOTED_NOTE,
  }),
  claude('Claude Fable 5', ['claude-fable-5'], 512),
  claude('Claude Mythos 5', ['claude-mythos-5'], 512),
  claude('Claude Opus 5', ['claude-opus-5'], 512),
  claude('Claude Sonnet 5', ['claude-sonnet-5'], 1024),
  claude('Claude Opus 4.8', ['claude-opus-4-8'], 1024),
  claude('Claude Opus 4.7', ['claude-opus-4-7'], 2048, {
    note: 'Copies of the page quoted around Claude Opus 4.8\'s launch (2026-05) gave 4,096; the archived copy gives 2,048, the figure used.',
  }),
  claude('Claude Mythos Preview', ['claude-mythos-preview'], 2048),
  claude('Claude Opus 4.6', ['claude-opus-4-6'], 4096),
  claude('Claude Opus 4.5', ['claude-opus-4-5'], 4096),
  claude('Claude Opus 4.1', ['claude-opus-4-1'], 1024, { note: 'Retired on the Claude API (2026-08-05); still served by Bedrock and Google Cloud.' }),
  claude('Claude Opus 4', ['claude-opus-4', 'claude-4-opus'], 1024, { note: 'Retired on the Claude API (2026-06-15); still served by Google Cloud.' }),
  claude('Claude Sonnet 4.6', ['claude-sonnet-4-6'], 2048, {
    documentedMinimumTokens: 1024,
    note:
      "Anthropic's page says 1,024; anthropics/anthropic-sdk-python#1194 reports no cache below 2,048 in practice, " +
      'and docs.orq.ai/docs/proxy/prompt-caching lists 2,048. The build warns below 2,048.',
  }),
  claude('Claude Sonnet 4.5', ['claude-sonnet-4-5'], 1024),
  claude('Claude Sonnet 4', ['claude-sonnet-4', 'claude-4-sonnet'], 1024, { note: 'Retired on the Claude API (2026-06-15); still served by Bedrock and Google Cloud.' }),
  claude('Claude Haiku 4.5', ['claude-haiku-4-5'], 4096),
  claude('Claude Haiku 3.5', ['claude-3-5-haiku'], 2048, { note: 'Retired on the Claude API (2026-02-19); still served by Bedrock and Google Cloud.' }),
  claude('Claude Sonnet 3.7', ['claude-3-7-sonnet'], 1024, { source: RETIRED_SOURCE, note: 'Retired (2026-02-19); no longer on the page.' }),
  claude('Claude Haiku 3', ['claude-3-haiku'], 2048, { source: RETIRED_SOURCE, note: 'Retired (2026-04-20); no longer on the page.' }),
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

const BEDROCK_GUIDE = 'https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html';
/** The guide's table of models, as copied by Portkey's Bedrock page and the aws-samples code; the current guide's table itself did not come through whole. */
const BEDROCK_SOURCE = `${BEDROCK_GUIDE} (minimum tokens per cache checkpoint, max checkpoints per request), its table as reproduced at https://portkey.ai/docs/integrations/llms/bedrock/prompt-caching`;

function bedrock(family: string, ids: readonly string[], minimumTokens: number, note: string): CacheFact {
  return {
    ...claude(family, ids, minimumTokens),
    provider: 'bedrock',
    source: BEDROCK_SOURCE,
    note: `${note} Price multipliers are Anthropic's; the Bedrock pricing page was not read.`,
  };
}

/** Amazon's own models: explicit `cachePoint`s in system and messages (not tools), up to 4. */
function nova(family: string, id: string): CacheFact {
  return {
    provider: 'bedrock',
    family,
    ids: [id],
    minimumTokens: 1000,
    caching: 'breakpoints',
    maxBreakpoints: 4,
    ttls: ['5m'],
    // Not read: the economics then claim no saving rather than an invented one.
    writeMultiplier: { '5m': 1 },
    readMultiplier: 1,
    source: `${BEDROCK_SOURCE}; 1,000 also in aws-samples' Bedrock prompt-caching code (MIN_CACHE_TOKENS)`,
    read: READ,
    note: 'Checkpoints in system and messages only, at most 32k tokens cached. Price multipliers not read (the Bedrock pricing page): set to 1, no saving assumed.',
  };
}

/**
 * Bedrock rows where its guide gives a figure of its own; any other Claude
 * id on Bedrock uses Anthropic's row, whose page says its minimums hold on
 * every platform but sends Bedrock users to this guide (so the warning says
 * "Anthropic's figure").
 */
const BEDROCK: readonly CacheFact[] = [
  bedrock('Claude Haiku 4.5 on Bedrock', ['claude-haiku-4-5'], 4096, 'Also stated by strandsagents.com (Bedrock prompt caching): 4,096 for Claude Haiku.'),
  bedrock('Claude Haiku 3.5 on Bedrock', ['claude-3-5-haiku'], 2048, 'Retired on the Claude API, still served on Bedrock.'),
  bedrock('Claude Sonnet 3.7 on Bedrock', ['claude-3-7-sonnet'], 1024, 'The guide\'s example: "at least 1,024 tokens per cache checkpoint".'),
  nova('Amazon Nova Micro', 'nova-micro'),
  nova('Amazon Nova Lite', 'nova-lite'),
  nova('Amazon Nova Pro', 'nova-pro'),
  nova('Amazon Nova Premier', 'nova-premier'),
];

const OPENAI_GUIDE = 'https://developers.openai.com/api/docs/guides/prompt-caching';
const OPENAI_SOURCE =
  `${OPENAI_GUIDE} ("enabled for all recent models, gpt-4o and newer", "for prompts that are 1024 tokens or longer", no write fee before the GPT-5.6 family); ` +
  'https://developers.openai.com/api/docs/pricing (cached input), as summarised in the api-evangelist pricing post of 2026-11-06';

function openai(family: string, prefixes: readonly string[], readMultiplier: number, note: string): CacheFact {
  return {
    provider: 'openai',
    family,
    ids: [],
    prefixes,
    minimumTokens: 1024,
    caching: 'automatic',
    prefixIncrement: 128,
    ttls: [],
    writeMultiplier: { automatic: 1 },
    readMultiplier,
    source: OPENAI_SOURCE,
    read: READ,
    note: `No write surcharge; the cache lasts minutes in memory (24 h with extended retention). ${note}`.trim(),
  };
}

const OPENAI: readonly CacheFact[] = [
  {
    ...openai('GPT-5.6 and later (GPT-6…)', ['gpt-5.6', 'gpt-6'], 0.1, ''),
    maxBreakpoints: 4,
    ttls: ['30m'],
    writeMultiplier: { automatic: 1.25, '30m': 1.25 },
    prefixIncrement: undefined,
    source:
      `${OPENAI_GUIDE} ("For GPT-5.6 models and later model families, cache writes cost 1.25× the uncached input token rate"; explicit breakpoints); ` +
      'the openai SDKs\' prompt_cache_options (up to four breakpoints written per request, ttl "30m"), as in async-openai 0.42 PromptCacheOptionsParam; ' +
      'cached input at a tenth of input per the api-evangelist pricing post of 2026-11-06',
    note:
      'Implicit caching by default, explicit breakpoints (prompt_cache_breakpoint) too; an explicit breakpoint is not rounded to a token block. ' +
      'Azure\'s SDK also lists a "12h" TTL. Some GPT-6.1 models price cached input below a tenth (third-party price lists); 0.1× is kept.',
  },
  openai('GPT-5 family', ['gpt-5'], 0.1, 'gpt-5 to gpt-5.5.'),
  openai('GPT-4.1 family', ['gpt-4.1'], 0.25, ''),
  openai('GPT-4o family', ['gpt-4o', 'chatgpt-4o'], 0.5, ''),
  openai('o-series reasoning models', ['o1', 'o3', 'o4'], 0.5, 'Their cached-input prices were not read: 0.5×, the highest of the other families, so savings are not overstated.'),
];

const GEMINI_PAGE = 'https://ai.google.dev/gemini-api/docs/caching';
const GEMINI_SOURCE =
  `${GEMINI_PAGE} (implicit caching, minimum input tokens per model; the version last updated 2026-10-13, and for 3.5 / 3.7 Flash the versions of 2026-07 to 2026-10 that still list them); ` +
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
    'Gemini 4 Argon',
    'gemini-4-argon',
    6144,
    "The Gemini API page says 4,096; Google Cloud's Gemini 4 Argon guide (docs.cloud.google.com/gemini-enterprise-agent-platform/models/guides/gemini-4-argon) says implicit caching applies from 6,144 tokens. The build warns below 6,144.",
    4096,
  ),
  gemini('Gemini 3.8 Flash', 'gemini-3.8-flash', 4096, ''),
  gemini('Gemini 3.7 Flash', 'gemini-3.7-flash', 4096, 'Listed until the page of 2026-10-13, which no longer names it.'),
  gemini('Gemini 3.6 Flash', 'gemini-3.6-flash', 4096, ''),
  gemini('Gemini 3.5 Flash', 'gemini-3.5-flash', 4096, 'Listed until the page of 2026-10-13, which no longer names it; one translated copy (2026-05-28) said 1,024.'),
  gemini('Gemini 3.1 Pro', 'gemini-3.1-pro', 4096, 'Listed as Gemini 3.1 Pro Preview.'),
  gemini('Gemini 2.5 Flash', 'gemini-2.5-flash', 2048, 'The page said 1,024 until 2026-05-07; 2,048 since (2026-07-07, 2026-10-13).'),
  gemini('Gemini 2.5 Pro', 'gemini-2.5-pro', 2048, 'The page said 4,096 until 2026-05-07; 2,048 since (2026-07-07, 2026-10-13).'),
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

/**
 * Current models the sources name but give no minimum for: the lookup
 * knows nothing for them (a `cache/unknown-model` warning), and the warning
 * says why instead of guessing from a neighbour.
 */
export interface FactlessModel {
  provider: CacheFactProvider;
  family: string;
  /** Canonical ids, matched exactly. */
  ids: readonly string[];
  why: string;
}

export const MODELS_WITHOUT_FACTS: readonly FactlessModel[] = [
  {
    provider: 'anthropic',
    family: 'Claude Haiku 5.5',
    ids: ['claude-haiku-5-5'],
    why: "released 2026-10-07; no copy of Anthropic's caching page read on 2026-12-04 gives its minimum",
  },
  {
    provider: 'anthropic',
    family: 'Claude Fable 5.2',
    ids: ['claude-fable-5-2'],
    why: "on the models overview; no copy of Anthropic's caching page read on 2026-12-04 gives its minimum",
  },
  {
    provider: 'anthropic',
    family: 'Claude Mythos 5.2',
    ids: ['claude-mythos-5-2'],
    why: "named in price lists; no copy of Anthropic's caching page read on 2026-12-04 gives its minimum",
  },
];
