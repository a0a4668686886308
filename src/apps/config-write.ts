import { auditAfterStatement, auditStatements, type AuditEntry } from "./audit-log";
import { forgetCachedCatalog } from "./catalog-cache";

const versionBump = (db: D1Database, appId: string | number) =>
  db.prepare("UPDATE apps SET catalog_version = catalog_version + 1 WHERE app_id = ?").bind(Number(appId));

/**
 * Every write to configuration goes through here (an app's catalog, the apps themselves, API keys,
 * console users): its statements, the audit entries saying who made it, and the bump of the
 * `catalog_version` of each app it changes are one D1 batch (one transaction). So no write can
 * forget its entry or the bump, and every isolate's cached catalog sees the change (this one at
 * once, others within a second). Writes that change no app's cached configuration (API keys,
 * console users, creating an app) pass no app.
 */
export async function writeConfig(
  db: D1Database,
  appIds: string | number | (string | number)[],
  statements: D1PreparedStatement[],
  audit: AuditEntry[],
): Promise<D1Result[]> {
  const apps = [appIds].flat();
  const batch = [...statements, ...auditStatements(db, audit), ...apps.map((appId) => versionBump(db, appId))];
  // A write that turned out to have nothing to do (a consumer's batch of cancelled deliveries).
  if (batch.length === 0) return [];
  const results = await db.batch(batch);
  for (const appId of apps) forgetCachedCatalog(appId);
  return results.slice(0, statements.length);
}

/**
 * One configuration statement with its audit entry, recorded only when the statement changed a row
 * (a conditional write that did nothing, such as a full category, leaves none); a created row's
 * entry names it with INSERTED_ROW (audit-log.ts). Answers the first row the statement returned
 * (`RETURNING`), or null.
 */
export async function writeConfigRow<T>(
  db: D1Database,
  appId: string | number | null,
  statement: D1PreparedStatement,
  audit: AuditEntry,
): Promise<T | null> {
  const [result] = await db.batch([
    statement,
    auditAfterStatement(db, audit),
    ...(appId === null ? [] : [versionBump(db, appId)]),
  ]);
  if (appId !== null) forgetCachedCatalog(appId);
  return (result.results[0] as T | undefined) ?? null;
}
