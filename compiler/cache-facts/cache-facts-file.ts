/**
 * The user's cache facts, from JSON (`--cache-facts FILE.json` until a config
 * file exists): an array of rows shaped like `CacheFact`. Only what the check
 * needs is required — provider, family, ids or prefixes, minimumTokens — the
 * rest defaults to "not known". Ids may be written in any spelling the
 * lookup reads (dated, Bedrock, Vertex).
 */
import { canonicalModelId } from './cache-fact-lookup.js';
import { jsonErrorOffset } from '../config/json-error.js';
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

function toFact(row: unknown, where: string, origin: string): CacheFact {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new Error(`${where}: not an object`);
  const r = row as Record<string, unknown>;
  const provider = r.provider as CacheFactProvider;
  if (!PROVIDERS.includes(provider)) throw new Error(`${where}: provider must be one of ${PROVIDERS.join(', ')}`);
  if (typeof r.family !== 'string' || r.family === '') throw new Error(`${where}: family must be a name`);
  if (!Number.isInteger(r.minimumTokens) || (r.minimumTokens as number) < 0) throw new Error(`${where}: minimumTokens must be a whole number`);
  const ids = strings(r.ids, `${where}: ids`).map((id) => canonicalModelId(id).id);
  const prefixes = strings(r.prefixes, `${where}: prefixes`);
  if (ids.length + prefixes.length === 0) throw new Error(`${where}: give the model ids (ids) or id prefixes (prefixes) it is for`);
  const automatic = provider === 'openai' || provider === 'gemini';
  return {
    ...(r as Partial<CacheFact>),
    provider,
    family: r.family,
    ids,
    prefixes,
    minimumTokens: r.minimumTokens as number,
    caching: r.caching === 'automatic' || r.caching === 'breakpoints' ? r.caching : automatic ? 'automatic' : 'breakpoints',
    ttls: strings(r.ttls, `${where}: ttls`),
    writeMultiplier: (r.writeMultiplier as Record<string, number> | undefined) ?? {},
    readMultiplier: typeof r.readMultiplier === 'number' ? r.readMultiplier : 1,
    source: typeof r.source === 'string' ? r.source : origin,
    read: typeof r.read === 'string' ? r.read : '',
  };
}

function strings(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) throw new Error(`${where} must be a list of strings`);
  return value as string[];
}
