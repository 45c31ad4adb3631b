/**
 * The inputs of `usage.json`: usage records both runtimes make from the same
 * responses (usage-fixtures.ts, SDK-typed), the line and the OpenTelemetry
 * attributes of each, the bundle identity, the section changes behind a
 * miss, times, and the refusals. Expected values come from the JavaScript
 * runtime (usage-vectors.test.ts); python/tests/test_usage_vectors.py runs
 * every case in Python.
 *
 * A prompt is `{parts, hash?, source?}`: a bundle prompt (`source`: [kind,
 * name]) carries its profile or agent and hash; a `hash` alone is a hash the
 * caller gave; neither, a plain list. Options are `recordUsage`'s (Python:
 * keyword arguments, snake_case).
 */
import { ANTHROPIC, BEDROCK, CHAT, GEMINI, OPENAI, OPENAI_DIAGNOSED } from './usage-fixtures.js';

export interface SeedPrompt {
  parts: string[];
  hash?: string;
  source?: ['profile' | 'agent', string];
}

export interface UsageSeed {
  name: string;
  prompt: SeedPrompt | unknown;
  response: unknown;
  options?: Record<string, unknown>;
}

const B = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';
const HASH = 'a3f1c2d4e5b6978812345678901234567890abcdefabcdefabcdefabcdef0123';
const AGENT_HASH = '0badc0de'.repeat(8);
const PROFILE: SeedPrompt = { parts: ['You are careful.', 'Read first.', B, 'cwd: /w'], hash: HASH, source: ['profile', 'default'] };
const AGENT: SeedPrompt = { parts: ['You explore code.', B, 'env: linux'], hash: AGENT_HASH, source: ['agent', 'explore'] };
const GIVEN_HASH: SeedPrompt = { parts: ['Custom.', B, 'tail'], hash: HASH };
const PLAIN: SeedPrompt = { parts: ['Custom prompt.'] };
const AT = '2026-03-01T12:00:00.000Z';
const at = (options: Record<string, unknown> = {}) => ({ time: AT, ...options });

const seed = (name: string, prompt: unknown, response: unknown, options?: Record<string, unknown>): UsageSeed => ({ name, prompt, response, ...(options ? { options } : {}) });

