/** Pieces of D1 statements that areas share: id expressions, named column values, key clashes. */
import { conflict, type FieldProblem } from "./domain-errors";

/**
 * An SQL expression that yields one row id, with its bound arguments: a known id (`?`), or a
 * subselect by key for a row that an earlier statement of the same D1 batch creates.
 */
export interface IdRef {
  sql: string;
  args: unknown[];
}

export const boundId = (id: number): IdRef => ({ sql: "?", args: [id] });

/** Column values by column name, from the parallel lists a statement binds. */
export const named = (columns: readonly string[], values: unknown[]): Record<string, unknown> =>
  Object.fromEntries(columns.map((column, i) => [column, values[i]]));

/**
 * The values an input writes to its row's columns, in the columns' order: each as it is, or as its
 * column's encoding writes it (JSON text, 0/1 for a boolean).
 */
export function encodeColumns<T, K extends keyof T>(
  columns: readonly K[],
  encoding: Partial<Record<K, (value: never) => unknown>>,
  input: T,
): unknown[] {
  return columns.map((column) => {
    const encode = encoding[column] as ((value: unknown) => unknown) | undefined;
    return encode ? encode(input[column]) : input[column];
  });
}

export const isUniqueViolation = (err: unknown) =>
  err instanceof Error && /UNIQUE constraint failed/i.test(err.message);

/**
 * Runs a write of an object whose key (or slug) is unique in its scope, the only UNIQUE index of
 * such tables: that failure becomes a 409 naming the field, so that a form shows it next to it.
 * `clash` may read the failure's message when a write touches two tables with keys (a level and
 * its challenges).
 */
export async function conflictOnDuplicate<T>(
  clash: FieldProblem | ((message: string) => FieldProblem),
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const problem = typeof clash === "function" ? clash((err as Error).message) : clash;
    throw conflict(problem.problem, [problem]);
  }
}

/**
 * The clash of an object's key: the key given, or without one the key derived from the new id
 * (`challenge-<id>`), which another object of the scope chose for itself.
 */
export function keyClash(kind: string, key: string | undefined, scope = "this app"): FieldProblem {
  const problem =
    key === undefined
      ? `Another ${kind} in ${scope} already has the key this one would get from its id: choose a key`
      : `${kind[0].toUpperCase()}${kind.slice(1)} key '${key}' is already used in ${scope}`;
  return { field: "key", problem };
}
