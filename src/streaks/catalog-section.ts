import { z } from "@hono/zod-openapi";
import { duplicateKeys, indexBy, type CatalogSection, type CatalogSnapshot } from "../kit/catalog";
import { toIso } from "../shared/clock";
import type { StreakRow } from "./catalog";
import {
  deleteStreakStatement,
  insertStreakStatement,
  presentStreakRow,
  streakColumns,
  updateStreakStatement,
} from "./admin/repo";
import { StreakFields, streakRule } from "./admin/schemas";

/**
 * The streaks' section of the catalog document (src/catalog): the admin API's input made strict, a
 * row as the export writes it, and a document object as its export would be once applied. Milestones'
 * `points_rewards` are checked against the points systems by the points section.
 */
export const CatalogStreak = StreakFields.strict().superRefine(streakRule).openapi("CatalogStreak");
export type CatalogStreak = ReturnType<typeof CatalogStreak.parse>;

const FIELDS = Object.keys(StreakFields.shape);

export function streakDoc(row: StreakRow): CatalogStreak {
  const shown = presentStreakRow(row) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.map((f) => [f, shown[f]])) as CatalogStreak;
}

export const canonicalStreak = (doc: CatalogStreak): CatalogStreak =>
  streakDoc({ streak_id: 0, app_id: 0, created_at: "", updated_at: "", ...streakColumns(doc) } as StreakRow);

const streaksOf = (s: CatalogSnapshot) => s.streaks as StreakRow[];

export const streaksCatalogSection: CatalogSection = {
  key: "streaks",
  schema: z.array(CatalogStreak).max(100).default([]),
  objects: {
    streak: { resource: "streak", label: "streak", deletedDoc: (step) => streakDoc(step.row) },
  },
  reads: (db, appId) => ({
    streaks: db.prepare("SELECT * FROM streaks WHERE app_id = ? ORDER BY streak_id").bind(appId),
  }),
  export: (s) => streaksOf(s).map(streakDoc),
  plan(p, docs, s) {
    const wanted = docs as CatalogStreak[];
    const rows = indexBy(streaksOf(s), (row) => row.key);
    const wantedKeys = new Set(wanted.map((streak) => streak.key));
    for (const streak of wanted) {
      const row = rows.get(streak.key);
      p.upsert(
        { object: "streak", ref: `streaks/${streak.key}`, doc: streak, row },
        row ? streakDoc(row) : null,
        canonicalStreak(streak),
      );
    }
    for (const row of streaksOf(s))
      if (!wantedKeys.has(row.key)) p.leftOut({ object: "streak", ref: `streaks/${row.key}`, row });
  },
  statement(db, appId, step, now) {
    const nowIso = toIso(now);
    if (step.action === "delete") return deleteStreakStatement(db, step.row.streak_id);
    return step.row
      ? updateStreakStatement(db, step.row.streak_id, step.doc, nowIso)
      : insertStreakStatement(db, appId, step.doc, nowIso);
  },
  problems: (docs) =>
    duplicateKeys(
      (docs as CatalogStreak[]).map((streak, i) => ({ key: streak.key, field: `streaks.${i}.key` })),
      "the document's streaks",
    ),
};
