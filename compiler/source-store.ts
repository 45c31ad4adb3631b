/**
 * Loads sources once per build session and shares them: between the files a
 * build discovers and the files their includes reach, and across watch-mode
 * rebuilds (a changed file is forgotten, then loaded again). Parse results
 * come from the persistent cache when the bytes are unchanged.
 */
import type { IncludeLimits } from './config.js';
import { relativeToRoot } from './include.js';
import type { ParseCache } from './parse-cache.js';
import { parseAll } from './parse-pool.js';
import { makeSource, parseSource, rawFile, readTextFile, type ParsedSource, type RawFile, type ReadFailure, type Source } from './source.js';

export type Loaded = Source | ReadFailure;

export function isSource(loaded: Loaded): loaded is Source {
  return !('kind' in loaded);
}

export class SourceStore {
  private readonly loads = new Map<string, Promise<Loaded>>();
  private readonly settled = new Map<string, Loaded>();

  constructor(
    private readonly root: string,
    private readonly limits: IncludeLimits,
    private readonly cache: ParseCache,
    private readonly parallelThreshold: number,
  ) {}

  /** One file (an include target): parsed in this thread. */
  load(file: string): Promise<Loaded> {
    let pending = this.loads.get(file);
    if (!pending) {
      pending = this.read(file).then((loaded) => {
        if (this.loads.get(file) === pending) this.settled.set(file, loaded);
        return loaded;
      });
      this.loads.set(file, pending);
    }
    return pending;
  }

  /** A source already loaded, without waiting (for positioning diagnostics). */
  peek(file: string): Source | undefined {
    const loaded = this.settled.get(file);
    return loaded && isSource(loaded) ? loaded : undefined;
  }

  /** Many files (a whole project): the cache misses are parsed on every core. */
  async loadMany(files: readonly string[]): Promise<Loaded[]> {
    const todo = files.filter((f) => !this.loads.has(f));
    const reads = await mapLimit(todo, 64, async (file): Promise<RawFile | ReadFailure> => {
      const read = await readTextFile(file, this.limits.maxBytes);
      return read.ok ? rawFile(file, relativeToRoot(this.root, file), read.bytes) : read.failure;
    });
    const parsed = new Map<string, ParsedSource>();
    const misses = new Map<string, RawFile>();
    for (const raw of reads) {
      if ('kind' in raw || parsed.has(raw.hash) || misses.has(raw.hash)) continue;
      const hit = this.cache.get(raw.hash);
      if (hit) parsed.set(raw.hash, hit);
      else misses.set(raw.hash, raw);
    }
    const missed = [...misses.values()];
    const fresh = await parseAll(
      missed.map((m) => m.text),
      this.limits.extensions,
      this.parallelThreshold,
    );
    missed.forEach((miss, i) => {
      this.cache.set(miss.hash, fresh[i]!);
      parsed.set(miss.hash, fresh[i]!);
    });
    todo.forEach((file, i) => {
      const read = reads[i]!;
      const loaded: Loaded = 'kind' in read ? read : makeSource(read, parsed.get(read.hash)!);
      this.loads.set(file, Promise.resolve(loaded));
      this.settled.set(file, loaded);
    });
    return Promise.all(files.map((f) => this.loads.get(f)!));
  }

  forget(file: string): void {
    this.loads.delete(file);
    this.settled.delete(file);
  }

  saveCache(): Promise<void> {
    return this.cache.save();
  }

  private async read(file: string): Promise<Loaded> {
    const read = await readTextFile(file, this.limits.maxBytes);
    if (!read.ok) return read.failure;
    const raw = rawFile(file, relativeToRoot(this.root, file), read.bytes);
    let parsed = this.cache.get(raw.hash);
    if (!parsed) {
      parsed = parseSource(raw.text, this.limits.extensions);
      this.cache.set(raw.hash, parsed);
    }
    return makeSource(raw, parsed);
  }
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
