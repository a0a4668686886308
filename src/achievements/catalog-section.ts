import { z } from "@hono/zod-openapi";
import { duplicateKeys, indexBy, type CatalogSection, type CatalogSnapshot } from "../kit/catalog";
import { toIso } from "../shared/clock";
import type { AchievementRow } from "./catalog";
import { requirementCycle } from "./core/earn";
import {
  achievementColumns,
  deleteAchievementStatement,
  insertAchievementStatement,
  presentAchievementRow,
  updateAchievementStatement,
} from "./admin/repo";
import { AchievementFields, achievementRule, withDefaults } from "./admin/schemas";

/**
 * The achievements' section of the catalog document (src/catalog): the admin API's input made
 * strict, a row as the export writes it, and a document object as its export would be once applied.
 * Composites name what they require by key, inside the document or (without prune) among the app's.
 */
export const CatalogAchievement = AchievementFields.strict()
  .superRefine(achievementRule)
  .transform(withDefaults)
  .openapi("CatalogAchievement");
export type CatalogAchievement = z.infer<typeof CatalogAchievement>;

const FIELDS = Object.keys(AchievementFields.shape);

/** An achievement's row as the document's object: the admin API's fields, without ids and times. */
export function achievementDoc(row: AchievementRow): CatalogAchievement {
  const shown = presentAchievementRow(row) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.map((f) => [f, shown[f]])) as CatalogAchievement;
}

/** What a document's achievement is once applied: written with the area's columns, read back by its presenter. */
export const canonicalAchievement = (doc: CatalogAchievement): CatalogAchievement => {
  const columns = achievementColumns(doc);
  return achievementDoc({
    achievement_id: 0,
    app_id: 0,
    created_at: "",
    updated_at: "",
    ...columns,
    filters: columns.filters ?? null,
  } as AchievementRow);
};

const rowsOf = (s: CatalogSnapshot) => s.achievements as AchievementRow[];

export const achievementsCatalogSection: CatalogSection = {
  key: "achievements",
  schema: z.array(CatalogAchievement).max(1000).default([]),
  objects: {
    achievement: {
      resource: "achievement",
      label: "achievement",
      deletedDoc: (step) => achievementDoc(step.row),
    },
  },
  reads: (db, appId) => ({
    achievements: db
      .prepare("SELECT * FROM achievements WHERE app_id = ? ORDER BY sort_order, achievement_id")
      .bind(appId),
  }),
  export: (s) => rowsOf(s).map(achievementDoc),
  plan(p, docs, s) {
    const wanted = docs as CatalogAchievement[];
    const rows = indexBy(rowsOf(s), (row) => row.key);
    const wantedKeys = new Set(wanted.map((a) => a.key));
    for (const a of wanted) {
      const row = rows.get(a.key);
      p.upsert(
        { object: "achievement", ref: `achievements/${a.key}`, doc: a, row },
        row ? achievementDoc(row) : null,
        canonicalAchievement(a),
      );
    }
    // What the app holds once applied: the document's, and (without prune) the app's others.
    const final = wanted.map((a) => ({ key: a.key, kind: a.kind, requires: a.requires, ours: true }));
    for (const row of rowsOf(s))
      if (!wantedKeys.has(row.key) && !p.leftOut({ object: "achievement", ref: `achievements/${row.key}`, row }))
        final.push({
          key: row.key,
          kind: row.kind as CatalogAchievement["kind"],
          requires: achievementDoc(row).requires,
          ours: false,
        });
    const keys = new Set(final.map((a) => a.key));
    for (const [i, a] of wanted.entries())
      for (const [j, key] of a.requires.entries())
        if (!keys.has(key)) p.problem(`achievements.${i}.requires.${j}`, `no achievement '${key}' in this app`);
    for (const a of final)
      if (!a.ours)
        for (const key of a.requires)
          if (!keys.has(key))
            p.problem(
              "achievements",
              `the app's composite '${a.key}' requires '${key}', which the document leaves out`,
            );
    const cycle = requirementCycle(
      new Map(final.filter((a) => a.kind === "composite").map((a) => [a.key, a.requires])),
    );
    if (cycle) p.problem("achievements", `requirements would go round: ${cycle.join(" → ")}`);
  },
  statement(db, appId, step, now) {
    const nowIso = toIso(now);
    if (step.action === "delete") return deleteAchievementStatement(db, step.row.achievement_id);
    return step.row
      ? updateAchievementStatement(db, step.row.achievement_id, step.doc, nowIso)
      : insertAchievementStatement(db, appId, step.doc, nowIso);
  },
  problems: (docs) =>
    duplicateKeys(
      (docs as CatalogAchievement[]).map((a, i) => ({ key: a.key, field: `achievements.${i}.key` })),
      "the document's achievements",
    ),
};
