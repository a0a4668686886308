import { notFound } from "../shared/domain-errors";
import { parseId } from "../shared/ids";
import { backendOnlyEventsOf, rateLimitsOf, type AppSettingsColumns } from "./settings";

export interface AppRow extends AppSettingsColumns {
  app_id: number;
  name: string;
  default_language: string;
  created_at: string;
  updated_at: string;
}

export function presentApp(row: AppRow) {
  const limits = rateLimitsOf(row);
  return {
    app_id: String(row.app_id),
    name: row.name,
    default_language: row.default_language,
    backend_only_events: backendOnlyEventsOf(row),
    rate_limits: { per_user_per_minute: limits.perUserPerMinute, per_app_per_minute: limits.perAppPerMinute },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

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
