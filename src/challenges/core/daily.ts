/**
 * The daily category shows `count` challenges of its pool each day. The choice is a pure function
 * of app, category and date, so every user of an app sees the same challenges on the same day and
 * every Worker and Durable Object agrees without storing the choice.
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

/** The ids picked for that day. */
export function dailyPick(poolIds: string[], count: number, appId: string, categoryId: string, dateKey: string): Set<string> {
  if (count >= poolIds.length) return new Set(poolIds);
  const ranked = poolIds
    .map((id) => ({ id, rank: fnv1a(`${appId}:${categoryId}:${dateKey}:${id}`) }))
    .sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : 1));
  return new Set(ranked.slice(0, Math.max(0, count)).map((r) => r.id));
}
