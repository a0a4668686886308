import { pointsSystemDoc } from "../../points/catalog-section";
import { auditOf, type Actor, type AuditEntry } from "../../apps/audit-log";
import { boardDoc, categoryDoc, challengeDoc, levelChallengeDoc, levelDoc, passDoc, webhookDoc } from "./documents";
import type { CatalogObject, CatalogPlan, Step } from "./plan";

/**
 * The audit entries of applying a plan: one per object it changes, named by its keys (the
 * document's identity), with the same resource names as the admin API's entries. An update keeps
 * the fields it changes, before and after; a deletion keeps the whole object as a document.
 */
const RESOURCES: Record<CatalogObject, string> = {
  // The admin API records an app's settings as the app's; the apply's entry is in the app's log, as "settings".
  app_settings: "app",
  category: "challenge-category",
  challenge: "challenge",
  battle_pass: "battle-pass",
  level: "battle-pass-level",
  level_challenge: "battle-pass-level-challenge",
  leaderboard: "leaderboard",
  points_system: "points-system",
  webhook: "webhook",
};

/** The deleted object as a document (its children are deleted, and recorded, on their own). */
function deletedDoc(step: Step, now: number): unknown {
  switch (step.object) {
    case "category":
      return categoryDoc(step.row!, []);
    case "challenge":
      return challengeDoc(step.row!);
    case "battle_pass":
      return passDoc(step.row!, []);
    case "level":
      return levelDoc(step.row!, []);
    case "level_challenge":
      return levelChallengeDoc(step.row!);
    case "leaderboard":
      return boardDoc(step.row!, now);
    case "points_system":
      return pointsSystemDoc(step.row!);
    case "webhook":
      return webhookDoc(step.row!);
  }
}

const fieldsOf = (step: Step, side: "before" | "after") =>
  Object.fromEntries(step.fields.map((f) => [f.field, f[side]]));

export function planAuditEntries(plan: CatalogPlan, actor: Actor, appId: number, now: number): AuditEntry[] {
  return plan.steps.map((step) => {
    const audit = auditOf(actor, appId, RESOURCES[step.object]);
    if (step.action === "create") return audit.created(step.doc, step.ref);
    if (step.action === "delete") return audit.deleted(step.ref, deletedDoc(step, now));
    return audit.updated(step.ref, fieldsOf(step, "before"), fieldsOf(step, "after"));
  });
}
