/**
 * Names close to a mistyped one: what the event tester and the unused events suggest for an event
 * name that no configuration counts.
 */

/** Edit distance (insertions, deletions, substitutions and swaps of two neighbours), stopping past `max`. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Three rows of the optimal string alignment table: two back (for swaps), previous and current.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidates within `max` edits of `name` (itself left out), closest first, then by name.
 * Case is ignored for the distance: `Kill-Enemy` suggests `kill-enemy`.
 */
export function similarNames(name: string, candidates: Iterable<string>, max = 2): string[] {
  const wanted = name.toLowerCase();
  const found: { name: string; distance: number }[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === name) continue;
    const distance = editDistance(wanted, candidate.toLowerCase(), max);
    if (distance <= max) found.push({ name: candidate, distance });
  }
  return found
    .sort((x, y) => x.distance - y.distance || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .map((f) => f.name);
}
