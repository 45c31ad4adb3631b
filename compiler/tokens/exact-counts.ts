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
 *
 * The endpoint is not trusted further than that: every answer is checked
 * (`input_tokens` a whole number, a text's count at most its UTF-8 length
 * plus a little — no tokenizer spends less than a byte per token — and the
 * request's overhead small), only checked counts are kept, the cache is
 * keyed by endpoint as well as model, a count read back from it is checked
 * again, the body read is capped, and redirects are not followed (a
 * redirect to another origin would carry the key). No message shows the key
 * or a password in `ANTHROPIC_BASE_URL`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { canonicalModelId } from '../cache-facts/cache-fact-lookup.js';
import { sha256 } from '../core/hash.js';
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

/** v2: keyed by endpoint, then model (v1, keyed by model alone and unchecked, is not read). */
const CACHE_FILE = 'anthropic-token-counts.v2.json';
/** The overhead entry of a model in the cache: no sha256 looks like this. */
const OVERHEAD = 'request-overhead';
const CONCURRENCY = 4;
/** More than the request's own tokens (a model id, one user turn of one character) could ever be. */
const MAX_OVERHEAD = 1000;
/** What a system prompt's framing may add to its text's own tokens. */
const TEXT_SLACK = 64;
/** Far above the counts of any project's texts (about 80 bytes a text and model). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** An answer is a few dozen bytes; an error body a few hundred. */
const MAX_BODY_BYTES = 64 * 1024;

/** The most tokens `text` can be: a token covers at least one byte. */
export function maxTextTokens(text: string): number {
  return Buffer.byteLength(text) + TEXT_SLACK;
}

function validCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

export async function fetchExactCounts(request: ExactCountRequest): Promise<ExactCountResult> {
  const env = request.env ?? process.env;
  const models = [...new Set(request.models)].filter((m) => canonicalModelId(m).host === 'anthropic');
  if (models.length === 0) return { counts: new Map(), problem: null };
  const endpoint = parseEndpoint(env.ANTHROPIC_BASE_URL);
  if (!endpoint.ok) return { counts: new Map(models.map((m) => [m, new Map()])), problem: endpoint.problem };
  const cache = await readCache(request.cacheDir);
  const cached = (cache[endpoint.key] ??= Object.create(null) as Record<string, Record<string, number>>);
  const texts = new Map(request.texts.map((text) => [sha256(text), text]));
  const apiKey = env.ANTHROPIC_API_KEY;
  const budgetMs = request.budgetMs ?? 10_000;
  const counter = { apiKey, baseUrl: endpoint.baseUrl, timeoutMs: request.timeoutMs ?? 3000, budgetMs, deadline: performance.now() + budgetMs };
  let problem: string | null = null;
  let counted = false;
  const counts = new Map<string, Map<string, number>>();
  for (const model of models) {
    const known = checkedEntries(cached[model], texts);
    const missing = [...texts.keys()].filter((hash) => !known.has(hash));
    if (missing.length > 0 && problem === null) {
      problem = apiKeyProblem(apiKey) ?? (await countMissing(model, missing.map((hash) => [hash, texts.get(hash)!] as const), known, counter));
      counted = true;
    }
    cached[model] = Object.fromEntries([...known].sort(([a], [b]) => (a < b ? -1 : 1)));
    known.delete(OVERHEAD);
    counts.set(model, known);
  }
  if (counted) await writeCache(request.cacheDir, cache);
  return { counts, problem };
}

type Endpoint = { ok: true; baseUrl: string; key: string } | { ok: false; problem: string };

/**
 * `ANTHROPIC_BASE_URL` (default https://api.anthropic.com), refused when it
 * is not an http(s) URL or carries a user name or password: fetch would put
 * the URL, password and all, in its error. Never echoed whole.
 */
function parseEndpoint(given: string | undefined): Endpoint {
  let url: URL;
  try {
    url = new URL(given ?? 'https://api.anthropic.com');
  } catch {
    return { ok: false, problem: 'ANTHROPIC_BASE_URL is not a URL' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, problem: `ANTHROPIC_BASE_URL holds a user name or password (${url.protocol}//***@${url.host}); give the key in ANTHROPIC_API_KEY` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: `ANTHROPIC_BASE_URL is not an http(s) URL (${url.protocol})` };
  const baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return { ok: true, baseUrl, key: baseUrl };
}

/** A key a header cannot carry (a line break pasted with it) is refused here, by name only. */
function apiKeyProblem(apiKey: string | undefined): string | null {
  if (!apiKey) return 'ANTHROPIC_API_KEY is not set';
  if (!/^[\x21-\x7e]+$/.test(apiKey)) return 'ANTHROPIC_API_KEY holds characters a header cannot carry (a space or a line break?)';
  return null;
}

/**
 * A model's cached counts, each checked again: one for a text of this build
 * against that text's bound, the overhead against its own; any other only
 * for being a count at all. What fails is dropped, and counted again.
 */
function checkedEntries(entries: Record<string, unknown> | undefined, texts: ReadonlyMap<string, string>): Map<string, number> {
  const known = new Map<string, number>();
  if (typeof entries !== 'object' || entries === null) return known;
  for (const [hash, count] of Object.entries(entries)) {
    const text = texts.get(hash);
    const max = hash === OVERHEAD ? MAX_OVERHEAD : text === undefined ? Number.MAX_SAFE_INTEGER : maxTextTokens(text);
    if (validCount(count, max)) known.set(hash, count);
  }
  return known;
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
    if (!known.has(OVERHEAD)) {
      const overhead = await countRequest(model, undefined, counter, MAX_OVERHEAD);
      known.set(OVERHEAD, overhead);
    }
  } catch (error) {
    return describe(error, counter.apiKey);
  }
  const overhead = known.get(OVERHEAD)!;
  let next = 0;
  let outOfTime = false;
  const worker = async () => {
    while (failure === null && !outOfTime && next < missing.length) {
      const [hash, text] = missing[next++]!;
      try {
        const count = (await countRequest(model, text, counter, MAX_OVERHEAD + maxTextTokens(text))) - overhead;
        if (!validCount(count, maxTextTokens(text))) {
          throw new Error(`count_tokens answered ${count < 0 ? 'fewer tokens for a text than for none' : `${count} tokens for a text of ${Buffer.byteLength(text)} bytes`}`);
        }
        known.set(hash, count);
      } catch (error) {
        // A request cut short by the build's budget is the budget's doing, not the endpoint's.
        if (performance.now() >= counter.deadline) outOfTime = true;
        else failure ??= describe(error, counter.apiKey);
      }
      if (performance.now() >= counter.deadline) outOfTime = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, missing.length) }, worker));
  const left = missing.filter(([hash]) => !known.has(hash)).length;
  if (failure === null && left > 0) return `${left} of ${missing.length} texts not counted within a build's ${counter.budgetMs / 1000} s for count_tokens; later builds count them`;
  return failure;
}

