/** The names registry of `Entries`: sections and agents by name, kept up to date across rebuilds. */
import { caseFolded } from '../definitions/names.js';

/**
 * Outputs by name, where several files may claim one name: the first in path
 * order holds it, the others are duplicates, reported and not emitted.
 */
export class NameClaims<T> {
  /** Name → its claims, sorted by path. */
  private readonly claims = new Map<string, Array<{ rel: string; value: T }>>();
  readonly holders = new Map<string, T>();
  /** Names claimed more than once. */
  private readonly contested = new Set<string>();
  /** Case-folded name → the names claimed that fold to it (see names.ts). */
  private readonly folds = new Map<string, Set<string>>();
  /** Folded names that more than one name folds to. */
  private readonly foldsContested = new Set<string>();
  private inOrder: T[] | null = null;

  /** Adds (`step` 1) or withdraws (-1) the claim of `rel` on `name`. */
  adjust(name: string, rel: string, step: 1 | -1, value: () => T): void {
    const claims = this.claims.get(name) ?? [];
    const claimedBefore = claims.length > 0;
    if (step > 0) {
      const at = claims.findIndex((claim) => claim.rel > rel);
      claims.splice(at === -1 ? claims.length : at, 0, { rel, value: value() });
    } else {
      claims.splice(claims.findIndex((claim) => claim.rel === rel), 1);
    }
    if (claims.length > 0) {
      this.claims.set(name, claims);
      this.holders.set(name, claims[0]!.value);
    } else {
      this.claims.delete(name);
      this.holders.delete(name);
    }
    if (claims.length > 1) this.contested.add(name);
    else this.contested.delete(name);
    if (claimedBefore !== claims.length > 0) this.refold(name, claims.length > 0 ? 1 : -1);
    this.inOrder = null;
  }

  private refold(name: string, step: 1 | -1): void {
    const folded = caseFolded(name);
    adjustSet(this.folds, folded, name, step);
    if ((this.folds.get(folded)?.size ?? 0) > 1) this.foldsContested.add(folded);
    else this.foldsContested.delete(folded);
  }

  /**
   * Names that differ from another only by case, each with the one that
   * comes first in path order: their artifacts would be one file on a disk
   * that ignores case.
   */
  *caseCollisions(): Iterable<{ name: string; rel: string; other: string; otherRel: string }> {
    for (const folded of this.foldsContested) {
      const [first, ...others] = [...this.folds.get(folded)!]
        .map((name) => ({ name, rel: this.claims.get(name)![0]!.rel }))
        .sort((a, b) => (a.rel < b.rel ? -1 : 1));
      for (const o of others) yield { name: o.name, rel: o.rel, other: first!.name, otherRel: first!.rel };
    }
  }

  /** What holds each name, in path order. */
  held(): T[] {
    return (this.inOrder ??= [...this.claims.values()]
      .map((claims) => claims[0]!)
      .sort((a, b) => (a.rel < b.rel ? -1 : 1))
      .map((claim) => claim.value));
  }

  /** Each claim beyond the first, with the path of the first. */
  *duplicates(): Iterable<{ name: string; rel: string; first: string }> {
    for (const name of this.contested) {
      const [first, ...others] = this.claims.get(name)!;
      for (const claim of others) yield { name, rel: claim.rel, first: first!.rel };
    }
  }
}

export function adjustSet(map: Map<string, Set<string>>, key: string, member: string, step: 1 | -1): void {
  let members = map.get(key);
  if (!members) map.set(key, (members = new Set()));
  if (step > 0) members.add(member);
  else members.delete(member);
  if (members.size === 0) map.delete(key);
}

export function adjustCount(map: Map<string, number>, key: string, step: 1 | -1): void {
  const count = (map.get(key) ?? 0) + step;
  if (count > 0) map.set(key, count);
  else map.delete(key);
}
