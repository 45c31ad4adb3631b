/**
 * The user's cache facts, from JSON (`--cache-facts FILE.json` until a config
 * file exists): an array of rows shaped like `CacheFact`. Only what the check
 * needs is required — provider, family, ids or prefixes, minimumTokens — the
 * rest defaults to "not known". Ids may be written in any spelling the
 * lookup reads (dated, Bedrock, Vertex).
 */
import { canonicalModelId } from './cache-fact-lookup.js';
import { jsonErrorOffset } from '../diagnostics/json-error.js';
import { positionAt } from '../diagnostics/diagnostics.js';
import type { CacheFact, CacheFactProvider } from './cache-facts.js';

const PROVIDERS: readonly CacheFactProvider[] = ['anthropic', 'bedrock', 'openai', 'gemini'];

/** The rows of `json`, or throws an Error whose message says which row is wrong and why. */
export function parseCacheFacts(json: string, origin: string): CacheFact[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    // JSON.parse's message quotes the text; a file that is not JSON (`/etc/passwd`) is never quoted, only placed.
    const at = positionAt(json, jsonErrorOffset(json));
    throw new Error(`not JSON (line ${at.line}, column ${at.column})`);
  }
  if (!Array.isArray(value)) throw new Error('must hold a JSON array of cache facts');
  return value.map((row, index) => toFact(row, `fact ${index}`, origin));
}

/**
 * One row, every field checked: a cost or threshold read from a file is
 * used in arithmetic (cold against warm cost, the minimum warning), where
 * NaN, a negative or an infinite figure (`1e400` in JSON) would print
 * nonsense as fact. Unknown keys are ignored.
 */
function toFact(row: unknown, where: string, origin: string): CacheFact {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new Error(`${where}: not an object`);
  const r = row as Record<string, unknown>;
  const field = (key: string): unknown => (Object.hasOwn(r, key) ? r[key] : undefined);
  const provider = field('provider') as CacheFactProvider;
  if (!PROVIDERS.includes(provider)) throw new Error(`${where}: provider must be one of ${PROVIDERS.join(', ')}`);
  const family = field('family');
  if (typeof family !== 'string' || family === '') throw new Error(`${where}: family must be a name`);
  const minimumTokens = wholeNumber(field('minimumTokens'), `${where}: minimumTokens`, 0);
  if (minimumTokens === undefined) throw new Error(`${where}: minimumTokens must be a whole number`);
  const ids = strings(field('ids'), `${where}: ids`).map((id) => canonicalModelId(id).id);
  const prefixes = strings(field('prefixes'), `${where}: prefixes`);
  if (ids.length + prefixes.length === 0) throw new Error(`${where}: give the model ids (ids) or id prefixes (prefixes) it is for`);
  const caching = field('caching');
  if (caching !== undefined && caching !== 'automatic' && caching !== 'breakpoints') throw new Error(`${where}: caching must be 'automatic' or 'breakpoints'`);
  const automatic = provider === 'openai' || provider === 'gemini';
  const documentedMinimumTokens = wholeNumber(field('documentedMinimumTokens'), `${where}: documentedMinimumTokens`, 0);
  const maxBreakpoints = wholeNumber(field('maxBreakpoints'), `${where}: maxBreakpoints`, 1);
  const prefixIncrement = wholeNumber(field('prefixIncrement'), `${where}: prefixIncrement`, 1);
  const note = text(field('note'), `${where}: note`);
  return {
    provider,
    family,
    ids,
    prefixes,
    minimumTokens,
    ...(documentedMinimumTokens === undefined ? {} : { documentedMinimumTokens }),
    caching: caching ?? (automatic ? 'automatic' : 'breakpoints'),
    ...(maxBreakpoints === undefined ? {} : { maxBreakpoints }),
    ...(prefixIncrement === undefined ? {} : { prefixIncrement }),
    ttls: strings(field('ttls'), `${where}: ttls`),
    writeMultiplier: multipliers(field('writeMultiplier'), `${where}: writeMultiplier`),
    readMultiplier: multiplier(field('readMultiplier'), `${where}: readMultiplier`) ?? 1,
    source: text(field('source'), `${where}: source`) ?? origin,
    read: text(field('read'), `${where}: read`) ?? '',
    ...(note === undefined ? {} : { note }),
  };
}

/** Token counts and thresholds: whole, at least `min`, and far below the point where arithmetic on them loses units. */
function wholeNumber(value: unknown, where: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < min) throw new Error(`${where} must be a whole number${min > 0 ? ` of at least ${min}` : ''}`);
  return value as number;
}

/** A price multiple: a finite number, not negative. */
function multiplier(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${where} must be a finite number, not negative`);
  return value;
}

/** Multiples per TTL: a null-prototype map, so a TTL named `__proto__` or `toString` is just a name. */
function multipliers(value: unknown, where: string): Record<string, number> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} must be an object of TTL: multiple`);
  const out: Record<string, number> = Object.create(null);
  for (const [ttl, x] of Object.entries(value)) out[ttl] = multiplier(x ?? Number.NaN, `${where}.${ttl}`)!;
  return out;
}

function text(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Error(`${where} must be a string`);
  return value;
}

function strings(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) throw new Error(`${where} must be a list of strings`);
  return value as string[];
}
