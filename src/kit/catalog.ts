import type { z } from "@hono/zod-openapi";

import type { AppSettingsColumns } from "../apps/settings";

import type { FieldProblem } from "../shared/domain-errors";

import type { HeldState } from "../user/messages";

/**
 * An area's section of the catalog document (catalog as code, src/catalog): the field it owns in
 * the document, how its objects are read, exported, planned against a document and written. The
 * catalog runs the sections in the registry's order, which is the document's order.
 */
export interface CatalogSection {
  /** The document's field, e.g. `battle_passes`. */
  readonly key: string;
  /** The field's schema: the admin API's inputs of the area, made strict, with keys instead of ids. */
  readonly schema: z.ZodTypeAny;
  /** The kinds of object of the section, in the plan answer's order, with how plans and audit entries name them. */
  readonly objects: Readonly<Record<string, CatalogObjectKind>>;
  /** Kinds deleted after every other write of an apply (a category, once its challenges moved out of it). */
  readonly deletedLast?: readonly string[];
  /** The snapshot's fields the section reads, each one D1 statement of the snapshot's batch. */
  reads(db: D1Database, appId: number): Record<string, D1PreparedStatement>;
  /** The section's objects as the document writes them, in the order players see them. */
  export(snapshot: CatalogSnapshot, now: number): unknown[];
  /**
   * What a document's objects change (`planner` records each step), by key; `document` is the whole
   * document, for what one section's objects name in another's (a reward naming a points system).
   */
  plan(planner: CatalogPlanner, wanted: unknown[], snapshot: CatalogSnapshot, document: object): void;
  /** The write of one step, by the area's own statement functions. */
  statement(db: D1Database, appId: number, step: Step, now: number): D1PreparedStatement;
  /** What the schema cannot say of one object alone (keys unique in their scope, allowed URLs), with each path. */
  problems?(docs: unknown[], rules: DocumentRules): FieldProblem[];
}

export interface CatalogObjectKind {
  /** The resource name of its audit entries (as the admin API's). */
  readonly resource: string;
  /** How the console names it. */
  readonly label: string;
  /** A deleted object as a document, for its audit entry. */
  deletedDoc(step: Step, now: number): unknown;
}

export interface DocumentRules {
  allowLoopbackWebhooks: boolean;
}

/**
 * An app's configuration as D1 holds it, read in one batch: the app's own part, and each
 * section's fields (`reads`), which only that section reads.
 */
export interface CatalogSnapshot {
  appId: number;
  /** The app's catalog_version when it was read: an apply refuses to run over a newer one. */
  version: number;
  /** The app's fair-play settings, as its row holds them (a NULL rate limit: the default). */
  settings: AppSettingsColumns;
  holders: Holders;
  [field: string]: unknown;
}

/**
 * What the app's users hold: per challenge id, the users in each held state; per battle pass id, the users who unlocked
 * it.
 */
export interface Holders {
  challenges: Map<number, Partial<Record<HeldState, number>>>;
  passes: Map<number, number>;
}

export type Action = "create" | "update" | "delete";

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * What an apply does to one object; `ref` names it by keys, e.g. `battle_passes/season-1/levels/gold`.
 * `doc` (what the document wants) and `row` (what D1 has) are the section's own; so are other fields
 * its statement needs (a parent's key, a position).
 */
export interface Step {
  action: Action;
  object: string;
  ref: string;
  fields: FieldChange[];
  // biome-ignore lint/suspicious/noExplicitAny: each section reads its own steps
  doc?: any;
  // biome-ignore lint/suspicious/noExplicitAny: each section reads its own steps
  row?: any;
  [extra: string]: unknown;
}

/** A step before the plan decides its action and fields. */
export interface StepOf {
  object: string;
  ref: string;
  // biome-ignore lint/suspicious/noExplicitAny: each section reads its own steps
  doc?: any;
  // biome-ignore lint/suspicious/noExplicitAny: each section reads its own steps
  row?: any;
  [extra: string]: unknown;
}

/** How a section records its plan. */
export interface CatalogPlanner {
  readonly prune: boolean;
  readonly now: number;
  /**
   * Records an object the document has: created, updated (fields that differ; `nested` child lists are planned
   * as objects of their own; `extra` changes the fields cannot show), or nothing when equal.
   */
  upsert(step: StepOf, current: object | null, desired: object, nested?: string[], extra?: FieldChange[]): Step | null;
  /** Records an object the document leaves out: deleted with prune (true), else unmanaged. */
  leftOut(step: StepOf): boolean;
  /** A change that would break running player state: an apply refuses it unless forced. */
  block(object: string, ref: string, problem: string): void;
  /** What makes the document impossible to apply to this app (400). */
  problem(field: string, problem: string): void;
}

// ---- helpers the sections share

/** The document's fields of each object, in the order of its area's input schema. */
export const fieldsOf = (shape: object, ...without: string[]) => Object.keys(shape).filter((f) => !without.includes(f));

export function pick(source: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = source[field];
  return picked;
}

export const indexBy = <T>(rows: T[], key: (row: T) => string) => new Map(rows.map((row) => [key(row), row]));

export const byId = <T>(rows: T[], id: (row: T) => number) => {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(id(row), [...(groups.get(id(row)) ?? []), row]);
  return groups;
};

export const usersWord = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The fields that say what a challenge's counter counts: changing them under running counters changes what those mean.
 */
const COUNTER_FIELDS = [
  "event_name",
  "value_field",
  "filters",
  "challenge_goal",
  "challenge_goal_condition",
  "counter_scope",
];

/** The counter-defining fields an update changes. */
export const countingChanges = (step: Step | null) =>
  step?.fields.filter((f) => COUNTER_FIELDS.includes(f.field)).map((f) => f.field) ?? [];

const HELD_WORDS: Record<HeldState, string> = {
  unlocked: "unlocked",
  "in-progress": "in progress",
  unclaimed: "completed and unclaimed",
};

export function describeHolders(held: Partial<Record<HeldState, number>>): string {
  return (Object.entries(held) as [HeldState, number][])
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${usersWord(n, "user holds", "users hold")} it ${HELD_WORDS[state]}`)
    .join(", ");
}

/** Keys used more than once in their scope, each with its path. */
export function duplicateKeys(entries: { key: string; field: string }[], scope: string): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const { key, field } of entries) {
    if (seen.has(key)) problems.push({ field, problem: `'${key}' is used more than once in ${scope}` });
    seen.add(key);
  }
  return problems;
}
