/**
 * The manifest's `sources`: every source and every file an include reaches,
 * by path, with its hash and the files it includes directly. A large project
 * has tens of thousands of them, and a watch-mode rebuild changes a handful:
 * the record keeps its paths in order and its entries beside them, so a
 * rebuild looks again only at the paths a change touched — no pass that
 * looks up, or sorts, every path of the project.
 */
import { withSortedKeys } from '../core/hash.js';
import type { SourceEntry } from '../runtime/manifest.js';

/** A path's entry; null when the path has none (not a source, or unreadable). */
export type EntryOf = (rel: string) => SourceEntry | null | Promise<SourceEntry | null>;

export class SourcesRecord {
  /** Sorted. */
  private paths: string[] = [];
  private entries: SourceEntry[] = [];
  private readonly position = new Map<string, number>();

  /** The record of every path of `candidates` (each once, any order) that has an entry. */
  async rebuild(candidates: readonly string[], entryOf: EntryOf): Promise<Record<string, SourceEntry>> {
    const paths: string[] = [];
    const entries: SourceEntry[] = [];
    for (const rel of [...candidates].sort()) {
      const looked = entryOf(rel);
      // Awaited only when a promise: an `await` of each of thousands of entries at hand would cost a turn of the queue each.
      const entry = looked instanceof Promise ? await looked : looked;
      if (entry) {
        paths.push(rel);
        entries.push(entry);
      }
    }
    this.paths = paths;
    this.entries = entries;
    this.position.clear();
    paths.forEach((rel, i) => this.position.set(rel, i));
    return this.record();
  }

  /**
   * The record with the entries of `touched` paths looked up again, all
   * others as they were; null when a touched path gained or lost its entry,
   * which takes a `rebuild`.
   */
  async update(touched: Iterable<string>, entryOf: EntryOf): Promise<Record<string, SourceEntry> | null> {
    const updates: Array<[number, SourceEntry]> = [];
    for (const rel of touched) {
      const entry = await entryOf(rel);
      const at = this.position.get(rel);
      if ((entry === null) !== (at === undefined)) return null;
      if (entry !== null) updates.push([at!, entry]);
    }
    for (const [at, entry] of updates) this.entries[at] = entry;
    return this.record();
  }

  get size(): number {
    return this.paths.length;
  }

  /** A new object every time: a manifest, once returned, never changes. */
  private record(): Record<string, SourceEntry> {
    const record: Record<string, SourceEntry> = {};
    const { paths, entries } = this;
    for (let i = 0; i < paths.length; i++) record[paths[i]!] = entries[i]!;
    return withSortedKeys(record, paths);
  }
}
