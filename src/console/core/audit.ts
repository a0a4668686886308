/** How the console shows an audit entry: who acted, and the fields a change touched. */

export interface ShownActor {
  kind: "admin-token" | "console-user" | "api-key" | "system";
  id: string | null;
  name: string | null;
}

export function actorLabel(actor: ShownActor): string {
  switch (actor.kind) {
    case "admin-token":
      return actor.name ? `Admin token · ${actor.name}` : "Admin token";
    case "console-user":
      return actor.name ?? `Console user ${actor.id}`;
    case "api-key":
      return `API key ${actor.id}`;
    case "system":
      return `Service · ${actor.name ?? "background"}`;
  }
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const asObject = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * The fields to show: what was set (a creation), what was removed (a deletion), or the fields of
 * `after` that differ from `before` (an update names only what it was asked to become).
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const b = asObject(before);
  const a = asObject(after);
  if (a && !b) return Object.entries(a).map(([field, value]) => ({ field, before: undefined, after: value }));
  if (b && !a) return Object.entries(b).map(([field, value]) => ({ field, before: value, after: undefined }));
  if (!a || !b) return [];
  return Object.entries(a)
    .filter(([field, value]) => JSON.stringify(b[field]) !== JSON.stringify(value))
    .map(([field, value]) => ({ field, before: b[field], after: value }));
}

/** A value in one line: text as it is, anything else as JSON, an absent one as a dash. */
export const shownValue = (value: unknown): string =>
  value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);

/**
 * An entry's object id in a table cell: an erased player's subject (64 hex digits) cut to its start; the whole id goes
 * in the tooltip.
 */
export const shownResourceId = (id: string | null): string =>
  id === null ? "" : id.startsWith("erased:") ? `${id.slice(0, 15)}…` : id;
