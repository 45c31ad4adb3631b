/**
 * A persistent cache of per-file parse results, keyed by the sha256 of the
 * file's bytes and the tool version: parsing is the whole cost of a build, and
 * most files do not change between builds.
 *
 * The cache is one file, checksummed. A file that fails to parse, has another
 * version or a wrong checksum is discarded whole; an entry of the wrong shape
 * is dropped. Nothing from the cache is trusted without these checks.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../core/hash.js';
import type { ParsedSource } from '../markdown/source.js';

const FILE = 'parse-cache.json';

export interface ParseCache {
  get(hash: string): ParsedSource | undefined;
  set(hash: string, parsed: ParsedSource): void;
  /** Writes the cache if it changed, keeping only the entries used since it was opened. */
  save(): Promise<void>;
  readonly stats: { hits: number; misses: number; discarded: string | null };
}

export async function openParseCache(dir: string | null, version: string): Promise<ParseCache> {
  if (dir === null) return memoryCache();
  const file = path.join(dir, FILE);
  const stats = { hits: 0, misses: 0, discarded: null as string | null };
  const stored = await readStored(file, version);
  if (!stored.ok) stats.discarded = stored.reason;
  const entries = stored.ok ? stored.entries : {};
  const used = new Map<string, ParsedSource>();
  let dirty = !stored.ok && stored.reason !== 'absent';
  return {
    stats,
    get(hash) {
      const entry = entries[hash];
      if (entry !== undefined && isParsedSource(entry)) {
        stats.hits++;
        used.set(hash, entry);
        return entry;
      }
      stats.misses++;
      return undefined;
    },
    set(hash, parsed) {
      used.set(hash, parsed);
      dirty = true;
    },
    async save() {
      if (!dirty && used.size === Object.keys(entries).length) return;
      const payload = JSON.stringify(Object.fromEntries([...used].sort(([a], [b]) => (a < b ? -1 : 1))));
      const text = JSON.stringify({ version, checksum: sha256(payload) }) + '\n' + payload;
      await fs.mkdir(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, text);
      await fs.rename(tmp, file);
    },
  };
}

type Stored = { ok: true; entries: Record<string, unknown> } | { ok: false; reason: string };

async function readStored(file: string, version: string): Promise<Stored> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return { ok: false, reason: 'absent' };
  }
  const newline = text.indexOf('\n');
  try {
    const header = JSON.parse(text.slice(0, newline)) as { version?: unknown; checksum?: unknown };
    if (header.version !== version) return { ok: false, reason: 'other tool version' };
    const payload = text.slice(newline + 1);
    if (header.checksum !== sha256(payload)) return { ok: false, reason: 'checksum mismatch' };
    const entries: unknown = JSON.parse(payload);
    if (entries === null || typeof entries !== 'object') return { ok: false, reason: 'malformed' };
    return { ok: true, entries: entries as Record<string, unknown> };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}

/** `--no-cache`: nothing read or written, but a watch session still reuses its own parses. */
function memoryCache(): ParseCache {
  const stats = { hits: 0, misses: 0, discarded: null };
  const entries = new Map<string, ParsedSource>();
  return {
    stats,
    get: (hash) => {
      const entry = entries.get(hash);
      if (entry) stats.hits++;
      else stats.misses++;
      return entry;
    },
    set: (hash, parsed) => void entries.set(hash, parsed),
    save: async () => {},
  };
}

function isParsedSource(v: unknown): v is ParsedSource {
  if (v === null || typeof v !== 'object') return false;
  const p = v as Partial<ParsedSource>;
  return (
    typeof p.bodyOffset === 'number' &&
    p.data !== null &&
    typeof p.data === 'object' &&
    Array.isArray(p.problems) &&
    p.scan !== null &&
    typeof p.scan === 'object' &&
    Array.isArray(p.scan.directives) &&
    Array.isArray(p.scan.comments) &&
    Array.isArray(p.scan.templates)
  );
}
