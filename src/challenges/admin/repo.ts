import { invalid, conflict, notFound, type FieldProblem } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import { boundId, conflictOnDuplicate, encodeColumns, keyClash, named, type IdRef } from "../../shared/statements";
import { presentCategoryRow, presentChallengeRow, type CategoryRow, type ChallengeRow } from "../rows";
import { fieldsOf } from "../../kit/catalog";
import { ChallengeFields, MAX_CHALLENGES_PER_CATEGORY, CategoryInput, type ChallengeInput } from "./schemas";

/**
 * D1 writes and reads of the admin API for categories and challenges. Writes go through writeConfig
 * (the catalog version moves with them). Each write is built by a `...Statement` function, which
 * catalog documents (src/catalog) use too, so both write the same rows the same way.
 */

const bool = (v: boolean) => (v ? 1 : 0);
const categoryAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "challenge-category");
const challengeAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "challenge");
const json = (v: unknown) => JSON.stringify(v);

/** The row's columns: the admin input's fields, in its order. */
const CATEGORY_COLUMNS = fieldsOf(CategoryInput.shape) as (keyof CategoryInput)[];
const CATEGORY_ENCODING: Partial<Record<keyof CategoryInput, (value: never) => unknown>> = {
  category_name: json,
  is_daily_category: bool,
};

const categoryValues = (input: CategoryInput) => encodeColumns(CATEGORY_COLUMNS, CATEGORY_ENCODING, input);

/** The columns a category's input writes, by name. */
export const categoryColumns = (input: CategoryInput) => named(CATEGORY_COLUMNS, categoryValues(input));

const slugTaken = (slug: string): FieldProblem => ({
  field: "category_slug",
  problem: `Category slug '${slug}' is already used in this app`,
});

/** The category's id, by slug: for statements of a batch that also creates it. */
export const categoryBySlug = (appId: number, slug: string): IdRef => ({
  sql: "(SELECT category_id FROM challenge_categories WHERE app_id = ? AND category_slug = ?)",
  args: [appId, slug],
});

