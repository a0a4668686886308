import { forgetCachedCatalog } from "./catalog-cache";

/**
 * Every write to an app's configuration goes through here: its statements and the bump of the
 * `catalog_version` of each app it changes are one D1 batch (one transaction), so no write can forget the bump and
 * every isolate's cached catalog sees the change (this one at once, others within a second).
 */
export async function writeConfig(db: D1Database, appIds: string | number | (string | number)[], statements: D1PreparedStatement[]): Promise<D1Result[]> {
  const apps = [appIds].flat();
  const bumps = apps.map((appId) => db.prepare("UPDATE apps SET catalog_version = catalog_version + 1 WHERE app_id = ?").bind(Number(appId)));
  const results = await db.batch([...statements, ...bumps]);
  for (const appId of apps) forgetCachedCatalog(appId);
  return results.slice(0, statements.length);
}

/** One configuration statement; answers the first row it returned (`RETURNING`), or null. */
export async function writeConfigRow<T>(db: D1Database, appId: string | number, statement: D1PreparedStatement): Promise<T | null> {
  const [result] = await writeConfig(db, appId, [statement]);
  return (result.results[0] as T | undefined) ?? null;
}
