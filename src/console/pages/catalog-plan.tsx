import type { CatalogObject, presentPlan } from "../../catalog/core/plan";
import { counted } from "../core/plural";
import { StatusBadge } from "../ui/lists";

/**
 * A catalog plan as `POST .../catalog/plan` answers it, for people: one line per object, each
 * changed field with its value before and after, the app's objects the document leaves out, and
 * what an apply would refuse.
 */

export type PlanAnswer = ReturnType<typeof presentPlan>;

const OBJECT_NAMES: Record<CatalogObject, string> = {
  app_settings: "app settings",
  category: "category",
  challenge: "challenge",
  battle_pass: "battle pass",
  level: "level",
  level_challenge: "level challenge",
  leaderboard: "leaderboard",
  points_system: "points system",
  webhook: "webhook",
};

/** A value as the document writes it; the plan already shows secrets as (secret). */
const shown = (value: unknown) => JSON.stringify(value ?? null);

export const changeCount = (plan: PlanAnswer) => plan.summary.create + plan.summary.update + plan.summary.delete;

/** "2 to create, 1 to update, 0 to delete", or "2 created, ..." once applied. */
export function planCounts(plan: PlanAnswer, applied = false): string {
  const { create, update, delete: deleted } = plan.summary;
  return applied
    ? `${create} created, ${update} updated, ${deleted} deleted`
    : `${create} to create, ${update} to update, ${deleted} to delete`;
}

function Changes(props: { plan: PlanAnswer }) {
  return (
    <ul class="plan-list">
      {props.plan.changes.map((change) => (
        <li>
          <StatusBadge status={change.action} /> {OBJECT_NAMES[change.object]} <code>{change.ref}</code>
          {change.fields.length > 0 && (
            <ul class="plan-fields">
              {change.fields.map((f) => (
                <li>
                  <code>{f.field}</code>: <code class="before">{shown(f.before)}</code> →{" "}
                  <code class="after">{shown(f.after)}</code>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}

export function PlanDetails(props: { plan: PlanAnswer }) {
  const { plan } = props;
  return (
    <>
      <p class="plan-summary">
        <strong>
          {changeCount(plan) === 0 ? "No changes: the app already matches the document." : `Plan: ${planCounts(plan)}.`}
        </strong>
        {plan.summary.unmanaged > 0 &&
          ` ${counted(plan.summary.unmanaged, "object")} of the app ${plan.summary.unmanaged === 1 ? "is" : "are"} not in the document.`}
      </p>
      {plan.changes.length > 0 && <Changes plan={plan} />}
      {plan.blocked.length > 0 && (
        <div class="form-errors" role="alert">
          <p>
            {counted(plan.blocked.length, "change")} would break running player state; an apply refuses{" "}
            {plan.blocked.length === 1 ? "it" : "them"} unless forced:
          </p>
          <ul>
            {plan.blocked.map((b) => (
              <li>
                <code>{b.ref}</code>: {b.problem}
              </li>
            ))}
          </ul>
        </div>
      )}
      {plan.unmanaged.length > 0 && (
        <>
          <h3>Not in the document</h3>
          <p class="muted">
            Kept as they are. To delete them, tick “Delete what the document leaves out” and preview again.
          </p>
          <ul class="plan-list">
            {plan.unmanaged.map((u) => (
              <li>
                {OBJECT_NAMES[u.object]} <code>{u.ref}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
