import type { PointsSystemRow } from "./catalog";
import { presentSystemRow, systemColumns } from "./admin/repo";
import { PointsSystemFields, pointsSystemRule } from "./admin/schemas";

/**
 * The points systems' section of the catalog document (src/catalog): the admin API's input made
 * strict, a row as the export writes it, and a document object as its export would be once applied.
 */
export const CatalogPointsSystem = PointsSystemFields.strict()
  .superRefine(pointsSystemRule)
  .openapi("CatalogPointsSystem");
export type CatalogPointsSystem = ReturnType<typeof CatalogPointsSystem.parse>;

const FIELDS = Object.keys(PointsSystemFields.shape);

/** A system's row as the document's object: the admin API's fields, without ids and times. */
export function pointsSystemDoc(row: PointsSystemRow): CatalogPointsSystem {
  const shown = presentSystemRow(row) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.map((f) => [f, shown[f]])) as CatalogPointsSystem;
}

/** What a document's system is once applied: written with the area's columns, read back by its presenter. */
export const canonicalPointsSystem = (doc: CatalogPointsSystem): CatalogPointsSystem =>
  pointsSystemDoc({
    system_id: 0,
    app_id: 0,
    created_at: "",
    updated_at: "",
    ...systemColumns(doc),
  } as PointsSystemRow);
