/**
 * Per-isolate cache of an app's configuration, read on every event. Every configuration write bumps
 * the app's catalog_version (config-write.ts): this isolate drops its copy at once, other isolates notice within
 * REVALIDATE_MS through one tiny version read, so steady traffic costs no D1 read per event.
 */
export const REVALIDATE_MS = 1000;

interface Entry {
  version: number;
  checkedAt: number;
  value: Promise<unknown>;
}

const entries = new Map<string, Entry>();
const cacheKey = (name: string, appId: string) => `${appId}\u0000${name}`;

async function readVersion(db: D1Database, appId: string): Promise<number> {
  const row = await db.prepare("SELECT catalog_version FROM apps WHERE app_id = ?").bind(Number(appId)).first<{ catalog_version: number }>();
  return row?.catalog_version ?? 0;
}

export async function cachedCatalog<T>(
  db: D1Database,
  name: string,
  appId: string,
  load: (db: D1Database, appId: string) => Promise<T>,
): Promise<T> {
  const key = cacheKey(name, appId);
  const entry = entries.get(key);
  const wallNow = Date.now();
  if (entry && wallNow - entry.checkedAt < REVALIDATE_MS) return entry.value as Promise<T>;
  const version = await readVersion(db, appId);
  if (entry && entry.version === version) {
    entry.checkedAt = wallNow;
    return entry.value as Promise<T>;
  }
  // Concurrent misses share one load; a failed load is not cached.
  const value = load(db, appId);
  entries.set(key, { version, checkedAt: wallNow, value });
  value.catch(() => entries.delete(key));
  return value;
}

/** Drops this isolate's copies of an app's catalog; called by every configuration write (config-write.ts). */
export function forgetCachedCatalog(appId: string | number): void {
  for (const key of entries.keys()) if (key.startsWith(`${appId}\u0000`)) entries.delete(key);
}
