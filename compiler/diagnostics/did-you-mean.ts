/** "Did you mean …": the known names nearest a mistyped one, instead of a list of hundreds. */

/** `'explore', 'explorer' or 'plan' (4 known)`: up to three nearest names by edit distance, then the count. */
export function nearestNames(name: string, known: readonly string[], kind: string): string {
  if (known.length === 0) return `the bundle has no ${kind}s`;
  const ranked = [...known]
    .map((candidate) => ({ candidate, distance: editDistance(head(name), head(candidate)) }))
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, 3)
    .map((r) => `'${r.candidate}'`);
  const list = ranked.length === 1 ? ranked[0] : `${ranked.slice(0, -1).join(', ')} or ${ranked.at(-1)}`;
  return `did you mean ${list}? (${known.length} ${kind}${known.length === 1 ? '' : 's'} known)`;
}

/** The one known name near enough to `name` to be what was meant, if any. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 3));
  const a = head(name);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    // Only a candidate nearer than the best so far (and within the limit) can change the answer: the
    // comparison stops as soon as it cannot be, so 20,000 unknown keys against 60 rule ids stay cheap.
    const cap = best ? best.distance - 1 : limit;
    if (cap < 0) break;
    const distance = editDistance(a, head(candidate), cap);
    if (distance <= cap) best = { candidate, distance };
  }
  return best?.candidate;
}

/**
 * What is compared: the first characters, lower-cased. A mistyped name is
 * short; comparing whole names costs their lengths' product, which a tree
 * of very long names must not turn into a hang.
 */
function head(name: string): string {
  return name.slice(0, 64).toLowerCase();
}

/** Levenshtein distance, two rows; with `cap`, any distance above it may come back as `cap + 1`, early. */
function editDistance(a: string, b: string, cap = Infinity): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j]! < least) least = row[j]!;
    }
    if (least > cap) return cap + 1; // a row's least value never decreases further down
    prev = row;
  }
  return prev[b.length]!;
}
