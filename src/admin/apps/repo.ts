import { notFound } from "../../shared/errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";

export interface AppRow {
  app_id: number;
  name: string;
  default_language: string;
  created_at: string;
  updated_at: string;
}

export const presentApp = (row: AppRow) => ({
  app_id: String(row.app_id),
  name: row.name,
  default_language: row.default_language,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function findApp(db: D1Database, appId: string): Promise<AppRow | null> {
  const id = parseId(appId);
  if (id === null) return null;
  return db.prepare("SELECT * FROM apps WHERE app_id = ?").bind(id).first<AppRow>();
}

/** The app, or a 404 naming it. */
export async function requireApp(db: D1Database, appId: string): Promise<AppRow> {
  const app = await findApp(db, appId);
  if (!app) throw notFound(`App ${appId} not found`);
  return app;
}

export interface AppInput {
  name: string;
  default_language: string;
}

export async function insertApp(db: D1Database, input: AppInput, nowIso: string): Promise<AppRow> {
  const row = await db
    .prepare("INSERT INTO apps (name, default_language, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING *")
    .bind(input.name, input.default_language, nowIso, nowIso)
    .first<AppRow>();
  return row!;
}

/** A page of apps by id, or by name (the console's order); `search` matches a part of the name. */
export async function listApps(db: D1Database, paging: Paging, options: { orderBy?: "id" | "name"; search?: string } = {}) {
  const order = options.orderBy === "name" ? "name COLLATE NOCASE, app_id" : "app_id";
  const where = "(?1 = '' OR instr(lower(name), lower(?1)) > 0)";
  const search = options.search ?? "";
  const [rows, total] = await db.batch<AppRow | { n: number }>([
    db.prepare(`SELECT * FROM apps WHERE ${where} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(search, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM apps WHERE ${where}`).bind(search),
  ]);
  return { rows: rows.results as AppRow[], total: (total.results[0] as { n: number }).n };
}

export async function updateApp(db: D1Database, app: AppRow, input: AppInput, nowIso: string): Promise<AppRow> {
  const row = await db
    .prepare("UPDATE apps SET name = ?, default_language = ?, updated_at = ? WHERE app_id = ? RETURNING *")
    .bind(input.name, input.default_language, nowIso, app.app_id)
    .first<AppRow>();
  return row!;
}

/** Foreign keys cascade to everything the app owns in D1. */
export async function deleteApp(db: D1Database, app: AppRow): Promise<void> {
  await db.prepare("DELETE FROM apps WHERE app_id = ?").bind(app.app_id).run();
}
