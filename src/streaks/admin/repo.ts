import { conflictOnDuplicate, named } from "../../shared/statements";
import { notFound, type FieldProblem } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import type { StreakRow } from "../catalog";
import type { StreakInput } from "./schemas";

/**
 * D1 access of the admin API's streaks. Writes go through writeConfig (the catalog version moves
 * with them); each is built by a `...Statement` function, which catalog documents use too.
 */

const COLUMNS = [
  "key",
  "name",
  "period",
  "event_name",
  "filters",
  "min_count",
  "reset_at_time",
  "time_zone",
  "freezes",
  "milestones",
] as const;

const values = (input: StreakInput) => [
  input.key,
  JSON.stringify(input.name),
  input.period,
  input.event_name,
  JSON.stringify(input.filters),
  input.min_count,
  input.reset_at_time,
  input.time_zone,
  JSON.stringify({ initial: input.freezes.initial, earn_every: input.freezes.earn_every, max: input.freezes.max }),
  JSON.stringify(input.milestones.map((m) => ({ length: m.length, points_rewards: m.points_rewards }))),
];

/** The columns a streak's input writes, by name. */
export const streakColumns = (input: StreakInput) => named(COLUMNS, values(input));

export function insertStreakStatement(db: D1Database, appId: number, input: StreakInput, nowIso: string) {
  return db
    .prepare(
      `INSERT INTO streaks (app_id, ${COLUMNS.join(", ")}, created_at, updated_at)
       VALUES (?, ${COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING *`,
    )
    .bind(appId, ...values(input), nowIso, nowIso);
}

export function updateStreakStatement(db: D1Database, streakId: number, input: StreakInput, nowIso: string) {
  return db
    .prepare(
      `UPDATE streaks SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ? WHERE streak_id = ? RETURNING *`,
    )
    .bind(...values(input), nowIso, streakId);
}

export const deleteStreakStatement = (db: D1Database, streakId: number) =>
  db.prepare("DELETE FROM streaks WHERE streak_id = ?").bind(streakId);

/** A streak as the admin API shows it. */
export function presentStreakRow(row: StreakRow) {
  const parse = (raw: string) => {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  };
  return {
    streak_id: String(row.streak_id),
    app_id: String(row.app_id),
    key: row.key,
    name: parse(row.name),
    period: row.period as "daily" | "weekly",
    event_name: row.event_name,
    filters: JSON.parse(row.filters),
    min_count: row.min_count,
    reset_at_time: row.reset_at_time,
    time_zone: row.time_zone,
    freezes: JSON.parse(row.freezes),
    milestones: JSON.parse(row.milestones),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const keyClash = (key: string): FieldProblem => ({
  field: "key",
  problem: `Streak key '${key}' is already used in this app`,
});

const streakAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "streak");

export async function insertStreak(db: D1Database, appId: number, input: StreakInput, nowIso: string, actor: Actor) {
  const statement = insertStreakStatement(db, appId, input, nowIso);
  return (await conflictOnDuplicate(
    () => keyClash(input.key),
    () => writeConfigRow<StreakRow>(db, appId, statement, streakAudit(actor, appId).created(input)),
  ))!;
}

export async function updateStreak(
  db: D1Database,
  current: StreakRow,
  input: StreakInput,
  nowIso: string,
  actor: Actor,
) {
  const statement = updateStreakStatement(db, current.streak_id, input, nowIso);
  const audit = streakAudit(actor, current.app_id).updated(current.streak_id, presentStreakRow(current), input);
  return (await conflictOnDuplicate(
    () => keyClash(input.key),
    () => writeConfigRow<StreakRow>(db, current.app_id, statement, audit),
  ))!;
}

/** Players' states stay in their objects; a streak created again gets a new id and starts afresh. */
export async function deleteStreak(db: D1Database, current: StreakRow, actor: Actor): Promise<void> {
  const audit = streakAudit(actor, current.app_id).deleted(current.streak_id, presentStreakRow(current));
  await writeConfig(db, current.app_id, [deleteStreakStatement(db, current.streak_id)], [audit]);
}

export async function requireStreak(db: D1Database, appId: number, streakId: string): Promise<StreakRow> {
  const id = parseId(streakId);
  const row =
    id === null
      ? null
      : await db.prepare("SELECT * FROM streaks WHERE app_id = ? AND streak_id = ?").bind(appId, id).first<StreakRow>();
  if (!row) throw notFound(`Streak ${streakId} not found`);
  return row;
}

export async function listStreaks(db: D1Database, appId: number, limit: number, offset: number) {
  const [rows, total] = await db.batch<StreakRow | { n: number }>([
    db.prepare("SELECT * FROM streaks WHERE app_id = ? ORDER BY streak_id LIMIT ? OFFSET ?").bind(appId, limit, offset),
    db.prepare("SELECT COUNT(*) AS n FROM streaks WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as StreakRow[], total: (total.results[0] as { n: number }).n };
}
