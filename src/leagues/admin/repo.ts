import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import { requireRewardSystems } from "../../apps/points-rewards";
import { notFound } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { conflictOnDuplicate, keyClash, named } from "../../shared/statements";
import type { LeagueRow } from "../catalog";
import type { LeagueInput } from "./schemas";

/**
 * D1 access of the admin API's leagues. Writes go through writeConfig (the catalog version moves
 * with them); each is built by a `...Statement` function, which catalog documents use too.
 */

const COLUMNS = [
  "key",
  "name",
  "event_name",
  "filters",
  "value_field",
  "aggregation",
  "tiers",
  "cohort_size",
  "promote",
  "demote",
  "schedule",
  "rewards",
  "authoritative",
  "min_value",
  "max_value",
] as const;

const values = (input: LeagueInput) => [
  input.key,
  JSON.stringify(input.name),
  input.event_name,
  JSON.stringify(input.filters),
  input.value_field,
  input.aggregation,
  JSON.stringify(input.tiers.map((t) => ({ key: t.key, name: t.name }))),
  input.cohort_size,
  input.promote,
  input.demote,
  JSON.stringify({
    period: input.schedule.period,
    reset_at_time: input.schedule.reset_at_time,
    time_zone: input.schedule.time_zone,
  }),
  JSON.stringify(
    input.rewards.map((r) => ({
      tier: r.tier,
      rank_min: r.rank_min,
      rank_max: r.rank_max,
      points_rewards: r.points_rewards,
      reward: r.reward,
    })),
  ),
  input.authoritative ? 1 : 0,
  input.min_value,
  input.max_value,
];

export const leagueColumns = (input: LeagueInput) => named(COLUMNS, values(input));

export function insertLeagueStatement(db: D1Database, appId: number, input: LeagueInput, nowIso: string) {
  return db
    .prepare(
      `INSERT INTO leagues (app_id, ${COLUMNS.join(", ")}, created_at, updated_at)
       VALUES (?, ${COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING *`,
    )
    .bind(appId, ...values(input), nowIso, nowIso);
}

export function updateLeagueStatement(db: D1Database, leagueId: number, input: LeagueInput, nowIso: string) {
  return db
    .prepare(
      `UPDATE leagues SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ? WHERE league_id = ? RETURNING *`,
    )
    .bind(...values(input), nowIso, leagueId);
}

/** The league's seasons, cohorts and standings go with it, removed by the cron in chunks (src/leagues/season-end.ts). */
export const deleteLeagueStatement = (db: D1Database, leagueId: number) =>
  db.prepare("DELETE FROM leagues WHERE league_id = ?").bind(leagueId);

const parse = (raw: string) => {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
};

/** A league as the admin API shows it. */
export function presentLeagueRow(row: LeagueRow) {
  return {
    league_id: String(row.league_id),
    app_id: String(row.app_id),
    key: row.key,
    name: parse(row.name),
    event_name: row.event_name,
    filters: JSON.parse(row.filters),
    value_field: row.value_field,
    aggregation: row.aggregation as "sum" | "max",
    tiers: JSON.parse(row.tiers),
    cohort_size: row.cohort_size,
    promote: row.promote,
    demote: row.demote,
    schedule: JSON.parse(row.schedule),
    rewards: JSON.parse(row.rewards),
    authoritative: row.authoritative === 1,
    min_value: row.min_value,
    max_value: row.max_value,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const leagueAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "league");

/** 400 when a reward names a points system the app does not have. */
async function checkRewards(db: D1Database, appId: number, input: LeagueInput) {
  for (const [i, reward] of input.rewards.entries())
    await requireRewardSystems(db, appId, reward.points_rewards, `rewards.${i}.points_rewards`);
}

export async function insertLeague(db: D1Database, appId: number, input: LeagueInput, nowIso: string, actor: Actor) {
  await checkRewards(db, appId, input);
  const statement = insertLeagueStatement(db, appId, input, nowIso);
  return (await conflictOnDuplicate(
    () => keyClash("league", input.key),
    () => writeConfigRow<LeagueRow>(db, appId, statement, leagueAudit(actor, appId).created(input)),
  ))!;
}

export async function updateLeague(
  db: D1Database,
  current: LeagueRow,
  input: LeagueInput,
  nowIso: string,
  actor: Actor,
) {
  await checkRewards(db, current.app_id, input);
  const statement = updateLeagueStatement(db, current.league_id, input, nowIso);
  const audit = leagueAudit(actor, current.app_id).updated(current.league_id, presentLeagueRow(current), input);
  return (await conflictOnDuplicate(
    () => keyClash("league", input.key),
    () => writeConfigRow<LeagueRow>(db, current.app_id, statement, audit),
  ))!;
}

export async function deleteLeague(db: D1Database, current: LeagueRow, actor: Actor): Promise<void> {
  const audit = leagueAudit(actor, current.app_id).deleted(current.league_id, presentLeagueRow(current));
  await writeConfig(db, current.app_id, [deleteLeagueStatement(db, current.league_id)], [audit]);
}

export async function requireLeague(db: D1Database, appId: number, leagueId: string): Promise<LeagueRow> {
  const id = parseId(leagueId);
  const row =
    id === null
      ? null
      : await db.prepare("SELECT * FROM leagues WHERE app_id = ? AND league_id = ?").bind(appId, id).first<LeagueRow>();
  if (!row) throw notFound(`League ${leagueId} not found`);
  return row;
}

export async function listLeagues(db: D1Database, appId: number, limit: number, offset: number) {
  const [rows, total] = await db.batch<LeagueRow | { n: number }>([
    db.prepare("SELECT * FROM leagues WHERE app_id = ? ORDER BY league_id LIMIT ? OFFSET ?").bind(appId, limit, offset),
    db.prepare("SELECT COUNT(*) AS n FROM leagues WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as LeagueRow[], total: (total.results[0] as { n: number }).n };
}
