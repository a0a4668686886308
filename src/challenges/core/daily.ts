/**
 * The daily category shows `count` challenges of its pool each day. The choice is a pure function
 * of the category's slug, the challenges' keys and the date, so every user of an app sees the same
 * challenges on the same day, every Worker and Durable Object agrees without storing the choice,
 * and an app built from the same catalog document (another deployment: src/catalog) picks the same.
 */

/** FNV-1a, 32 bit: a cheap, stable ordering key. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The keys picked for that day. */
export function dailyPick(poolKeys: string[], count: number, categorySlug: string, dateKey: string): Set<string> {
  if (count >= poolKeys.length) return new Set(poolKeys);
  const ranked = poolKeys
    .map((id) => ({ id, rank: fnv1a(`${categorySlug}:${dateKey}:${id}`) }))
    .sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : 1));
  return new Set(ranked.slice(0, Math.max(0, count)).map((r) => r.id));
}
