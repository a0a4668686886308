import { conflictOnDuplicate, keyClash, named } from "../../shared/statements";
import { conflict, invalid, notFound } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import { requireRewardSystems } from "../../apps/points-rewards";
import { parseLocalized, type AchievementRow } from "../catalog";
import { requirementCycle } from "../core/earn";
import type { AchievementInput } from "./schemas";

/**
 * D1 access of the admin API's achievements. Writes go through writeConfig (the catalog version
 * moves with them); each is built by a `...Statement` function, which catalog documents use too.
 */

const COLUMNS = [
  "key",
  "name",
  "description",
  "hidden",
  "hidden_description",
  "icon",
  "kind",
  "status",
  "sort_order",
  "points_rewards",
  "event_name",
  "filters",
  "value_field",
  "aggregation",
  "threshold",
  "requires",
] as const;

const localizedColumn = (value: AchievementInput["description"]) => (value === null ? null : JSON.stringify(value));

const values = (input: AchievementInput) => {
  const metric = input.kind === "metric";
  return [
    input.key,
    JSON.stringify(input.name),
    localizedColumn(input.description),
    input.hidden ? 1 : 0,
    localizedColumn(input.hidden_description),
    input.icon,
    input.kind,
    input.status,
    input.sort_order,
    JSON.stringify(input.points_rewards),
    metric ? input.event_name : null,
    metric ? JSON.stringify(input.filters) : null,
    metric ? input.value_field : null,
    metric ? (input.aggregation ?? "sum") : null,
    metric ? input.threshold : null,
    input.kind === "composite" ? JSON.stringify(input.requires) : null,
  ];
};

/** The columns an achievement's input writes, by name. */
export const achievementColumns = (input: AchievementInput) => named(COLUMNS, values(input));

export function insertAchievementStatement(db: D1Database, appId: number, input: AchievementInput, nowIso: string) {
  return db
    .prepare(
      `INSERT INTO achievements (app_id, ${COLUMNS.join(", ")}, created_at, updated_at)
       VALUES (?, ${COLUMNS.map(() => "?").join(", ")}, ?, ?) RETURNING *`,
    )
    .bind(appId, ...values(input), nowIso, nowIso);
}

export function updateAchievementStatement(db: D1Database, id: number, input: AchievementInput, nowIso: string) {
  return db
    .prepare(
      `UPDATE achievements SET ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, updated_at = ? WHERE achievement_id = ? RETURNING *`,
    )
    .bind(...values(input), nowIso, id);
}

export const deleteAchievementStatement = (db: D1Database, id: number) =>
  db.prepare("DELETE FROM achievements WHERE achievement_id = ?").bind(id);

const parseList = <T>(raw: string | null): T[] => (raw ? (JSON.parse(raw) as T[]) : []);

