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
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(head(name), head(candidate));
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.candidate : undefined;
}

/**
 * What is compared: the first characters, lower-cased. A mistyped name is
 * short; comparing whole names costs their lengths' product, which a tree
 * of very long names must not turn into a hang.
 */
function head(name: string): string {
  return name.slice(0, 64).toLowerCase();
}

/** Levenshtein distance, two rows. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
