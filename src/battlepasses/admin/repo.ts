import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { badRequest, notFound } from "../../shared/errors";
import { parseId } from "../../shared/ids";
import type { Paging } from "../../shared/paging";
import { pageOffset } from "../../shared/paging";
import {
  groupChallenges,
  LEVEL_ORDER,
  parseLocalized,
  PASS_ORDER,
  type CatalogChallenge,
  type ChallengeRow,
  type LevelRow,
  type PassRow,
} from "../catalog";
import type { BattlePassInput, LevelInput } from "./schemas";

const bool = (v: boolean) => (v ? 1 : 0);
const json = (v: unknown) => JSON.stringify(v);
/** Dates are stored as toIso() text so that comparing text compares time. */
const isoText = (value: string) => new Date(Date.parse(value)).toISOString();

export const presentPassAdmin = (row: PassRow) => ({
  battle_pass_id: String(row.battle_pass_id),
  app_id: String(row.app_id),
  battle_pass_name: parseLocalized(row.battle_pass_name),
  battle_pass_description: parseLocalized(row.battle_pass_description),
  battle_pass_short_description: parseLocalized(row.battle_pass_short_description),
  battle_pass_disclaimer: parseLocalized(row.battle_pass_disclaimer),
  battle_pass_priority: row.battle_pass_priority,
  package_sku_ios: row.package_sku_ios,
  package_sku_android: row.package_sku_android,
  image_xs: row.image_xs,
  image_s: row.image_s,
  image_m: row.image_m,
  image_l: row.image_l,
  image_xl: row.image_xl,
  start_date: row.start_date,
  end_date: row.end_date,
  read_more_link: row.read_more_link,
  is_unlocked_incrementally: row.is_unlocked_incrementally === 1,
  is_active: row.is_active === 1,
  can_purchase_with_money: row.can_purchase_with_money === 1,
  can_purchase_with_coins: row.can_purchase_with_coins === 1,
  backend_only_unlock: row.backend_only_unlock === 1,
  expired_at: row.expired_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const presentChallengeAdmin = (c: CatalogChallenge) => ({
  challenge_id: c.challengeId,
  challenge_name: c.name,
  challenge_goal: c.goal,
  challenge_goal_condition: c.goalCondition,
  challenge_xp: c.xp,
  challenge_icon: c.icon,
  challenge_icon_hd: c.iconHd,
  event_name: c.eventName,
  value_field: c.valueField,
  filters: c.filters,
  counter_scope: c.counterScope,
});

export const presentLevelAdmin = (row: LevelRow, challenges: CatalogChallenge[]) => ({
  level_id: String(row.level_id),
  app_id: String(row.app_id),
  battle_pass_id: String(row.battle_pass_id),
  level_priority: row.level_priority,
  reward_amount: row.reward_amount,
  reward_type_name: row.reward_type_name,
  level_reward_type: row.level_reward_type,
  reward_webhook_url: row.reward_webhook_url,
  challenges: challenges.map(presentChallengeAdmin),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

// ---- battle passes

const PASS_COLUMNS = [
  "battle_pass_name", "battle_pass_description", "battle_pass_short_description", "battle_pass_disclaimer",
  "battle_pass_priority", "package_sku_ios", "package_sku_android", "image_xs", "image_s", "image_m", "image_l",
  "image_xl", "start_date", "end_date", "read_more_link", "is_unlocked_incrementally", "is_active",
  "can_purchase_with_money", "can_purchase_with_coins", "backend_only_unlock",
] as const;

const passValues = (p: BattlePassInput) => [
  json(p.battle_pass_name), json(p.battle_pass_description), json(p.battle_pass_short_description), json(p.battle_pass_disclaimer),
  p.battle_pass_priority, p.package_sku_ios, p.package_sku_android, p.image_xs, p.image_s, p.image_m, p.image_l,
  p.image_xl, isoText(p.start_date), isoText(p.end_date), p.read_more_link, bool(p.is_unlocked_incrementally), bool(p.is_active),
  bool(p.can_purchase_with_money), bool(p.can_purchase_with_coins), bool(p.backend_only_unlock),
];

export async function insertPass(db: D1Database, appId: number, input: BattlePassInput, nowIso: string): Promise<PassRow> {
  const columns = ["app_id", ...PASS_COLUMNS, "created_at", "updated_at"];
  const statement = db
    .prepare(`INSERT INTO battle_passes (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING *`)
    .bind(appId, ...passValues(input), nowIso, nowIso);
  return (await writeConfigRow<PassRow>(db, appId, statement))!;
}

/**
 * Replaces a pass's settings. A pass whose end moves into the future may end again later, so it
 * is made eligible for another battlepass-expired.
 */
export async function updatePass(db: D1Database, pass: PassRow, input: BattlePassInput, nowIso: string): Promise<PassRow> {
  const statement = db
    .prepare(
      `UPDATE battle_passes SET ${PASS_COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ?,
         expired_at = CASE WHEN ? > ? THEN NULL ELSE expired_at END
       WHERE battle_pass_id = ? RETURNING *`,
    )
    .bind(...passValues(input), nowIso, isoText(input.end_date), nowIso, pass.battle_pass_id);
  return (await writeConfigRow<PassRow>(db, pass.app_id, statement))!;
}

export async function requirePass(db: D1Database, appId: number, battlePassId: string): Promise<PassRow> {
  const id = parseId(battlePassId);
  const row = id === null ? null : await db.prepare("SELECT * FROM battle_passes WHERE battle_pass_id = ? AND app_id = ?").bind(id, appId).first<PassRow>();
  if (!row) throw notFound(`Battle pass ${battlePassId} not found`);
  return row;
}

export async function listPasses(db: D1Database, appId: number, paging: Paging) {
  const [rows, total] = await db.batch<unknown>([
    db.prepare(`SELECT * FROM battle_passes WHERE app_id = ? ORDER BY ${PASS_ORDER} LIMIT ? OFFSET ?`).bind(appId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM battle_passes WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as PassRow[], total: (total.results[0] as { n: number }).n };
}

export async function deletePass(db: D1Database, pass: PassRow): Promise<void> {
  // Levels and their challenges go with it (foreign keys cascade).
  await writeConfig(db, pass.app_id, [db.prepare("DELETE FROM battle_passes WHERE battle_pass_id = ?").bind(pass.battle_pass_id)]);
}

// ---- levels and their challenges

const REWARD_TYPE_NAMES: Record<string, string> = { coin: "Coins", experience: "Experience" };

const levelValues = (input: LevelInput) => [
  input.reward_amount,
  input.reward_type_name ?? REWARD_TYPE_NAMES[input.level_reward_type] ?? "",
  input.level_reward_type,
  input.reward_webhook_url,
];

type ChallengeInput = LevelInput["challenges"][number];

const CHALLENGE_COLUMNS = [
  "position", "challenge_name", "challenge_goal", "challenge_goal_condition", "challenge_xp", "challenge_icon",
  "challenge_icon_hd", "event_name", "value_field", "filters", "counter_scope",
] as const;

const challengeValues = (c: ChallengeInput, position: number) => [
  position, json(c.challenge_name), c.challenge_goal, c.challenge_goal_condition, c.challenge_xp, c.challenge_icon,
  c.challenge_icon_hd, c.event_name, c.value_field, json(c.filters), c.counter_scope,
];

/** Inserts a challenge of the level that `levelIdSql` selects (bound with `levelIdArgs`). */
function insertChallenge(db: D1Database, appId: number, levelIdSql: string, levelIdArgs: unknown[], c: ChallengeInput, position: number) {
  return db
    .prepare(
      `INSERT INTO battle_pass_challenges (app_id, level_id, ${CHALLENGE_COLUMNS.join(", ")})
       VALUES (?, ${levelIdSql}, ${CHALLENGE_COLUMNS.map(() => "?").join(", ")})`,
    )
    .bind(appId, ...levelIdArgs, ...challengeValues(c, position));
}

export async function insertLevel(db: D1Database, pass: PassRow, input: LevelInput, nowIso: string): Promise<number> {
  if (input.challenges.some((c) => c.challenge_id !== undefined)) {
    throw badRequest("A new level has no challenges yet: leave challenge_id out", [{ field: "challenges", problem: "challenge_id on create" }]);
  }
  // One transaction: the batch is serialized, so the newest level id is the one just inserted.
  const newLevelId = "(SELECT MAX(level_id) FROM battle_pass_levels)";
  const results = await writeConfig(db, pass.app_id, [
    db
      .prepare(
        `INSERT INTO battle_pass_levels (app_id, battle_pass_id, level_priority, reward_amount, reward_type_name, level_reward_type,
           reward_webhook_url, created_at, updated_at)
         VALUES (?, ?, COALESCE(?, (SELECT COALESCE(MAX(level_priority) + 1, 0) FROM battle_pass_levels WHERE battle_pass_id = ?)),
           ?, ?, ?, ?, ?, ?) RETURNING level_id`,
      )
      .bind(pass.app_id, pass.battle_pass_id, input.level_priority ?? null, pass.battle_pass_id, ...levelValues(input), nowIso, nowIso),
    ...input.challenges.map((c, i) => insertChallenge(db, pass.app_id, newLevelId, [], c, i)),
  ]);
  return (results[0].results[0] as { level_id: number }).level_id;
}

/**
 * Replaces a level. Challenges named by challenge_id are updated in place (users keep their
 * progress in them), new ones are added, and those left out are deleted.
 */
export async function updateLevel(db: D1Database, level: LevelRow, existing: CatalogChallenge[], input: LevelInput, nowIso: string) {
  const known = new Set(existing.map((c) => c.challengeId));
  const unknown = input.challenges.findIndex((c) => c.challenge_id !== undefined && !known.has(c.challenge_id));
  if (unknown >= 0) {
    throw badRequest(`Challenge ${input.challenges[unknown].challenge_id} is not a challenge of level ${level.level_id}`, [
      { field: `challenges.${unknown}.challenge_id`, problem: "not a challenge of this level" },
    ]);
  }
  const kept = new Set(input.challenges.map((c) => c.challenge_id).filter((id) => id !== undefined));
  const removed = [...known].filter((id) => !kept.has(id));
  await writeConfig(db, level.app_id, [
    db
      .prepare(
        `UPDATE battle_pass_levels SET level_priority = COALESCE(?, level_priority), reward_amount = ?, reward_type_name = ?,
           level_reward_type = ?, reward_webhook_url = ?, updated_at = ? WHERE level_id = ?`,
      )
      .bind(input.level_priority ?? null, ...levelValues(input), nowIso, level.level_id),
    ...removed.map((id) => db.prepare("DELETE FROM battle_pass_challenges WHERE challenge_id = ?").bind(Number(id))),
    ...input.challenges.map((c, i) =>
      c.challenge_id === undefined
        ? insertChallenge(db, level.app_id, "?", [level.level_id], c, i)
        : db
            .prepare(`UPDATE battle_pass_challenges SET ${CHALLENGE_COLUMNS.map((col) => `${col} = ?`).join(", ")} WHERE challenge_id = ?`)
            .bind(...challengeValues(c, i), Number(c.challenge_id)),
    ),
  ]);
}

export async function requireLevel(db: D1Database, pass: PassRow, levelId: string): Promise<{ row: LevelRow; challenges: CatalogChallenge[] }> {
  const id = parseId(levelId);
  if (id !== null) {
    const [level, challenges] = await db.batch<unknown>([
      db.prepare("SELECT * FROM battle_pass_levels WHERE level_id = ? AND battle_pass_id = ?").bind(id, pass.battle_pass_id),
      db.prepare("SELECT * FROM battle_pass_challenges WHERE level_id = ? ORDER BY position").bind(id),
    ]);
    const row = level.results[0] as LevelRow | undefined;
    if (row) return { row, challenges: groupChallenges(challenges.results as ChallengeRow[]).get(row.level_id) ?? [] };
  }
  throw notFound(`Level ${levelId} not found in battle pass ${pass.battle_pass_id}`);
}

export async function listLevels(db: D1Database, pass: PassRow, paging: Paging) {
  const page = `SELECT level_id FROM battle_pass_levels WHERE battle_pass_id = ? ORDER BY ${LEVEL_ORDER} LIMIT ? OFFSET ?`;
  const [levels, challenges, total] = await db.batch<unknown>([
    db.prepare(`SELECT * FROM battle_pass_levels WHERE level_id IN (${page}) ORDER BY ${LEVEL_ORDER}`).bind(pass.battle_pass_id, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT * FROM battle_pass_challenges WHERE level_id IN (${page}) ORDER BY level_id, position`).bind(pass.battle_pass_id, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM battle_pass_levels WHERE battle_pass_id = ?").bind(pass.battle_pass_id),
  ]);
  const byLevel = groupChallenges(challenges.results as ChallengeRow[]);
  return {
    items: (levels.results as LevelRow[]).map((row) => presentLevelAdmin(row, byLevel.get(row.level_id) ?? [])),
    total: (total.results[0] as { n: number }).n,
  };
}

export async function deleteLevel(db: D1Database, level: LevelRow): Promise<void> {
  await writeConfig(db, level.app_id, [db.prepare("DELETE FROM battle_pass_levels WHERE level_id = ?").bind(level.level_id)]);
}