/** An achievement as the admin API shows it. */
export function presentAchievementRow(row: AchievementRow) {
  const metric = row.kind === "metric";
  const filters = parseList<{ field: string; op: string; value: unknown }>(row.filters);
  return {
    achievement_id: String(row.achievement_id),
    app_id: String(row.app_id),
    key: row.key,
    name: parseLocalized(row.name),
    description: row.description === null ? null : parseLocalized(row.description),
    hidden: row.hidden === 1,
    hidden_description: row.hidden_description === null ? null : parseLocalized(row.hidden_description),
    icon: row.icon,
    kind: row.kind as AchievementInput["kind"],
    status: row.status as AchievementInput["status"],
    sort_order: row.sort_order,
    points_rewards: parseList<{ system: string; amount: number }>(row.points_rewards),
    event_name: row.event_name,
    filters: filters as AchievementInput["filters"],
    value_field: row.value_field,
    aggregation: row.aggregation as AchievementInput["aggregation"],
    threshold: row.threshold,
    requires: parseList<string>(row.requires),
    backdated: metric && filters.length === 0 && row.value_field === null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const achievementAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "achievement");

async function appRows(db: D1Database, appId: number): Promise<AchievementRow[]> {
  const rows = await db
    .prepare("SELECT * FROM achievements WHERE app_id = ? ORDER BY achievement_id")
    .bind(appId)
    .all<AchievementRow>();
  return rows.results;
}

/**
 * What the write may not do to the app's other achievements: a composite naming a key the app
 * does not have, a cycle of requirements, and (when `current` is replaced or deleted) a key that
 * composites still require going away. `input` null: a deletion.
 */
export function requirementProblems(
  rows: { achievement_id: number; key: string; kind: string; requires: string | null }[],
  current: { achievement_id: number; key: string } | null,
  input: Pick<AchievementInput, "key" | "kind" | "requires"> | null,
) {
  const others = rows.filter((r) => r.achievement_id !== current?.achievement_id);
  const keys = new Set(others.map((r) => r.key));
  const problems: { field: string; problem: string; kind: "invalid" | "conflict" }[] = [];
  if (input?.kind === "composite")
    input.requires.forEach((key, i) => {
      if (!keys.has(key))
        problems.push({ field: `requires.${i}`, problem: `no achievement '${key}' in this app`, kind: "invalid" });
    });
  if (current && (input === null || input.key !== current.key)) {
    const dependents = others.filter(
      (r) => r.kind === "composite" && parseList<string>(r.requires).includes(current.key),
    );
    if (dependents.length > 0)
      problems.push({
        field: input === null ? "achievement_id" : "key",
        problem: `composite ${dependents.map((r) => `'${r.key}'`).join(", ")} require${dependents.length === 1 ? "s" : ""} '${current.key}': change ${dependents.length === 1 ? "it" : "them"} first`,
        kind: "conflict",
      });
  }
  if (input?.kind === "composite" && problems.length === 0) {
    // The written achievement first, so that a cycle reads from it.
    const graph = new Map<string, string[]>([[input.key, input.requires]]);
    for (const r of others) if (r.kind === "composite") graph.set(r.key, parseList<string>(r.requires));
    const cycle = requirementCycle(graph);
    if (cycle)
      problems.push({
        field: "requires",
        problem: `requirements would go round: ${cycle.join(" → ")}`,
        kind: "invalid",
      });
  }
  return problems;
}

async function checkWrite(
  db: D1Database,
  appId: number,
  current: AchievementRow | null,
  input: AchievementInput | null,
): Promise<void> {
  if (input) await requireRewardSystems(db, appId, input.points_rewards);
  const needsRows = input?.kind === "composite" || current !== null;
  if (!needsRows) return;
  const problems = requirementProblems(await appRows(db, appId), current, input);
  const invalids = problems.filter((p) => p.kind === "invalid").map(({ field, problem }) => ({ field, problem }));
  if (invalids.length > 0) throw invalid(`Invalid body: ${invalids.map((p) => p.problem).join("; ")}`, invalids);
  const conflicts = problems.map(({ field, problem }) => ({ field, problem }));
  if (conflicts.length > 0) throw conflict(conflicts.map((p) => p.problem).join("; "), conflicts);
}

export async function insertAchievement(
  db: D1Database,
  appId: number,
  input: AchievementInput,
  nowIso: string,
  actor: Actor,
) {
  await checkWrite(db, appId, null, input);
  const statement = insertAchievementStatement(db, appId, input, nowIso);
  return (await conflictOnDuplicate(keyClash("achievement", input.key), () =>
    writeConfigRow<AchievementRow>(db, appId, statement, achievementAudit(actor, appId).created(input)),
  ))!;
}

export async function updateAchievement(
  db: D1Database,
  current: AchievementRow,
  input: AchievementInput,
  nowIso: string,
  actor: Actor,
) {
  await checkWrite(db, current.app_id, current, input);
  const statement = updateAchievementStatement(db, current.achievement_id, input, nowIso);
  const audit = achievementAudit(actor, current.app_id).updated(
    current.achievement_id,
    presentAchievementRow(current),
    input,
  );
  return (await conflictOnDuplicate(keyClash("achievement", input.key), () =>
    writeConfigRow<AchievementRow>(db, current.app_id, statement, audit),
  ))!;
}

/** Players' holdings stay in their objects but name an achievement that no longer is: lists leave them out. */
export async function deleteAchievement(db: D1Database, current: AchievementRow, actor: Actor): Promise<void> {
  await checkWrite(db, current.app_id, current, null);
  const audit = achievementAudit(actor, current.app_id).deleted(current.achievement_id, presentAchievementRow(current));
  await writeConfig(db, current.app_id, [deleteAchievementStatement(db, current.achievement_id)], [audit]);
}

export async function requireAchievement(
  db: D1Database,
  appId: number,
  achievementId: string,
): Promise<AchievementRow> {
  const id = parseId(achievementId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM achievements WHERE app_id = ? AND achievement_id = ?")
          .bind(appId, id)
          .first<AchievementRow>();
  if (!row) throw notFound(`Achievement ${achievementId} not found`);
  return row;
}

export async function listAchievements(db: D1Database, appId: number, limit: number, offset: number) {
  const [rows, total] = await db.batch<AchievementRow | { n: number }>([
    db
      .prepare("SELECT * FROM achievements WHERE app_id = ? ORDER BY sort_order, achievement_id LIMIT ? OFFSET ?")
      .bind(appId, limit, offset),
    db.prepare("SELECT COUNT(*) AS n FROM achievements WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as AchievementRow[], total: (total.results[0] as { n: number }).n };
}

/** Every achievement of the app with its holders as last counted (the console's lists). */
export async function achievementsWithHolders(db: D1Database, appId: number) {
  const rows = await db
    .prepare(
      `SELECT a.*, COALESCE(h.holders, 0) AS holders FROM achievements a
       LEFT JOIN achievement_holders h USING (achievement_id)
       WHERE a.app_id = ? ORDER BY a.sort_order, a.achievement_id`,
    )
    .bind(appId)
    .all<AchievementRow & { holders: number }>();
  return rows.results;
}
