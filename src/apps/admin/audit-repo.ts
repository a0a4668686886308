import { pageOffset, type Paging } from "../../shared/paging";
import type { ActorKind, Channel } from "../audit-log";
import type { AuditQuery } from "./audit-schemas";

/** Reads of the audit log (the admin API, the console) and its retention. */

export interface AuditRow {
  entry_id: number;
  at: string;
  app_id: number | null;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_name: string | null;
  channel: Channel;
  ip: string | null;
  request_id: string | null;
  resource: string;
  resource_id: string | null;
  action: string;
  outcome: "done" | "refused";
  before: string | null;
  after: string | null;
}

const parsed = (json: string | null) => (json === null ? null : (JSON.parse(json) as unknown));

export const presentAuditEntry = (row: AuditRow) => ({
  entry_id: String(row.entry_id),
  at: row.at,
  app_id: row.app_id === null ? null : String(row.app_id),
  actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
  origin: { channel: row.channel, ip: row.ip, request_id: row.request_id },
  resource: row.resource,
  resource_id: row.resource_id,
  action: row.action,
  outcome: row.outcome,
  before: parsed(row.before),
  after: parsed(row.after),
});

/** A date is the start of that day; with `end`, the start of the next (that day included). */
function bound(value: string, end: boolean): string {
  if (value.length > 10) return new Date(Date.parse(value)).toISOString();
  return new Date(Date.parse(`${value}T00:00:00Z`) + (end ? 86_400_000 : 0)).toISOString();
}

/** `appId` null: the log of what is not one app's. Newest first. */
export async function listAuditEntries(
  db: D1Database,
  appId: number | null,
  filter: Omit<AuditQuery, keyof Paging>,
  paging: Paging,
) {
  const where = [appId === null ? "app_id IS NULL" : "app_id = ?"];
  const args: unknown[] = appId === null ? [] : [appId];
  if (filter.resource) {
    where.push("resource = ?");
    args.push(filter.resource);
  }
  if (filter.resource_id) {
    where.push("resource_id = ?");
    args.push(filter.resource_id);
  }
  if (filter.actor) {
    where.push("(instr(lower(actor_name), lower(?)) > 0 OR actor_kind = ? OR actor_id = ?)");
    args.push(filter.actor, filter.actor, filter.actor);
  }
  if (filter.from) {
    where.push("at >= ?");
    args.push(bound(filter.from, false));
  }
  if (filter.to) {
    where.push("at < ?");
    args.push(bound(filter.to, true));
  }
  const clause = where.join(" AND ");
  const [rows, total] = await db.batch<AuditRow | { n: number }>([
    db
      .prepare(`SELECT * FROM audit_log WHERE ${clause} ORDER BY entry_id DESC LIMIT ? OFFSET ?`)
      .bind(...args, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE ${clause}`).bind(...args),
  ]);
  return { rows: rows.results as AuditRow[], total: (total.results[0] as { n: number }).n };
}

/**
 * The kinds of objects a log has entries about (the console's resource filter). One index seek per
 * kind (audit_log_by_resource), walking from each kind to the next, never a scan of the app's entries.
 */
export async function auditedResources(db: D1Database, appId: number | null): Promise<string[]> {
  const app = appId === null ? "app_id IS NULL" : "app_id = ?1";
  const rows = await db
    .prepare(
      `WITH RECURSIVE kinds(resource) AS (
         SELECT (SELECT MIN(resource) FROM audit_log WHERE ${app})
         UNION ALL
         SELECT (SELECT MIN(resource) FROM audit_log WHERE ${app} AND resource > kinds.resource) FROM kinds WHERE kinds.resource IS NOT NULL
       )
       SELECT resource FROM kinds WHERE resource IS NOT NULL`,
    )
    .bind(...(appId === null ? [] : [appId]))
    .all<{ resource: string }>();
  return rows.results.map((r) => r.resource);
}

/** Entries removed per cron run at most, so that one run stays short. */
const PRUNE_BATCH = 5000;
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** AUDIT_LOG_RETENTION_DAYS, or the default when it is unset or not a positive number. */
export function auditRetentionDays(value: string | undefined): number {
  const days = Number(value);
  return value && Number.isFinite(days) && days > 0 ? days : DEFAULT_AUDIT_RETENTION_DAYS;
}

/** The cron: removes entries older than the retention, oldest first (entry times are the wall clock's). */
export async function pruneAuditLog(
  env: Pick<Env, "DB"> & { AUDIT_LOG_RETENTION_DAYS?: string },
  wallNow: number,
): Promise<void> {
  const before = new Date(wallNow - auditRetentionDays(env.AUDIT_LOG_RETENTION_DAYS) * 86_400_000).toISOString();
  await env.DB.prepare(
    `DELETE FROM audit_log WHERE entry_id IN (SELECT entry_id FROM audit_log WHERE at < ? ORDER BY at LIMIT ${PRUNE_BATCH})`,
  )
    .bind(before)
    .run();
}
