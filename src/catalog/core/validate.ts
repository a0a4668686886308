import type { FieldProblem } from "../../shared/domain-errors";
import { CATALOG_SECTIONS } from "../../registry/areas";
import type { CatalogDocument } from "../schemas";

/**
 * What the document's schema cannot say of one object alone: keys unique in their scope, and the
 * webhook rules the admin API applies (allowed URLs, usable secrets). Every problem with its path,
 * section by section.
 */
export function documentProblems(doc: CatalogDocument, allowLoopbackWebhooks: boolean): FieldProblem[] {
  return CATALOG_SECTIONS.flatMap(
    (section) => section.problems?.((doc[section.key] as unknown[]) ?? [], { allowLoopbackWebhooks }) ?? [],
  );
}
