import type { FieldProblem } from "../../shared/domain-errors";
import type { Action, CatalogPlanner, CatalogSnapshot, FieldChange, Step, StepOf } from "../../kit/catalog";
import { CATALOG_SECTIONS } from "../../registry/areas";
import type { CatalogDocument, CatalogSettings } from "../schemas";
import { canonicalSettings, settingsDoc } from "./documents";

/**
 * The difference between a document and an app, by key, pure. Every object of the document is
 * created or updated (with the fields that change), or left alone when equal; objects of the app
 * missing from the document are deleted with `prune`, else listed as unmanaged. A change that would
 * break running player state (what the app's users hold, per the D1 holder counts) is listed as
 * blocked: applying it needs `force`. Each area's section plans its own objects.
 */

/** `app_settings`, or a kind of object of an area's section. */
export type CatalogObject = string;
export type { Action, FieldChange, Step };

export interface Blocker {
  object: CatalogObject;
  ref: string;
  problem: string;
}

export interface CatalogPlan {
  /** Document order; deletions of an object after those of its children. */
  steps: Step[];
  /** Objects of the app the document leaves out, kept because the plan does not prune. */
  unmanaged: { object: CatalogObject; ref: string }[];
  blocked: Blocker[];
  /** What makes the document impossible to apply to this app (400). */
  problems: FieldProblem[];
}

export interface PlanOptions {
  prune: boolean;
  now: number;
}

/** Equal as JSON, whatever the order of object keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The fields that differ between two document objects; child lists (`nested`) are planned as objects of their own. */
function changedFields(before: object, after: object, nested: string[] = []): FieldChange[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !nested.includes(f));
  return fields
    .filter((f) => !sameValue(b[f], a[f]))
    .map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
}

export function planCatalog(doc: CatalogDocument, snapshot: CatalogSnapshot, options: PlanOptions): CatalogPlan {
  const planner = new Planner(options);
  planner.settings(doc.settings, snapshot);
  for (const section of CATALOG_SECTIONS) section.plan(planner, (doc[section.key] as unknown[]) ?? [], snapshot, doc);
  return planner.plan;
}

/** Builds a plan section by section, in document order. */
class Planner implements CatalogPlanner {
  readonly plan: CatalogPlan = { steps: [], unmanaged: [], blocked: [], problems: [] };
  readonly prune: boolean;
  readonly now: number;

  constructor(options: PlanOptions) {
    this.prune = options.prune;
    this.now = options.now;
  }

  upsert(
    step: StepOf,
    current: object | null,
    desired: object,
    nested: string[] = [],
    extra: FieldChange[] = [],
  ): Step | null {
    const fields = current === null ? [] : [...changedFields(current, desired, nested), ...extra];
    if (current !== null && fields.length === 0) return null;
    const planned = { ...step, action: current === null ? "create" : "update", fields } as Step;
    this.plan.steps.push(planned);
    return planned;
  }

  leftOut(step: StepOf): boolean {
    if (!this.prune) {
      this.plan.unmanaged.push({ object: step.object, ref: step.ref });
      return false;
    }
    this.plan.steps.push({ ...step, action: "delete", fields: [] } as Step);
    return true;
  }

  block(object: CatalogObject, ref: string, problem: string): void {
    this.plan.blocked.push({ object, ref, problem });
  }

  problem(field: string, problem: string): void {
    this.plan.problems.push({ field, problem });
  }

  /**
   * The app's settings, which always exist: updated when the document's differ. A document without
   * them leaves the app's alone, even with prune (they are not an object the document could leave out).
   */
  settings(wanted: CatalogSettings | undefined, s: CatalogSnapshot): void {
    if (wanted)
      this.upsert(
        { object: "app_settings", ref: "settings", doc: wanted },
        settingsDoc(s.settings),
        canonicalSettings(wanted),
      );
  }
}

/** The plan as the API answers it: what changes, without rows or documents. */
export function presentPlan(plan: CatalogPlan) {
  const count = (action: Action) => plan.steps.filter((s) => s.action === action).length;
  return {
    summary: {
      create: count("create"),
      update: count("update"),
      delete: count("delete"),
      unmanaged: plan.unmanaged.length,
      blocked: plan.blocked.length,
    },
    changes: plan.steps.map(({ action, object, ref, fields }) => ({ action, object, ref, fields })),
    unmanaged: plan.unmanaged,
    blocked: plan.blocked,
  };
}
