import { parsePointsRewards } from "../../apps/points-rewards";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import { invalid, notFound, type FieldProblem } from "../../shared/domain-errors";
import { boundId, conflictOnDuplicate, encodeColumns, keyClash, named, type IdRef } from "../../shared/statements";
import { fieldsOf } from "../../kit/catalog";
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
import { BattlePassFields, LevelFields, type BattlePassInput, type LevelInput } from "./schemas";

/**
 * D1 writes and reads of the admin API for battle passes and their levels. Each write is built by a
 * `...Statement` function, which catalog documents (src/catalog) use too.
 */

const bool = (v: boolean) => (v ? 1 : 0);
const json = (v: unknown) => JSON.stringify(v);
/** Dates are stored as toIso() text so that comparing text compares time. */
const isoText = (value: string) => new Date(Date.parse(value)).toISOString();

export const presentPassAdmin = (row: PassRow) => ({
  battle_pass_id: String(row.battle_pass_id),
  app_id: String(row.app_id),
  key: row.key,
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

export const presentChallengeAdmin = (c: CatalogChallenge) => ({
  challenge_id: c.challengeId,
  key: c.key,
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
  key: row.key,
  level_priority: row.level_priority,
  reward_amount: row.reward_amount,
  reward_type_name: row.reward_type_name,
  level_reward_type: row.level_reward_type,
  reward_webhook_url: row.reward_webhook_url,
  points_rewards: parsePointsRewards(row.points_rewards),
  challenges: challenges.map(presentChallengeAdmin),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

// ---- battle passes

/** The row's columns: the admin input's fields, in its order. */
const PASS_COLUMNS = fieldsOf(BattlePassFields.shape) as (keyof BattlePassInput)[];
const PASS_ENCODING: Partial<Record<keyof BattlePassInput, (value: never) => unknown>> = {
  battle_pass_name: json,
  battle_pass_description: json,
  battle_pass_short_description: json,
  battle_pass_disclaimer: json,
  start_date: isoText,
  end_date: isoText,
  is_unlocked_incrementally: bool,
  is_active: bool,
  can_purchase_with_money: bool,
  can_purchase_with_coins: bool,
  backend_only_unlock: bool,
};

const passValues = (input: BattlePassInput) => encodeColumns(PASS_COLUMNS, PASS_ENCODING, input);

/** The columns a battle pass's settings write, by name. */
export const passColumns = (input: BattlePassInput) => named(PASS_COLUMNS, passValues(input));

/**
 * A level's write may clash on the level's key (unique in its pass) or on a challenge's key (unique
 * in the level; the input's own keys are checked by LevelInput): the failing index names its table.
 * A challenge clash then comes from a key derived from a new id, or from keys traded in one write.
 */
const levelKeyClash =
  (input: LevelInput) =>
  (message: string): FieldProblem =>
    message.includes("battle_pass_challenges")
      ? {
          field: "challenges",
          problem:
            "two challenges of this level would have the same key: choose other keys (to trade keys, save twice)",
        }
      : keyClash("level", input.key, "this battle pass");

/** The pass's id, by key: for statements of a batch that also creates it. */
export const passByKey = (appId: number, key: string): IdRef => ({
  sql: "(SELECT battle_pass_id FROM battle_passes WHERE app_id = ? AND key = ?)",
  args: [appId, key],
});

export function insertPassStatement(
  db: D1Database,
  appId: number,
  input: BattlePassInput,
  nowIso: string,
): D1PreparedStatement {
  const columns = ["app_id", "chosen_key", ...PASS_COLUMNS, "created_at", "updated_at"];
  return db
    .prepare(
      `INSERT INTO battle_passes (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING *`,
    )
    .bind(appId, input.key ?? null, ...passValues(input), nowIso, nowIso);
}

/**
 * Replaces a pass's settings; a key left out keeps the current one. A pass whose end moves into
 * the future may end again later, so it is made eligible for another battlepass-expired.
 */
export function updatePassStatement(
  db: D1Database,
  battlePassId: number,
  input: BattlePassInput,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE battle_passes SET chosen_key = COALESCE(?, chosen_key), ${PASS_COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ?,
         expired_at = CASE WHEN ? > ? THEN NULL ELSE expired_at END
       WHERE battle_pass_id = ? RETURNING *`,
    )
    .bind(input.key ?? null, ...passValues(input), nowIso, isoText(input.end_date), nowIso, battlePassId);
}

/** Levels and their challenges go with it, and its holder count (foreign keys cascade). */
export function deletePassStatement(db: D1Database, battlePassId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM battle_passes WHERE battle_pass_id = ?").bind(battlePassId);
}

const passAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "battle-pass");
const levelAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "battle-pass-level");

export async function insertPass(
  db: D1Database,
  appId: number,
  input: BattlePassInput,
  nowIso: string,
  actor: Actor,
): Promise<PassRow> {
  const statement = insertPassStatement(db, appId, input, nowIso);
  const audit = passAudit(actor, appId).created(input);
  return (await conflictOnDuplicate(keyClash("battle pass", input.key), () =>
    writeConfigRow<PassRow>(db, appId, statement, audit),
  ))!;
}

export async function updatePass(
  db: D1Database,
  pass: PassRow,
  input: BattlePassInput,
  nowIso: string,
  actor: Actor,
): Promise<PassRow> {
  const statement = updatePassStatement(db, pass.battle_pass_id, input, nowIso);
  const audit = passAudit(actor, pass.app_id).updated(pass.battle_pass_id, presentPassAdmin(pass), input);
  return (await conflictOnDuplicate(keyClash("battle pass", input.key), () =>
    writeConfigRow<PassRow>(db, pass.app_id, statement, audit),
  ))!;
}

export async function requirePass(db: D1Database, appId: number, battlePassId: string): Promise<PassRow> {
  const id = parseId(battlePassId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM battle_passes WHERE battle_pass_id = ? AND app_id = ?")
          .bind(id, appId)
          .first<PassRow>();
  if (!row) throw notFound(`Battle pass ${battlePassId} not found`);
  return row;
}

/** A page in priority order; `search` (the console's) matches a part of the name, in any language. */
export async function listPasses(db: D1Database, appId: number, paging: Paging, search = "") {
  const where = "app_id = ?1 AND (?2 = '' OR instr(lower(battle_pass_name), lower(?2)) > 0)";
  const [rows, total] = await db.batch<unknown>([
    db
      .prepare(`SELECT * FROM battle_passes WHERE ${where} ORDER BY ${PASS_ORDER} LIMIT ?3 OFFSET ?4`)
      .bind(appId, search, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM battle_passes WHERE ${where}`).bind(appId, search),
  ]);
  return { rows: rows.results as PassRow[], total: (total.results[0] as { n: number }).n };
}

export async function deletePass(db: D1Database, pass: PassRow, actor: Actor): Promise<void> {
  const audit = passAudit(actor, pass.app_id).deleted(pass.battle_pass_id, presentPassAdmin(pass));
  await writeConfig(db, pass.app_id, [deletePassStatement(db, pass.battle_pass_id)], [audit]);
}

// ---- levels and their challenges

const REWARD_TYPE_NAMES: Record<string, string> = { coin: "Coins", experience: "Experience" };

/** A level as its writes take it: its challenges are written on their own. */
export type LevelSettings = Omit<LevelInput, "challenges">;

/** The row's columns: the admin input's fields but its position and its challenges, in its order. */
const LEVEL_COLUMNS = fieldsOf(LevelFields.shape, "level_priority", "challenges") as (keyof LevelSettings)[];

const levelValues = (input: LevelSettings) =>
  encodeColumns(
    LEVEL_COLUMNS,
    { points_rewards: json },
    { ...input, reward_type_name: input.reward_type_name ?? REWARD_TYPE_NAMES[input.level_reward_type] ?? "" },
  );

/** The columns a level's settings write, by name. */
export const levelColumns = (input: LevelSettings) => named(LEVEL_COLUMNS, levelValues(input));

/** A challenge of a level as a write takes it: what the row holds besides its position. */
export type LevelChallengeSettings = Omit<LevelInput["challenges"][number], "challenge_id">;

const CHALLENGE_COLUMNS = [
  "position",
  "challenge_name",
  "challenge_goal",
  "challenge_goal_condition",
  "challenge_xp",
  "challenge_icon",
  "challenge_icon_hd",
  "event_name",
  "value_field",
  "filters",
  "counter_scope",
] as const;

const challengeValues = (c: LevelChallengeSettings, position: number) => [
  position,
  json(c.challenge_name),
  c.challenge_goal,
  c.challenge_goal_condition,
  c.challenge_xp,
  c.challenge_icon,
  c.challenge_icon_hd,
  c.event_name,
  c.value_field,
  json(c.filters),
  c.counter_scope,
];

/** The columns a level challenge writes at `position`, by name. */
export const levelChallengeColumns = (c: LevelChallengeSettings, position: number) =>
  named(CHALLENGE_COLUMNS, challengeValues(c, position));

/** The level's id, by its key in the pass `pass` names: for statements of a batch that also creates it. */
export const levelByKey = (pass: IdRef, key: string): IdRef => ({
  sql: `(SELECT level_id FROM battle_pass_levels WHERE battle_pass_id = ${pass.sql} AND key = ?)`,
  args: [...pass.args, key],
});

/** Inserts a challenge of the level `level` names. */
export function insertLevelChallengeStatement(
  db: D1Database,
  appId: number,
  level: IdRef,
  c: LevelChallengeSettings,
  position: number,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO battle_pass_challenges (app_id, level_id, chosen_key, ${CHALLENGE_COLUMNS.join(", ")})
       VALUES (?, ${level.sql}, ?, ${CHALLENGE_COLUMNS.map(() => "?").join(", ")})`,
    )
    .bind(appId, ...level.args, c.key ?? null, ...challengeValues(c, position));
}

/** Replaces a level challenge in place: users keep their progress in it. A key left out keeps the current one. */
export function updateLevelChallengeStatement(
  db: D1Database,
  challengeId: number,
  c: LevelChallengeSettings,
  position: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE battle_pass_challenges SET chosen_key = COALESCE(?, chosen_key), ${CHALLENGE_COLUMNS.map((col) => `${col} = ?`).join(", ")} WHERE challenge_id = ?`,
    )
    .bind(c.key ?? null, ...challengeValues(c, position), challengeId);
}

export function deleteLevelChallengeStatement(db: D1Database, challengeId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM battle_pass_challenges WHERE challenge_id = ?").bind(challengeId);
}

/** Inserts a level of the pass `pass` names; without a priority it goes after the pass's last level. */
export function insertLevelStatement(
  db: D1Database,
  appId: number,
  pass: IdRef,
  input: LevelSettings,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO battle_pass_levels (app_id, battle_pass_id, chosen_key, level_priority, ${LEVEL_COLUMNS.join(", ")}, created_at, updated_at)
       VALUES (?, ${pass.sql}, ?, COALESCE(?, (SELECT COALESCE(MAX(level_priority) + 1, 0) FROM battle_pass_levels WHERE battle_pass_id = ${pass.sql})),
         ${LEVEL_COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING level_id`,
    )
    .bind(
      appId,
      ...pass.args,
      input.key ?? null,
      input.level_priority ?? null,
      ...pass.args,
      ...levelValues(input),
      nowIso,
      nowIso,
    );
}

/** Replaces a level's settings; a priority or key left out keeps the current one. */
export function updateLevelStatement(
  db: D1Database,
  levelId: number,
  input: LevelSettings,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE battle_pass_levels SET chosen_key = COALESCE(?, chosen_key), level_priority = COALESCE(?, level_priority),
         ${LEVEL_COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ? WHERE level_id = ?`,
    )
    .bind(input.key ?? null, input.level_priority ?? null, ...levelValues(input), nowIso, levelId);
}

/** Its challenges go with it (foreign keys cascade). */
export function deleteLevelStatement(db: D1Database, levelId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM battle_pass_levels WHERE level_id = ?").bind(levelId);
}

export async function insertLevel(
  db: D1Database,
  pass: PassRow,
  input: LevelInput,
  nowIso: string,
  actor: Actor,
): Promise<number> {
  if (input.challenges.some((c) => c.challenge_id !== undefined)) {
    throw invalid("A new level has no challenges yet: leave challenge_id out", [
      { field: "challenges", problem: "challenge_id on create" },
    ]);
  }
  // One transaction: the batch is serialized, so the newest level id is the one just inserted.
  const newLevel: IdRef = { sql: "(SELECT MAX(level_id) FROM battle_pass_levels)", args: [] };
  const results = await conflictOnDuplicate(levelKeyClash(input), () =>
    writeConfig(
      db,
      pass.app_id,
      [
        insertLevelStatement(db, pass.app_id, boundId(pass.battle_pass_id), input, nowIso),
        ...input.challenges.map((c, i) => insertLevelChallengeStatement(db, pass.app_id, newLevel, c, i)),
      ],
      [levelAudit(actor, pass.app_id).created({ battle_pass_id: String(pass.battle_pass_id), ...input }, newLevel)],
    ),
  );
  return (results[0].results[0] as { level_id: number }).level_id;
}

/**
 * Replaces a level. Challenges named by challenge_id are updated in place (users keep their
 * progress in them), new ones are added, and those left out are deleted.
 */
export async function updateLevel(
  db: D1Database,
  level: LevelRow,
  existing: CatalogChallenge[],
  input: LevelInput,
  nowIso: string,
  actor: Actor,
) {
  const known = new Set(existing.map((c) => c.challengeId));
  const unknown = input.challenges.findIndex((c) => c.challenge_id !== undefined && !known.has(c.challenge_id));
  if (unknown >= 0) {
    throw invalid(`Challenge ${input.challenges[unknown].challenge_id} is not a challenge of level ${level.level_id}`, [
      { field: `challenges.${unknown}.challenge_id`, problem: "not a challenge of this level" },
    ]);
  }
  const kept = new Set(input.challenges.map((c) => c.challenge_id).filter((id) => id !== undefined));
  const removed = [...known].filter((id) => !kept.has(id));
  await conflictOnDuplicate(levelKeyClash(input), () =>
    writeConfig(
      db,
      level.app_id,
      [
        updateLevelStatement(db, level.level_id, input, nowIso),
        ...removed.map((id) => deleteLevelChallengeStatement(db, Number(id))),
        ...input.challenges.map((c, i) =>
          c.challenge_id === undefined
            ? insertLevelChallengeStatement(db, level.app_id, boundId(level.level_id), c, i)
            : updateLevelChallengeStatement(db, Number(c.challenge_id), c, i),
        ),
      ],
      [levelAudit(actor, level.app_id).updated(level.level_id, presentLevelAdmin(level, existing), input)],
    ),
  );
}

export async function requireLevel(
  db: D1Database,
  pass: PassRow,
  levelId: string,
): Promise<{ row: LevelRow; challenges: CatalogChallenge[] }> {
  const id = parseId(levelId);
  if (id !== null) {
    const [level, challenges] = await db.batch<unknown>([
      db
        .prepare("SELECT * FROM battle_pass_levels WHERE level_id = ? AND battle_pass_id = ?")
        .bind(id, pass.battle_pass_id),
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
    db
      .prepare(`SELECT * FROM battle_pass_levels WHERE level_id IN (${page}) ORDER BY ${LEVEL_ORDER}`)
      .bind(pass.battle_pass_id, paging.pageSize, pageOffset(paging)),
    db
      .prepare(`SELECT * FROM battle_pass_challenges WHERE level_id IN (${page}) ORDER BY level_id, position`)
      .bind(pass.battle_pass_id, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM battle_pass_levels WHERE battle_pass_id = ?").bind(pass.battle_pass_id),
  ]);
  const byLevel = groupChallenges(challenges.results as ChallengeRow[]);
  return {
    items: (levels.results as LevelRow[]).map((row) => presentLevelAdmin(row, byLevel.get(row.level_id) ?? [])),
    total: (total.results[0] as { n: number }).n,
  };
}

export async function deleteLevel(
  db: D1Database,
  level: { row: LevelRow; challenges: CatalogChallenge[] },
  actor: Actor,
): Promise<void> {
  const audit = levelAudit(actor, level.row.app_id).deleted(
    level.row.level_id,
    presentLevelAdmin(level.row, level.challenges),
  );
  await writeConfig(db, level.row.app_id, [deleteLevelStatement(db, level.row.level_id)], [audit]);
}

/** The pass's level ids in level order. */
export async function levelIdsInOrder(db: D1Database, pass: PassRow): Promise<string[]> {
  const rows = await db
    .prepare(`SELECT level_id FROM battle_pass_levels WHERE battle_pass_id = ? ORDER BY ${LEVEL_ORDER}`)
    .bind(pass.battle_pass_id)
    .all<{ level_id: number }>();
  return rows.results.map((r) => String(r.level_id));
}

/**
 * Puts the pass's levels in the order of `levelIds`, which must name each of its levels once:
 * their level_priority becomes 0, 1, 2, ... in one batch. Users keep their progress.
 */
export async function setLevelOrder(
  db: D1Database,
  pass: PassRow,
  levelIds: string[],
  nowIso: string,
  actor: Actor,
): Promise<void> {
  const current = await levelIdsInOrder(db, pass);
  const known = new Set(current);
  const problem =
    levelIds.length !== current.length ||
    new Set(levelIds).size !== levelIds.length ||
    levelIds.some((id) => !known.has(id))
      ? `must name each of the pass's ${current.length} levels once`
      : null;
  if (problem) throw invalid(`Invalid body: level_ids ${problem}`, [{ field: "level_ids", problem }]);
  await writeConfig(
    db,
    pass.app_id,
    levelIds.map((id, position) =>
      db
        .prepare("UPDATE battle_pass_levels SET level_priority = ?, updated_at = ? WHERE level_id = ?")
        .bind(position, nowIso, Number(id)),
    ),
    [
      passAudit(actor, pass.app_id).updated(
        pass.battle_pass_id,
        { level_ids: current },
        { level_ids: levelIds },
        "reorder-levels",
      ),
    ],
  );
}
