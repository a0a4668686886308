import { auditOf, type Actor, type AuditEntry } from "../../apps/audit-log";
import type { Step } from "../../kit/catalog";
import { CATALOG_OBJECT_KINDS } from "../../registry/areas";
import type { CatalogPlan } from "./plan";

/**
 * The audit entries of applying a plan: one per object it changes, named by its keys (the
 * document's identity), with the same resource names as the admin API's entries. An update keeps
 * the fields it changes, before and after; a deletion keeps the whole object as a document (its
 * children are deleted, and recorded, on their own).
 */

// The admin API records an app's settings as the app's; the apply's entry is in the app's log, as "settings".
const resourceOf = (object: string) => (object === "app_settings" ? "app" : CATALOG_OBJECT_KINDS[object].resource);

const fieldsOf = (step: Step, side: "before" | "after") =>
  Object.fromEntries(step.fields.map((f) => [f.field, f[side]]));

export function planAuditEntries(plan: CatalogPlan, actor: Actor, appId: number, now: number): AuditEntry[] {
  return plan.steps.map((step) => {
    const audit = auditOf(actor, appId, resourceOf(step.object));
    if (step.action === "create") return audit.created(step.doc, step.ref);
    if (step.action === "delete")
      return audit.deleted(step.ref, CATALOG_OBJECT_KINDS[step.object].deletedDoc(step, now));
    return audit.updated(step.ref, fieldsOf(step, "before"), fieldsOf(step, "after"));
  });
}
