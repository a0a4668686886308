import { conflictOnDuplicate, encodeColumns, named } from "../../shared/statements";
import { fieldsOf } from "../../kit/catalog";
import { notFound, type FieldProblem } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import type { PointsSystemRow } from "../catalog";
import { PointsSystemFields, type PointsSystemInput } from "./schemas";

/**
 * D1 access of the admin API's points systems. Writes go through writeConfig (the catalog version
 * moves with them); each is built by a `...Statement` function, which catalog documents use too.
 */

/** The row's columns: the admin input's fields, in its order. */
const COLUMNS = fieldsOf(PointsSystemFields.shape) as (keyof PointsSystemInput)[];
const ENCODING: Partial<Record<keyof PointsSystemInput, (value: never) => unknown>> = {
  name: JSON.stringify,
  description: (text: PointsSystemInput["description"]) => (text === null ? null : JSON.stringify(text)),
  spendable: (spendable: boolean) => (spendable ? 1 : 0),
  credits_challenge_xp: (credits: boolean) => (credits ? 1 : 0),
  levels: JSON.stringify,
  // Each trigger's fields in one order, whatever order the input gave them in.
  triggers: (triggers: PointsSystemInput["triggers"]) =>
    JSON.stringify(
      triggers.map((t) => ({
        event_name: t.event_name,
        filters: t.filters,
        value_field: t.value_field,
        every: t.every,
        points: t.points,
      })),
    ),
};

const values = (input: PointsSystemInput) => encodeColumns(COLUMNS, ENCODING, input);

/** The columns a system's input writes, by name. */
export const systemColumns = (input: PointsSystemInput) => named(COLUMNS, values(input));

export function insertSystemStatement(db: D1Database, appId: number, input: PointsSystemInput, nowIso: string) {
  return db
    .prepare(
      `INSERT INTO points_systems (app_id, ${COLUMNS.join(", ")}, created_at, updated_at)
       VALUES (?, ${COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING *`,
    )
    .bind(appId, ...values(input), nowIso, nowIso);
}

export function updateSystemStatement(db: D1Database, systemId: number, input: PointsSystemInput, nowIso: string) {
  return db
    .prepare(
      `UPDATE points_systems SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ? WHERE system_id = ? RETURNING *`,
    )
    .bind(...values(input), nowIso, systemId);
}

export const deleteSystemStatement = (db: D1Database, systemId: number) =>
  db.prepare("DELETE FROM points_systems WHERE system_id = ?").bind(systemId);

/** A system as the admin API shows it. */
export function presentSystemRow(row: PointsSystemRow) {
  const parse = (raw: string) => {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  };
  return {
    system_id: String(row.system_id),
    app_id: String(row.app_id),
    key: row.key,
    name: parse(row.name),
    description: row.description === null ? null : parse(row.description),
    icon: row.icon,
    spendable: row.spendable === 1,
    max_balance: row.max_balance,
    credits_challenge_xp: row.credits_challenge_xp === 1,
    levels: JSON.parse(row.levels),
    triggers: JSON.parse(row.triggers),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Which unique index a write ran into: the key, or the app's one system crediting challenge_xp. */
export function systemClash(message: string, key: string): FieldProblem {
  if (/points_systems\.key/.test(message))
    return { field: "key", problem: `Points system key '${key}' is already used in this app` };
  return {
    field: "credits_challenge_xp",
    problem: "Another points system of this app already credits challenge_xp: at most one may",
  };
}

const systemAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "points-system");

export async function insertSystem(
  db: D1Database,
  appId: number,
  input: PointsSystemInput,
  nowIso: string,
  actor: Actor,
) {
  const statement = insertSystemStatement(db, appId, input, nowIso);
  return (await conflictOnDuplicate(
    (message) => systemClash(message, input.key),
    () => writeConfigRow<PointsSystemRow>(db, appId, statement, systemAudit(actor, appId).created(input)),
  ))!;
}

export async function updateSystem(
  db: D1Database,
  current: PointsSystemRow,
  input: PointsSystemInput,
  nowIso: string,
  actor: Actor,
) {
  const statement = updateSystemStatement(db, current.system_id, input, nowIso);
  const audit = systemAudit(actor, current.app_id).updated(current.system_id, presentSystemRow(current), input);
  return (await conflictOnDuplicate(
    (message) => systemClash(message, input.key),
    () => writeConfigRow<PointsSystemRow>(db, current.app_id, statement, audit),
  ))!;
}

/** Players' balances stay in their objects: a system created again with the same key finds them. */
export async function deleteSystem(db: D1Database, current: PointsSystemRow, actor: Actor): Promise<void> {
  const audit = systemAudit(actor, current.app_id).deleted(current.system_id, presentSystemRow(current));
  await writeConfig(db, current.app_id, [deleteSystemStatement(db, current.system_id)], [audit]);
}

export async function requireSystem(db: D1Database, appId: number, systemId: string): Promise<PointsSystemRow> {
  const id = parseId(systemId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM points_systems WHERE app_id = ? AND system_id = ?")
          .bind(appId, id)
          .first<PointsSystemRow>();
  if (!row) throw notFound(`Points system ${systemId} not found`);
  return row;
}

export async function listSystems(db: D1Database, appId: number, limit: number, offset: number) {
  const [rows, total] = await db.batch<PointsSystemRow | { n: number }>([
    db
      .prepare("SELECT * FROM points_systems WHERE app_id = ? ORDER BY system_id LIMIT ? OFFSET ?")
      .bind(appId, limit, offset),
    db.prepare("SELECT COUNT(*) AS n FROM points_systems WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as PointsSystemRow[], total: (total.results[0] as { n: number }).n };
}
