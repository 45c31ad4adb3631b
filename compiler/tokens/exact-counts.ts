/**
 * Exact Claude counts, opt-in (`--exact-tokens`): Anthropic's
 * `POST /v1/messages/count_tokens` for every text the build emits, once per
 * text and model — results are kept in the build cache by content hash, so
 * a text is counted once, ever. A text's count is the request's count with
 * the text as system prompt minus the same request without one (the
 * request's own overhead, counted once per model and kept too).
 *
 * A build never fails or waits long for this: each request has a short
 * timeout, all of a build's requests a budget, the first failure stops the
 * rest, and every text not counted is estimated instead — with one warning
 * that says so. What was counted is kept, so a large project's first counts
 * are spread over its first builds.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { canonicalModelId } from '../cache-facts/cache-fact-lookup.js';
import { sha256 } from '../bundle/hash.js';
import type { ExactCounts } from './token-counters.js';

export interface ExactCountRequest {
  models: readonly string[];
  texts: readonly string[];
  /** Build cache directory, or null: counted again by every build. */
  cacheDir: string | null;
  /** `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL` (default https://api.anthropic.com). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Per request (default 3 s). */
  timeoutMs?: number;
  /** For all requests of one build (default 10 s): what is not counted by then is estimated, and counted by later builds. */
  budgetMs?: number;
}

export interface ExactCountResult {
  counts: ExactCounts;
  /** Why some texts are estimates after all; null when every text of every Claude model was counted. */
  problem: string | null;
}

const CACHE_FILE = 'anthropic-token-counts.json';
/** The overhead entry of a model in the cache: no sha256 looks like this. */
const OVERHEAD = 'request-overhead';
const CONCURRENCY = 4;

export async function fetchExactCounts(request: ExactCountRequest): Promise<ExactCountResult> {
  const env = request.env ?? process.env;
  const models = [...new Set(request.models)].filter((m) => canonicalModelId(m).host === 'anthropic');
  if (models.length === 0) return { counts: new Map(), problem: null };
  const cache = await readCache(request.cacheDir);
  const texts = new Map(request.texts.map((text) => [sha256(text), text]));
  const apiKey = env.ANTHROPIC_API_KEY;
  const baseUrl = (env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  const budgetMs = request.budgetMs ?? 10_000;
  const counter = { apiKey, baseUrl, timeoutMs: request.timeoutMs ?? 3000, budgetMs, deadline: performance.now() + budgetMs };
  let problem: string | null = null;
  let counted = false;
  const counts = new Map<string, Map<string, number>>();
  for (const model of models) {
    const known = new Map(Object.entries(cache[model] ?? {}));
    const missing = [...texts.keys()].filter((hash) => !known.has(hash));
    if (missing.length > 0 && problem === null) {
      if (!apiKey) problem = 'ANTHROPIC_API_KEY is not set';
      else problem = await countMissing(model, missing.map((hash) => [hash, texts.get(hash)!] as const), known, counter);
      counted = true;
    }
    cache[model] = Object.fromEntries([...known].sort(([a], [b]) => (a < b ? -1 : 1)));
    known.delete(OVERHEAD);
    counts.set(model, known);
  }
  if (counted) await writeCache(request.cacheDir, cache);
  return { counts, problem };
}

interface Counter {
  apiKey: string | undefined;
  baseUrl: string;
  timeoutMs: number;
  budgetMs: number;
  /** performance.now() past which no request is sent. */
  deadline: number;
}

/** Counts into `known`; the first failure stops every request not yet sent and is returned. */
async function countMissing(model: string, missing: readonly (readonly [string, string])[], known: Map<string, number>, counter: Counter): Promise<string | null> {
  let failure: string | null = null;
  try {
    if (!known.has(OVERHEAD)) known.set(OVERHEAD, await countRequest(model, undefined, counter));
  } catch (error) {
    return describe(error);
  }
  const overhead = known.get(OVERHEAD)!;
  let next = 0;
  let outOfTime = false;
  const worker = async () => {
    while (failure === null && !outOfTime && next < missing.length) {
      const [hash, text] = missing[next++]!;
      try {
        known.set(hash, Math.max(0, (await countRequest(model, text, counter)) - overhead));
      } catch (error) {
        // A request cut short by the build's budget is the budget's doing, not the endpoint's.
        if (performance.now() >= counter.deadline) outOfTime = true;
        else failure ??= describe(error);
      }
      if (performance.now() >= counter.deadline) outOfTime = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, missing.length) }, worker));
  const left = missing.filter(([hash]) => !known.has(hash)).length;
  if (failure === null && left > 0) return `${left} of ${missing.length} texts not counted within a build's ${counter.budgetMs / 1000} s for count_tokens; later builds count them`;
  return failure;
}

/** The request shape of the Messages API's count_tokens: the text as system prompt, one minimal user turn. */
async function countRequest(model: string, system: string | undefined, { apiKey, baseUrl, timeoutMs, deadline }: Counter): Promise<number> {
  const body: Record<string, unknown> = { model, messages: [{ role: 'user', content: '.' }] };
  if (system !== undefined) body.system = system;
  const response = await fetch(`${baseUrl}/v1/messages/count_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey ?? '', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(Math.max(1, Math.ceil(Math.min(timeoutMs, deadline - performance.now())))),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`count_tokens answered ${response.status}${errorMessage(text)}`);
  const tokens = (JSON.parse(text) as { input_tokens?: unknown }).input_tokens;
  if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens)) throw new Error('count_tokens answered without input_tokens');
  return tokens;
}

function errorMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'count_tokens did not answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

type CountCache = Record<string, Record<string, number>>;

async function readCache(cacheDir: string | null): Promise<CountCache> {
  if (cacheDir === null) return {};
  try {
    const value = JSON.parse(await fs.readFile(path.join(cacheDir, CACHE_FILE), 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as CountCache) : {};
  } catch {
    return {}; // none yet, or unreadable: counted again
  }
}

async function writeCache(cacheDir: string | null, cache: CountCache): Promise<void> {
  if (cacheDir === null) return;
  const file = path.join(cacheDir, CACHE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await fs.mkdir(cacheDir, { recursive: true });
    await fs.writeFile(temp, JSON.stringify(cache));
    await fs.rename(temp, file);
  } catch {
    await fs.rm(temp, { force: true }).catch(() => {}); // only a cache: the next build counts again
  }
}
