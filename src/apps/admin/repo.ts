import { pageOffset, type Paging } from "../../shared/paging";
import { auditOf, type Actor } from "../audit-log";
import { writeConfig, writeConfigRow } from "../config-write";
import { presentApp, type AppRow } from "../repo";
import type { AppSettingsColumns } from "../settings";
import type { AppInput, AppSettingsInput } from "./schemas";

/** D1 writes and reads of the admin API for apps. Apps are in the log of what is not one app's. */

const appAudit = (actor: Actor) => auditOf(actor, null, "app");

/** The settings columns of an input: each event once; a rate limit left out is NULL, the service's default. */
export const settingsColumns = (input: AppSettingsInput): AppSettingsColumns => ({
  backend_only_events: JSON.stringify([...new Set(input.backend_only_events)]),
  rate_limit_per_user_per_minute: input.rate_limits.per_user_per_minute ?? null,
  rate_limit_per_app_per_minute: input.rate_limits.per_app_per_minute ?? null,
});

/** The settings columns of an input, in the order of SETTINGS_COLUMNS. */
const settings = (input: AppSettingsInput) => {
  const columns = settingsColumns(input);
  return [columns.backend_only_events, columns.rate_limit_per_user_per_minute, columns.rate_limit_per_app_per_minute];
};
const SETTINGS_COLUMNS = "backend_only_events, rate_limit_per_user_per_minute, rate_limit_per_app_per_minute";

export async function createApp(db: D1Database, input: AppInput, nowIso: string, actor: Actor): Promise<AppRow> {
  const statement = db
    .prepare(
      `INSERT INTO apps (name, default_language, ${SETTINGS_COLUMNS}, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .bind(input.name, input.default_language, ...settings(input), nowIso, nowIso);
  return (await writeConfigRow<AppRow>(db, null, statement, appAudit(actor).created(input)))!;
}

/** A page of apps by id, or by name (the console's order); `search` matches a part of the name. */
export async function listApps(
  db: D1Database,
  paging: Paging,
  options: { orderBy?: "id" | "name"; search?: string } = {},
): Promise<{ rows: AppRow[]; total: number }> {
  const order = options.orderBy === "name" ? "name COLLATE NOCASE, app_id" : "app_id";
  const where = "(?1 = '' OR instr(lower(name), lower(?1)) > 0)";
  const search = options.search ?? "";
  const [rows, total] = await db.batch<AppRow | { n: number }>([
    db
      .prepare(`SELECT * FROM apps WHERE ${where} ORDER BY ${order} LIMIT ?2 OFFSET ?3`)
      .bind(search, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM apps WHERE ${where}`).bind(search),
  ]);
  return { rows: rows.results as AppRow[], total: (total.results[0] as { n: number }).n };
}

/**
 * The default language and the fair-play settings are read through the catalog cache, so this is a configuration write.
 */
export async function updateApp(
  db: D1Database,
  app: AppRow,
  input: AppInput,
  nowIso: string,
  actor: Actor,
): Promise<AppRow> {
  const statement = db
    .prepare(
      `UPDATE apps SET name = ?, default_language = ?, backend_only_events = ?, rate_limit_per_user_per_minute = ?,
         rate_limit_per_app_per_minute = ?, updated_at = ? WHERE app_id = ? RETURNING *`,
    )
    .bind(input.name, input.default_language, ...settings(input), nowIso, app.app_id);
  return (await writeConfigRow<AppRow>(
    db,
    app.app_id,
    statement,
    appAudit(actor).updated(app.app_id, presentApp(app), input),
  ))!;
}

/**
 * Replaces the app's fair-play settings alone (a catalog apply, in its batch): a configuration
 * write, whose caller records the entry and moves the catalog version.
 */
export const updateSettingsStatement = (db: D1Database, appId: number, input: AppSettingsInput, nowIso: string) =>
  db
    .prepare(
      `UPDATE apps SET backend_only_events = ?, rate_limit_per_user_per_minute = ?, rate_limit_per_app_per_minute = ?, updated_at = ?
       WHERE app_id = ?`,
    )
    .bind(...settings(input), nowIso, appId);

/** Foreign keys cascade to everything the app owns in D1; its audit entries stay (they have no foreign key). */
export async function deleteApp(db: D1Database, app: AppRow, actor: Actor): Promise<void> {
  await writeConfig(
    db,
    app.app_id,
    [db.prepare("DELETE FROM apps WHERE app_id = ?").bind(app.app_id)],
    [appAudit(actor).deleted(app.app_id, presentApp(app))],
  );
}