/**
 * The request shape of the Messages API's count_tokens: the text as system
 * prompt, one minimal user turn. `max`: the most tokens a true answer can be.
 */
async function countRequest(model: string, system: string | undefined, { apiKey, baseUrl, timeoutMs, deadline }: Counter, max: number): Promise<number> {
  const body: Record<string, unknown> = { model, messages: [{ role: 'user', content: '.' }] };
  if (system !== undefined) body.system = system;
  const response = await fetch(`${baseUrl}/v1/messages/count_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey ?? '', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
    // A redirect is an answer like any other that is not a count: followed, it would carry x-api-key to wherever it points.
    redirect: 'manual',
    signal: AbortSignal.timeout(Math.max(1, Math.ceil(Math.min(timeoutMs, deadline - performance.now())))),
  });
  const text = await cappedText(response);
  if (response.status !== 200) throw new Error(`count_tokens answered ${response.status}${errorMessage(text)}`);
  let tokens: unknown;
  try {
    tokens = (JSON.parse(text) as { input_tokens?: unknown } | null)?.input_tokens;
  } catch {
    throw new Error('count_tokens answered something that is not JSON');
  }
  if (tokens === undefined) throw new Error('count_tokens answered without input_tokens');
  if (!validCount(tokens, max)) throw new Error(`count_tokens answered input_tokens that cannot be a count here (${typeof tokens === 'number' ? tokens : typeof tokens})`);
  return tokens;
}

/** The body as text, read up to `MAX_BODY_BYTES`: an endpoint that sends more is refused, not buffered. */
async function cappedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES || !response.body) {
    await response.body?.cancel().catch(() => {});
    if (declared > MAX_BODY_BYTES) throw new Error(`count_tokens answered ${declared} bytes, over the ${MAX_BODY_BYTES}-byte limit`);
    return '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new Error(`count_tokens answered more than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function errorMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/**
 * A failure in a few words, the key never among them: an endpoint may echo
 * it in its error message, and fetch quotes a header value it refuses.
 */
function describe(error: unknown, apiKey: string | undefined): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'count_tokens did not answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const message = `${error instanceof Error ? error.message : String(error)}${cause}`;
  // A key of a few characters (a test's `k`) is no secret, and would blot out every word holding it.
  return apiKey && apiKey.length >= 8 ? message.split(apiKey).join('[ANTHROPIC_API_KEY]') : message;
}

/** Endpoint → model → text hash (or `OVERHEAD`) → count; null-prototype, so no model id or hash is a prototype key. */
type CountCache = Record<string, Record<string, Record<string, number>>>;

async function readCache(cacheDir: string | null): Promise<CountCache> {
  const empty = Object.create(null) as CountCache;
  if (cacheDir === null) return empty;
  try {
    // Read as a source is (regular file, bounded): node_modules/.cache may come with a checkout, a FIFO in it too.
    const { readTextFile } = await import('../markdown/source.js');
    const read = await readTextFile(path.join(cacheDir, CACHE_FILE), MAX_CACHE_BYTES);
    if (!read.ok) return empty;
    const text = read.bytes.toString('utf8');
    const value = JSON.parse(text, (_key, v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.assign(Object.create(null), v) : v)) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as CountCache) : empty;
  } catch {
    return empty; // none yet, or unreadable: counted again
  }
}

async function writeCache(cacheDir: string | null, cache: CountCache): Promise<void> {
  if (cacheDir === null) return;
  const file = path.join(cacheDir, CACHE_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await fs.mkdir(cacheDir, { recursive: true });
    // Exclusive: whatever stands at the temporary name (a link) is removed, never written through.
    await fs.rm(temp, { force: true });
    await fs.writeFile(temp, JSON.stringify(cache), { flag: 'wx' });
    await fs.rename(temp, file);
  } catch {
    await fs.rm(temp, { force: true }).catch(() => {}); // only a cache: the next build counts again
  }
}