export const RECORD_SEEDS: UsageSeed[] = [
  seed('anthropic: a cold write, 5-minute split', PROFILE, ANTHROPIC.coldWrite, at({ ttl: '5m', bundle: '0123456789abcdef', session: 's-1' })),
  seed('anthropic: a warm read', PROFILE, ANTHROPIC.warmHit, at()),
  seed('anthropic: a 1-hour write beside a 5-minute one', PROFILE, ANTHROPIC.oneHourWrite, at({ ttl: '1h' })),
  seed('anthropic: below the minimum, cache fields null', PROFILE, ANTHROPIC.belowMinimum, at()),
  seed('anthropic: system_changed, with the previous response named', PROFILE, ANTHROPIC.systemChanged, at({ session: 's-1', previousResponseId: 'msg_01cold' })),
  seed('anthropic: a diagnosis still pending', PROFILE, ANTHROPIC.pending, at({ previousResponseId: 'msg_01cold' })),
  seed('anthropic: the previous message not found', PROFILE, ANTHROPIC.notFound, at({ previousResponseId: null })),
  seed('anthropic: an agent prompt', AGENT, ANTHROPIC.warmHit, at()),
  seed('anthropic: a hash the caller gave, profile named by option', GIVEN_HASH, ANTHROPIC.warmHit, at({ profile: 'custom' })),
  seed('anthropic: a plain list of parts', PLAIN, ANTHROPIC.warmHit, at()),
  seed('anthropic shape from Bedrock InvokeModel: provider named', PROFILE, ANTHROPIC.warmHit, at({ provider: 'bedrock' })),
  seed('bedrock: written by TTL, request id from $metadata', PROFILE, BEDROCK.splitWrite, at({ model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' })),
  seed('bedrock: a read, cacheDetails empty', PROFILE, BEDROCK.readOnly, at({ model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' })),
  seed('bedrock: no cache fields at all', PROFILE, BEDROCK.noCacheFields, at()),
  seed('openai responses: an explicit write, TTL echoed', PROFILE, OPENAI.explicitWrite, at()),
  seed('openai responses: an automatic hit, retention echoed', PROFILE, OPENAI.automaticHit, at()),
  seed('openai responses: the TTL asked wins over the echo', PROFILE, OPENAI.automaticHit, at({ ttl: 'in_memory' })),
  seed('openai responses: a miss diagnosed (tools_changed), the comparison response named', PROFILE, OPENAI_DIAGNOSED.toolsChanged, at({ session: 's-2', previousResponseId: 'resp_02hit' })),
  seed('openai responses: a hit diagnosed is no miss', PROFILE, OPENAI_DIAGNOSED.hit, at()),
  seed('openai responses: the comparison response not found, a count of the wrong type left out', PROFILE, OPENAI_DIAGNOSED.notFound, at()),
  seed('openai chat completions: cached prompt tokens', PROFILE, CHAT.cachedPrompt, at()),
  seed('gemini: implicit hit, thoughts and tool input counted', PROFILE, GEMINI.implicitHit, at()),
  seed('gemini: nothing cached', PROFILE, GEMINI.noCache, at()),
  seed('time given in milliseconds', PROFILE, ANTHROPIC.warmHit, { time: 1772366400123.9 }),
  seed('time with an offset and microseconds', PROFILE, ANTHROPIC.warmHit, { time: '2026-03-01T14:00:00.123456+02:00' }),
  seed('non-ASCII in a profile name and a session', { parts: ['Grüß Gott.', B], hash: HASH, source: ['profile', 'über-ü'] }, ANTHROPIC.warmHit, at({ session: 'sess "q" \u2028 é' })),
];

const usage = (fields: Record<string, unknown>) => ({ ...ANTHROPIC.warmHit, usage: { ...ANTHROPIC.warmHit.usage, ...fields } });

export const REFUSAL_SEEDS: UsageSeed[] = [
  seed('the response is not an object', PROFILE, 'msg_01', at()),
  seed('the response has no usage', PROFILE, { id: 'msg_01', model: 'claude' }, at()),
  seed('the usage is of no known shape', PROFILE, { usage: { tokens: 5 } }, at()),
  seed('a negative count', PROFILE, usage({ input_tokens: -1 }), at()),
  seed('a count that is a string', PROFILE, usage({ cache_read_input_tokens: '3000' }), at()),
  seed('a count with a fraction', PROFILE, usage({ output_tokens: 1.5 }), at()),
  seed('a Bedrock cache detail that is not an object', PROFILE, { ...BEDROCK.splitWrite, usage: { ...BEDROCK.splitWrite.usage, cacheDetails: ['1h'] } }, at()),
  seed('a Gemini count that is a boolean', PROFILE, { ...GEMINI.noCache, usageMetadata: { promptTokenCount: true } }, at()),
  seed('an unknown provider', PROFILE, ANTHROPIC.warmHit, at({ provider: 'azure' })),
  seed('an unknown TTL', PROFILE, ANTHROPIC.warmHit, at({ ttl: '10m' })),
  seed('a model that is not a string', PROFILE, ANTHROPIC.warmHit, at({ model: 5 })),
  seed('a session that is not a string', PROFILE, ANTHROPIC.warmHit, at({ session: 7 })),
  seed('February 30', PROFILE, ANTHROPIC.warmHit, { time: '2026-02-30T00:00:00Z' }),
  seed('hour 24', PROFILE, ANTHROPIC.warmHit, { time: '2026-01-02T24:00:00Z' }),
  seed('a time without its offset', PROFILE, ANTHROPIC.warmHit, { time: '2026-01-02T03:04:05' }),
  seed('a date with a space for the T', PROFILE, ANTHROPIC.warmHit, { time: '2026-01-02 03:04:05Z' }),
  seed('a time before 1970', PROFILE, ANTHROPIC.warmHit, { time: -1 }),
  seed('a time after 9999', PROFILE, ANTHROPIC.warmHit, { time: 253402300800000 }),
  seed('a prompt that is not a list', 'You are careful.', ANTHROPIC.warmHit, at()),
];

/** Manifests (the parts the identity reads) and the sections behind a miss. */
export const IDENTITY_SEEDS = [
  {
    name: 'two profiles and an agent, names out of order',
    manifest: {
      profiles: {
        simple: { staticPrefixHash: 'b'.repeat(64), sections: [{ kind: 'static', name: 'intro', hash: '1'.repeat(64) }] },
        default: {
          staticPrefixHash: 'a'.repeat(64),
          sections: [
            { kind: 'static', name: 'intro', hash: '1'.repeat(64) },
            { kind: 'static', name: 'tone', hash: '2'.repeat(64) },
            { kind: 'dynamic', name: 'env', hash: '3'.repeat(64) },
          ],
        },
      },
      agents: { explore: { hash: '4'.repeat(64) } },
    },
  },
  {
    name: 'names sorted by UTF-16 code units (an astral letter before a fullwidth one)',
    manifest: {
      profiles: {
        'ｚ': { staticPrefixHash: 'c'.repeat(64), sections: [] },
        '𝒜': { staticPrefixHash: 'd'.repeat(64), sections: [{ kind: 'static', name: 'é', hash: '5'.repeat(64) }] },
      },
      agents: {},
    },
  },
  { name: 'an empty bundle', manifest: { profiles: {}, agents: {} } },
];

type Sections = [string, string][];
const s = (...pairs: string[]): Sections => pairs.map((pair) => pair.split('=') as [string, string]);

export const SECTION_SEEDS: { name: string; before: Sections; after: Sections; record: { profile: string | null; agent: string | null }; missedTokens: number | null }[] = [
  { name: 'one section changed', before: s('intro=1', 'tone=2'), after: s('intro=1', 'tone=9'), record: { profile: 'default', agent: null }, missedTokens: 2900 },
  { name: 'added and removed', before: s('intro=1', 'old=2'), after: s('intro=1', 'new=3'), record: { profile: 'default', agent: null }, missedTokens: null },
  { name: 'moved, nothing else', before: s('a=1', 'b=2', 'c=3'), after: s('b=2', 'a=1', 'c=3'), record: { profile: null, agent: 'explore' }, missedTokens: 10 },
  { name: 'the same static prefix: the tail changed', before: s('intro=1'), after: s('intro=1'), record: { profile: 'default', agent: null }, missedTokens: 40 },
  { name: 'changed and moved', before: s('a=1', 'b=2', 'c=3'), after: s('c=3', 'b=7', 'a=1'), record: { profile: null, agent: null }, missedTokens: null },
];
