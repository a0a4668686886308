import { updateSettingsStatement } from "../apps/admin/repo";
import { toIso } from "../shared/clock";
import { CATALOG_OBJECT_SECTION } from "../registry/areas";
import type { CatalogPlan, Step } from "./core/plan";

/**
 * A plan's writes, each built by its area's own statement function. Objects created here are
 * referred to by key in the same batch (subselects on the parent's key), so the whole plan is one
 * D1 batch. Order: deletions first (children before parents), then creates and updates in document
 * order (a category before its challenges, a pass before its levels), then the kinds a section deletes
 * last (categories, once the challenges that stay have moved out of them).
 */

function statementOf(db: D1Database, appId: number, step: Step, now: number): D1PreparedStatement {
  if (step.object === "app_settings") return updateSettingsStatement(db, appId, step.doc, toIso(now));
  return CATALOG_OBJECT_SECTION[step.object].statement(db, appId, step, now);
}

export function planStatements(db: D1Database, appId: number, plan: CatalogPlan, now: number): D1PreparedStatement[] {
  const isDeletedLast = (s: Step) =>
    s.action === "delete" && (CATALOG_OBJECT_SECTION[s.object]?.deletedLast?.includes(s.object) ?? false);
  const ordered = [
    ...plan.steps.filter((s) => s.action === "delete" && !isDeletedLast(s)),
    ...plan.steps.filter((s) => s.action !== "delete"),
    ...plan.steps.filter(isDeletedLast),
  ];
  return ordered.map((step) => statementOf(db, appId, step, now));
}

/**
 * Makes the batch fail when the app's configuration changed since the plan read it: setting the
 * app's name to NULL breaks its NOT NULL constraint, which rolls the whole batch back. (D1 batches
 * have no conditional abort; every configuration write moves catalog_version.)
 */
export const unchangedSinceStatement = (db: D1Database, appId: number, version: number) =>
  db.prepare("UPDATE apps SET name = NULL WHERE app_id = ? AND catalog_version <> ?").bind(appId, version);

export const isChangedSinceFailure = (err: unknown) =>
  err instanceof Error && /NOT NULL constraint failed: apps\.name/i.test(err.message);
