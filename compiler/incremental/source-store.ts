/**
 * Loads sources once per build session and shares them: between the files a
 * build discovers and the files their includes reach, and across watch-mode
 * rebuilds (a changed file is forgotten, then loaded again). Parse results
 * come from the persistent cache when the bytes are unchanged.
 */
import type { IncludeLimits } from '../core/options.js';
import { isInside } from '../core/paths.js';
import { realPathResolver, type RealPathResolver, type ResolvedPath } from '../core/real-paths.js';
import { relativeToRoot } from '../include/include.js';
import type { ParseCache } from './parse-cache.js';
import { ParsePool } from './parse-pool.js';
import {
  makeSource,
  parseSource,
  rawFile,
  readTextFileSync,
  textFromBytes,
  type ParsedSource,
  type RawFile,
  type ReadFailure,
  type ReadResult,
  type Source,
} from '../markdown/source.js';

export type Loaded = Source | ReadFailure;

/** Texts per parse batch, in characters: small enough to share out, large enough to amortise a message. */
const BATCH_BYTES = 64 * 1024;

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
    /** Texts that stand for files, by absolute path: an editor's unsaved buffers (the language server's). Read, never kept. */
    private readonly overlay: ReadonlyMap<string, string> = new Map(),
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

  /**
   * Many files (a whole project). Reading and parsing overlap: every batch of
   * cache misses goes to the parse pool as soon as it is read, and this
   * thread joins the parsing when it has read everything.
   */
  async loadMany(files: readonly string[]): Promise<Loaded[]> {
    const todo = files.filter((f) => !this.loads.has(f));
    const pool = todo.length >= this.parallelThreshold ? ParsePool.open(this.limits.extensions) : null;
    try {
      await this.loadInto(todo, pool);
    } finally {
      await pool?.close();
    }
    return Promise.all(files.map((f) => this.loads.get(f)!));
  }

  private async loadInto(todo: readonly string[], pool: ParsePool | null): Promise<void> {
    const parsed = new Map<string, ParsedSource>();
    const queued = new Set<string>();
    const batches: Array<Promise<void>> = [];
    let batch: RawFile[] = [];
    let batchBytes = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      const texts = batch.map((r) => r.text);
      const hashes = batch.map((r) => r.hash);
      const done = pool ? pool.submit(texts) : Promise.resolve(texts.map((t) => parseSource(t, this.limits.extensions)));
      batches.push(
        done.then((results) =>
          results.forEach((result, i) => {
            this.cache.set(hashes[i]!, result);
            parsed.set(hashes[i]!, result);
          }),
        ),
      );
      batch = [];
      batchBytes = 0;
    };

    const reads: Array<RawFile | ReadFailure> = [];
    const resolve = realPathResolver();
    for (const [i, file] of todo.entries()) {
      const read = this.readConfined(file, resolve);
      const raw = read.ok ? rawFile(file, relativeToRoot(this.root, file), read.bytes) : read.failure;
      reads.push(raw);
      if ('kind' in raw || queued.has(raw.hash)) continue;
      queued.add(raw.hash);
      const hit = this.cache.get(raw.hash);
      if (hit) {
        parsed.set(raw.hash, hit);
        continue;
      }
      batch.push(raw);
      batchBytes += raw.text.length;
      if (batchBytes >= BATCH_BYTES) flush();
      // Yield now and then, so workers that finished a batch can take the next.
      if (pool && i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
    flush();
    await pool?.help();
    await Promise.all(batches);

    todo.forEach((file, i) => {
      const read = reads[i]!;
      const loaded: Loaded = 'kind' in read ? read : makeSource(read, parsed.get(read.hash)!);
      this.loads.set(file, Promise.resolve(loaded));
      this.settled.set(file, loaded);
    });
  }

  forget(file: string): void {
    this.loads.delete(file);
    this.settled.delete(file);
  }

  saveCache(): Promise<void> {
    return this.cache.save();
  }

  private async read(file: string): Promise<Loaded> {
    const read = this.readConfined(file, realPathResolver());
    if (!read.ok) return read.failure;
    const raw = rawFile(file, relativeToRoot(this.root, file), read.bytes);
    let parsed = this.cache.get(raw.hash);
    if (!parsed) {
      parsed = parseSource(raw.text, this.limits.extensions);
      this.cache.set(raw.hash, parsed);
    }
    return makeSource(raw, parsed);
  }

  /**
   * Reads a file only when its real path is inside the root: a source that is
   * a symlink out of the project is refused before anything opens it.
   */
  private readConfined(file: string, resolve: RealPathResolver): ReadResult {
    let resolved: ResolvedPath;
    try {
      resolved = resolve(file);
    } catch {
      return readTextFileSync(file, this.limits.maxBytes); // missing, or unreadable: the reader says which
    }
    if (!isInside(this.root, resolved.real)) return { ok: false, failure: { kind: 'outside-root' } };
    const unsaved = this.overlay.get(file) ?? this.overlay.get(resolved.real);
    if (unsaved !== undefined) return textFromBytes(Buffer.from(unsaved, 'utf8'), this.limits.maxBytes);
    return readTextFileSync(resolved.real, this.limits.maxBytes, resolved.stat);
  }
}
