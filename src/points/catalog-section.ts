import { z } from "@hono/zod-openapi";
import { duplicateKeys, indexBy, type CatalogPlanner, type CatalogSection, type CatalogSnapshot } from "../kit/catalog";
import { toIso } from "../shared/clock";
import type { PointsSystemRow } from "./catalog";
import {
  deleteSystemStatement,
  insertSystemStatement,
  presentSystemRow,
  systemColumns,
  updateSystemStatement,
} from "./admin/repo";
import { PointsSystemFields, pointsSystemRule } from "./admin/schemas";

/**
 * The points systems' section of the catalog document (src/catalog): the admin API's input made
 * strict, a row as the export writes it, and a document object as its export would be once applied.
 */
export const CatalogPointsSystem = PointsSystemFields.strict()
  .superRefine(pointsSystemRule)
  .openapi("CatalogPointsSystem");
export type CatalogPointsSystem = ReturnType<typeof CatalogPointsSystem.parse>;

const FIELDS = Object.keys(PointsSystemFields.shape);

/** A system's row as the document's object: the admin API's fields, without ids and times. */
export function pointsSystemDoc(row: PointsSystemRow): CatalogPointsSystem {
  const shown = presentSystemRow(row) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.map((f) => [f, shown[f]])) as CatalogPointsSystem;
}

/** What a document's system is once applied: written with the area's columns, read back by its presenter. */
export const canonicalPointsSystem = (doc: CatalogPointsSystem): CatalogPointsSystem =>
  pointsSystemDoc({
    system_id: 0,
    app_id: 0,
    created_at: "",
    updated_at: "",
    ...systemColumns(doc),
  } as PointsSystemRow);

const systemsOf = (s: CatalogSnapshot) => s.pointsSystems as PointsSystemRow[];

const REWARDS_FIELD = "points_rewards";

/**
 * Every `points_rewards` list of the other sections' objects (a challenge's, a level's), with its
 * path in the document: the rewards name systems by key, which this section owns.
 */
function rewardLists(value: unknown, path: string[], found: { path: string; rewards: unknown[] }[]) {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) rewardLists(item, [...path, String(i)], found);
  } else if (value !== null && typeof value === "object")
    for (const [field, child] of Object.entries(value)) {
      if (field === REWARDS_FIELD && Array.isArray(child))
        found.push({ path: [...path, field].join("."), rewards: child });
      else rewardLists(child, [...path, field], found);
    }
  return found;
}

/**
 * A points reward naming a system that the app will not have once the document is applied: one the
 * document names, or (without prune) one the app keeps.
 */
function rewardProblems(p: CatalogPlanner, wanted: CatalogPointsSystem[], s: CatalogSnapshot, document: object) {
  const known = new Set(wanted.map((system) => system.key));
  if (!p.prune) for (const row of systemsOf(s)) known.add(row.key);
  const others = Object.entries(document).filter(([key]) => key !== pointsCatalogSection.key);
  for (const { path, rewards } of rewardLists(Object.fromEntries(others), [], []))
    for (const [i, reward] of rewards.entries()) {
      const system = (reward as { system?: unknown }).system;
      if (typeof system === "string" && !known.has(system))
        p.problem(`${path}.${i}.system`, `no points system '${system}' in this app`);
    }
}

export const pointsCatalogSection: CatalogSection = {
  key: "points_systems",
  schema: z.array(CatalogPointsSystem).max(100).default([]),
  objects: {
    points_system: {
      resource: "points-system",
      label: "points system",
      deletedDoc: (step) => pointsSystemDoc(step.row),
    },
  },
  reads: (db, appId) => ({
    pointsSystems: db.prepare("SELECT * FROM points_systems WHERE app_id = ? ORDER BY system_id").bind(appId),
  }),
  export: (s) => systemsOf(s).map(pointsSystemDoc),
  plan(p, docs, s, document) {
    const wanted = docs as CatalogPointsSystem[];
    const systems = indexBy(systemsOf(s), (row) => row.key);
    const wantedKeys = new Set(wanted.map((system) => system.key));
    for (const system of wanted) {
      const row = systems.get(system.key);
      p.upsert(
        { object: "points_system", ref: `points_systems/${system.key}`, doc: system, row },
        row ? pointsSystemDoc(row) : null,
        canonicalPointsSystem(system),
      );
    }
    for (const row of systemsOf(s))
      if (!wantedKeys.has(row.key)) p.leftOut({ object: "points_system", ref: `points_systems/${row.key}`, row });
    rewardProblems(p, wanted, s, document);
  },
  statement(db, appId, step, now) {
    const nowIso = toIso(now);
    if (step.action === "delete") return deleteSystemStatement(db, step.row.system_id);
    return step.row
      ? updateSystemStatement(db, step.row.system_id, step.doc, nowIso)
      : insertSystemStatement(db, appId, step.doc, nowIso);
  },
  problems: (docs) =>
    duplicateKeys(
      (docs as CatalogPointsSystem[]).map((system, i) => ({ key: system.key, field: `points_systems.${i}.key` })),
      "the document's points systems",
    ),
};