export function insertCategoryStatement(
  db: D1Database,
  appId: number,
  input: CategoryInput,
  now: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO challenge_categories (app_id, ${CATEGORY_COLUMNS.join(", ")}, created_at, updated_at)
       VALUES (?, ${CATEGORY_COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING *`,
    )
    .bind(appId, ...categoryValues(input), now, now);
}

export function updateCategoryStatement(
  db: D1Database,
  categoryId: number,
  input: CategoryInput,
  now: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE challenge_categories SET ${CATEGORY_COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ?
       WHERE category_id = ? RETURNING *`,
    )
    .bind(...categoryValues(input), now, categoryId);
}

/** Deletes nothing while the category holds challenges: deleting them by accident would lose users' progress. */
export function deleteCategoryStatement(db: D1Database, categoryId: number): D1PreparedStatement {
  return db
    .prepare(
      "DELETE FROM challenge_categories WHERE category_id = ? AND NOT EXISTS (SELECT 1 FROM challenges WHERE category_id = ?) RETURNING category_id",
    )
    .bind(categoryId, categoryId);
}

export async function createCategory(
  db: D1Database,
  appId: number,
  input: CategoryInput,
  now: string,
  actor: Actor,
): Promise<CategoryRow> {
  const statement = insertCategoryStatement(db, appId, input, now);
  const audit = categoryAudit(actor, appId).created(input);
  return (await conflictOnDuplicate(slugTaken(input.category_slug), () =>
    writeConfigRow<CategoryRow>(db, appId, statement, audit),
  ))!;
}

export async function listCategories(db: D1Database, appId: number, paging: Paging) {
  const [rows, total] = await db.batch<unknown>([
    db
      .prepare(
        "SELECT * FROM challenge_categories WHERE app_id = ? ORDER BY category_position, category_id LIMIT ? OFFSET ?",
      )
      .bind(appId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM challenge_categories WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as CategoryRow[], total: (total.results[0] as { n: number }).n };
}

export async function requireCategory(db: D1Database, appId: number, categoryId: string): Promise<CategoryRow> {
  const id = parseId(categoryId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM challenge_categories WHERE app_id = ? AND category_id = ?")
          .bind(appId, id)
          .first<CategoryRow>();
  if (!row) throw notFound(`Challenge category ${categoryId} not found`);
  return row;
}

export async function replaceCategory(
  db: D1Database,
  row: CategoryRow,
  input: CategoryInput,
  now: string,
  actor: Actor,
): Promise<CategoryRow> {
  const statement = updateCategoryStatement(db, row.category_id, input, now);
  const audit = categoryAudit(actor, row.app_id).updated(row.category_id, presentCategoryRow(row), input);
  return (await conflictOnDuplicate(slugTaken(input.category_slug), () =>
    writeConfigRow<CategoryRow>(db, row.app_id, statement, audit),
  ))!;
}

/** Refused while the category holds challenges (deleteCategoryStatement). */
export async function deleteCategory(db: D1Database, row: CategoryRow, actor: Actor): Promise<void> {
  const audit = categoryAudit(actor, row.app_id).deleted(row.category_id, presentCategoryRow(row));
  const deleted = await writeConfigRow(db, row.app_id, deleteCategoryStatement(db, row.category_id), audit);
  if (!deleted) {
    const count = await countInCategory(db, row.category_id);
    throw conflict(`Challenge category ${row.category_id} still holds ${count} challenges; delete or move them first`);
  }
}

/** How many challenges each category of an app holds, by category id (categories without any are absent). */
export async function challengeCountsByCategory(db: D1Database, appId: number): Promise<Map<number, number>> {
  const rows = await db
    .prepare("SELECT category_id, COUNT(*) AS n FROM challenges WHERE app_id = ? GROUP BY category_id")
    .bind(appId)
    .all<{ category_id: number; n: number }>();
  return new Map(rows.results.map((r) => [r.category_id, r.n]));
}

async function countInCategory(db: D1Database, categoryId: number): Promise<number> {
  const row = await db
    .prepare("SELECT COUNT(*) AS n FROM challenges WHERE category_id = ?")
    .bind(categoryId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

const categoryFull = (categoryId: number) =>
  conflict(
    `Challenge category ${categoryId} already holds ${MAX_CHALLENGES_PER_CATEGORY} challenges, the most a category may hold`,
  );

/** What a challenge's row holds besides its category, its key and its times. */
export type ChallengeSettings = Omit<ChallengeInput, "category_id">;
type ChallengeColumn = Exclude<keyof ChallengeSettings, "key">;

/** The row's columns: the admin input's fields, in its order. */
const CHALLENGE_COLUMNS = fieldsOf(ChallengeFields.shape, "category_id") as ChallengeColumn[];

/** How a setting is written where its column's text or number differs from the input's value. */
const CHALLENGE_ENCODING: Partial<Record<ChallengeColumn, (value: never) => unknown>> = {
  challenge_name: json,
  challenge_description: (text: ChallengeSettings["challenge_description"]) => (text === null ? null : json(text)),
  live_date: (date: string | null) => (date === null ? null : new Date(Date.parse(date)).toISOString()),
  points_rewards: json,
  repeatable: bool,
  is_auto_activated: bool,
  filters: json,
};

const challengeValues = (input: ChallengeSettings) => encodeColumns(CHALLENGE_COLUMNS, CHALLENGE_ENCODING, input);

/** The columns a challenge's settings write, by name (its category and key apart). */
export const challengeColumns = (input: ChallengeSettings) => named(CHALLENGE_COLUMNS, challengeValues(input));

/**
 * Inserts a challenge into the category `category` names, unless that category already holds
 * `limit` challenges (then nothing is inserted). The count check and the insert are one statement,
 * so concurrent creates cannot pass the limit. A catalog apply, which checks the sizes its whole
 * batch leaves, passes a higher limit: within its batch a category may hold more for a moment.
 */
export function insertChallengeStatement(
  db: D1Database,
  appId: number,
  category: IdRef,
  input: ChallengeSettings,
  now: string,
  limit = MAX_CHALLENGES_PER_CATEGORY,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO challenges (app_id, category_id, chosen_key, ${CHALLENGE_COLUMNS.join(", ")}, created_at, updated_at)
       SELECT ?, ${category.sql}, ?, ${CHALLENGE_COLUMNS.map(() => "?").join(", ")}, ?, ?
       WHERE (SELECT COUNT(*) FROM challenges WHERE category_id = ${category.sql}) < ?
       RETURNING *`,
    )
    .bind(appId, ...category.args, input.key ?? null, ...challengeValues(input), now, now, ...category.args, limit);
}

/**
 * Replaces a challenge's settings and moves it to `category`, unless that is another category that
 * already holds `limit` challenges (then nothing changes). A key left out keeps the current one.
 */
export function updateChallengeStatement(
  db: D1Database,
  challengeId: number,
  category: IdRef,
  input: ChallengeSettings,
  now: string,
  limit = MAX_CHALLENGES_PER_CATEGORY,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE challenges SET category_id = ${category.sql}, chosen_key = COALESCE(?, chosen_key),
         ${CHALLENGE_COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ?
       WHERE challenge_id = ? AND (category_id = ${category.sql} OR (SELECT COUNT(*) FROM challenges WHERE category_id = ${category.sql}) < ?)
       RETURNING *`,
    )
    .bind(
      ...category.args,
      input.key ?? null,
      ...challengeValues(input),
      now,
      challengeId,
      ...category.args,
      ...category.args,
      limit,
    );
}

/** Users' progress in it is no longer offered; its holder counts go with it (foreign key). */
export function deleteChallengeStatement(db: D1Database, challengeId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM challenges WHERE challenge_id = ?").bind(challengeId);
}

/** The body's category must be one of the app's. */
async function requireInputCategory(db: D1Database, appId: number, categoryId: string): Promise<number> {
  const row = await db
    .prepare("SELECT category_id FROM challenge_categories WHERE app_id = ? AND category_id = ?")
    .bind(appId, Number(categoryId))
    .first<{ category_id: number }>();
  if (!row) {
    throw invalid(`Invalid body: category_id: category ${categoryId} does not exist in this app`, [
      { field: "category_id", problem: `category ${categoryId} does not exist in this app` },
    ]);
  }
  return row.category_id;
}

export async function createChallenge(
  db: D1Database,
  appId: number,
  input: ChallengeInput,
  now: string,
  actor: Actor,
): Promise<ChallengeRow> {
  const categoryId = await requireInputCategory(db, appId, input.category_id);
  const audit = challengeAudit(actor, appId).created(input);
  const row = await conflictOnDuplicate(keyClash("challenge", input.key), () =>
    writeConfigRow<ChallengeRow>(
      db,
      appId,
      insertChallengeStatement(db, appId, boundId(categoryId), input, now),
      audit,
    ),
  );
  if (!row) throw categoryFull(categoryId);
  return row;
}

/** A page by id; `search` (the console's) matches a part of the name, in any language, or of the event name. */
export async function listChallenges(
  db: D1Database,
  appId: number,
  paging: Paging,
  categoryId: number | null,
  search = "",
) {
  const conditions = ["app_id = ?"];
  const binds: unknown[] = [appId];
  if (categoryId !== null) {
    conditions.push("category_id = ?");
    binds.push(categoryId);
  }
  if (search) {
    conditions.push("(instr(lower(challenge_name), lower(?)) > 0 OR instr(lower(event_name), lower(?)) > 0)");
    binds.push(search, search);
  }
  const where = conditions.join(" AND ");
  const [rows, total] = await db.batch<unknown>([
    db
      .prepare(`SELECT * FROM challenges WHERE ${where} ORDER BY challenge_id LIMIT ? OFFSET ?`)
      .bind(...binds, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM challenges WHERE ${where}`).bind(...binds),
  ]);
  return { rows: rows.results as ChallengeRow[], total: (total.results[0] as { n: number }).n };
}

export async function requireChallenge(db: D1Database, appId: number, challengeId: string): Promise<ChallengeRow> {
  const id = parseId(challengeId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM challenges WHERE app_id = ? AND challenge_id = ?")
          .bind(appId, id)
          .first<ChallengeRow>();
  if (!row) throw notFound(`Challenge ${challengeId} not found`);
  return row;
}

/** Moving a challenge to another category counts against that category's limit. */
export async function replaceChallenge(
  db: D1Database,
  row: ChallengeRow,
  input: ChallengeInput,
  now: string,
  actor: Actor,
): Promise<ChallengeRow> {
  const categoryId = await requireInputCategory(db, row.app_id, input.category_id);
  const audit = challengeAudit(actor, row.app_id).updated(row.challenge_id, presentChallengeRow(row), input);
  const updated = await conflictOnDuplicate(keyClash("challenge", input.key), () =>
    writeConfigRow<ChallengeRow>(
      db,
      row.app_id,
      updateChallengeStatement(db, row.challenge_id, boundId(categoryId), input, now),
      audit,
    ),
  );
  if (!updated) throw categoryFull(categoryId);
  return updated;
}

export async function deleteChallenge(db: D1Database, row: ChallengeRow, actor: Actor): Promise<void> {
  const audit = challengeAudit(actor, row.app_id).deleted(row.challenge_id, presentChallengeRow(row));
  await writeConfig(db, row.app_id, [deleteChallengeStatement(db, row.challenge_id)], [audit]);
}
