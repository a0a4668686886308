/**
 * Per-isolate cache of an app's configuration, read on every event. Every configuration write bumps
 * the app's catalog_version (config-write.ts): this isolate drops its copy at once, other isolates notice within
 * REVALIDATE_MS (plus one version read) through one tiny version read, so steady traffic costs no D1 read per event.
 *
 * The version is checked once per app, not once per part of its configuration (an event reads
 * several), and by one request at a time: while its read is under way, the app's other requests go
 * on with the version known so far instead of each reading it too. They do not wait for that read:
 * the runtime ties a pending promise to the request that started it, and a request awaiting
 * another's I/O is cancelled as hung. For the same reason a configuration is loaded by every
 * request that misses it, never awaited from another's load.
 */
export const REVALIDATE_MS = 1000;

interface Entry {
  version: number;
  value: unknown;
}

interface Version {
  value: number;
  checkedAt: number;
  reading: boolean;
}

const entries = new Map<string, Entry>();
const versions = new Map<string, Version>();
const cacheKey = (name: string, appId: string) => `${appId}\u0000${name}`;

async function readVersion(db: D1Database, appId: string): Promise<number> {
  const row = await db
    .prepare("SELECT catalog_version FROM apps WHERE app_id = ?")
    .bind(Number(appId))
    .first<{ catalog_version: number }>();
  return row?.catalog_version ?? 0;
}

/** The app's catalog version: read when older than REVALIDATE_MS, unless another request is reading it. */
async function currentVersion(db: D1Database, appId: string): Promise<number> {
  const known = versions.get(appId);
  const wallNow = Date.now();
  if (known && (wallNow - known.checkedAt < REVALIDATE_MS || known.reading)) return known.value;
  if (known) known.reading = true;
  try {
    const value = await readVersion(db, appId);
    // Kept unless a configuration write of this isolate dropped the record meanwhile: the next request reads again.
    if (versions.get(appId) === known) versions.set(appId, { value, checkedAt: wallNow, reading: false });
    return value;
  } finally {
    if (known) known.reading = false;
  }
}

export async function cachedCatalog<T>(
  db: D1Database,
  name: string,
  appId: string,
  load: (db: D1Database, appId: string) => Promise<T>,
): Promise<T> {
  const key = cacheKey(name, appId);
  const version = await currentVersion(db, appId);
  const entry = entries.get(key);
  if (entry && entry.version === version) return entry.value as T;
  const value = await load(db, appId);
  // A newer version loaded meanwhile by another request stays.
  if ((entries.get(key)?.version ?? -1) <= version) entries.set(key, { version, value });
  return value;
}

/**
 * Drops this isolate's copies of an app's catalog and its version; called by every configuration write
 * (config-write.ts).
 */
export function forgetCachedCatalog(appId: string | number): void {
  versions.delete(String(appId));
  for (const key of entries.keys()) if (key.startsWith(`${appId}\u0000`)) entries.delete(key);
}
