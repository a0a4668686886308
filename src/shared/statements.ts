/** Pieces of D1 statements that areas share: id expressions, named column values, key clashes. */
import { conflict } from "./errors";

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

export const isUniqueViolation = (err: unknown) => err instanceof Error && /UNIQUE constraint failed/i.test(err.message);

/**
 * Runs a write that may name a key or slug another row already has: that UNIQUE failure becomes a
 * 409 saying `clash`. With `clash` null (the write chose no key) every failure passes through.
 */
export async function conflictOnDuplicate<T>(clash: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (clash !== null && isUniqueViolation(err)) throw conflict(clash);
    throw err;
  }
}
