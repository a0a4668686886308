import { deleteSystemStatement, insertSystemStatement, updateSystemStatement } from "../points/admin/repo";
import { updateSettingsStatement } from "../apps/admin/repo";
import {
  deleteLevelChallengeStatement,
  deleteLevelStatement,
  deletePassStatement,
  insertLevelChallengeStatement,
  insertLevelStatement,
  insertPassStatement,
  levelByKey,
  passByKey,
  updateLevelChallengeStatement,
  updateLevelStatement,
  updatePassStatement,
} from "../battlepasses/admin/repo";
import {
  categoryBySlug,
  deleteCategoryStatement,
  deleteChallengeStatement,
  insertCategoryStatement,
  insertChallengeStatement,
  updateCategoryStatement,
  updateChallengeStatement,
} from "../challenges/admin/repo";
import { deleteBoardStatement, insertBoardStatement, updateBoardStatement } from "../leaderboards/admin/repo";
import { toIso } from "../shared/clock";
import { newWebhookSecret } from "../webhooks/core/signing";
import { canonicalWebhookType } from "../webhooks/core/webhook-types";
import { deleteEndpointStatement, insertEndpointStatement, replaceEndpointStatement } from "../webhooks/endpoints-repo";
import type { CatalogPlan, Step } from "./core/plan";

/**
 * A plan's writes, each built by its area's own statement function. Objects created here are
 * referred to by key in the same batch (subselects on the parent's key), so the whole plan is one
 * D1 batch. Order: deletions first (children before parents), then creates and updates in document
 * order (a category before its challenges, a pass before its levels), then deleted categories, once
 * the challenges that stay have moved out of them.
 */

/**
 * A category may hold more than 1000 challenges for a moment inside the batch; the plan checked the sizes it leaves.
 */
const SIZES_CHECKED_BY_PLAN = Number.MAX_SAFE_INTEGER;

function statementOf(db: D1Database, appId: number, step: Step, now: number): D1PreparedStatement {
  const nowIso = toIso(now);
  const deleting = step.action === "delete";
  switch (step.object) {
    case "app_settings":
      return updateSettingsStatement(db, appId, step.doc!, nowIso);
    case "category":
      if (deleting) return deleteCategoryStatement(db, step.row!.category_id);
      return step.row
        ? updateCategoryStatement(db, step.row.category_id, step.doc!, nowIso)
        : insertCategoryStatement(db, appId, step.doc!, nowIso);
    case "challenge": {
      if (deleting) return deleteChallengeStatement(db, step.row!.challenge_id);
      const category = categoryBySlug(appId, step.categorySlug!);
      return step.row
        ? updateChallengeStatement(db, step.row.challenge_id, category, step.doc!, nowIso, SIZES_CHECKED_BY_PLAN)
        : insertChallengeStatement(db, appId, category, step.doc!, nowIso, SIZES_CHECKED_BY_PLAN);
    }
    case "battle_pass":
      if (deleting) return deletePassStatement(db, step.row!.battle_pass_id);
      return step.row
        ? updatePassStatement(db, step.row.battle_pass_id, step.doc!, nowIso)
        : insertPassStatement(db, appId, step.doc!, nowIso);
    case "level":
      if (deleting) return deleteLevelStatement(db, step.row!.level_id);
      return step.row
        ? updateLevelStatement(db, step.row.level_id, step.doc!, nowIso)
        : insertLevelStatement(db, appId, passByKey(appId, step.passKey!), step.doc!, nowIso);
    case "level_challenge":
      if (deleting) return deleteLevelChallengeStatement(db, step.row!.challenge_id);
      return step.row
        ? updateLevelChallengeStatement(db, step.row.challenge_id, step.doc!, step.position!)
        : insertLevelChallengeStatement(
            db,
            appId,
            levelByKey(passByKey(appId, step.passKey!), step.levelKey!),
            step.doc!,
            step.position!,
          );
    case "leaderboard":
      if (deleting) return deleteBoardStatement(db, step.row!.leaderboard_id);
      return step.row
        ? updateBoardStatement(db, step.row, step.doc!, now, nowIso)
        : insertBoardStatement(db, appId, step.doc!, now, nowIso);
    case "points_system":
      if (deleting) return deleteSystemStatement(db, step.row!.system_id);
      return step.row
        ? updateSystemStatement(db, step.row.system_id, step.doc!, nowIso)
        : insertSystemStatement(db, appId, step.doc!, nowIso);
    case "webhook": {
      if (deleting) return deleteEndpointStatement(db, step.row!.webhook_id);
      const doc = step.doc!;
      const input = { key: doc.key, webhook_type: canonicalWebhookType(doc.webhook_type), url: doc.url };
      return step.row
        ? replaceEndpointStatement(
            db,
            step.row.webhook_id,
            { ...input, secret_key: step.secret ?? step.row.secret_key },
            nowIso,
          )
        : insertEndpointStatement(db, appId, { ...input, secret_key: step.secret ?? newWebhookSecret() }, nowIso);
    }
  }
}

export function planStatements(db: D1Database, appId: number, plan: CatalogPlan, now: number): D1PreparedStatement[] {
  const isCategoryDelete = (s: Step) => s.action === "delete" && s.object === "category";
  const ordered = [
    ...plan.steps.filter((s) => s.action === "delete" && !isCategoryDelete(s)),
    ...plan.steps.filter((s) => s.action !== "delete"),
    ...plan.steps.filter(isCategoryDelete),
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
