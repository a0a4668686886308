import { isNode, LineCounter, parseDocument, stringify, type Document } from "yaml";
import type { FieldProblem } from "../../shared/domain-errors";

/**
 * Catalog documents as text, for the console's export and import: YAML or JSON (YAML 1.2 reads
 * both), read with the `yaml` package as the catalog CLI reads files, and written as its `pull`
 * writes them. Problems carry the line they are on, so that a pasted document can be fixed.
 */

export type CatalogFormat = "yaml" | "json";

/** A problem of the document: its path in the document (as the API names it), and its line when the text has one. */
export interface DocumentProblem extends FieldProblem {
  line: number | null;
}

export type ReadCatalogText =
  | { ok: true; value: unknown; locate: (problems: readonly FieldProblem[]) => DocumentProblem[] }
  | { ok: false; problems: DocumentProblem[] };

/** The field of problems about the text as a whole (not a path inside the document). */
export const TEXT_FIELD = "document";

const atPosition = / at line \d+, column \d+:?$/;

/** `categories.0.key` as the path the YAML document takes (indexes as numbers). */
const pathOf = (field: string) => field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/** The line of the deepest node along `field` that the document has: a missing field points at its object. */
function lineOf(doc: Document, lines: LineCounter, field: string): number | null {
  const path = pathOf(field);
  for (let depth = path.length; depth >= 1; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}

export function readCatalogText(text: string): ReadCatalogText {
  if (text.trim() === "")
    return {
      ok: false,
      problems: [{ field: TEXT_FIELD, problem: "is empty: paste a catalog document or choose a file", line: null }],
    };
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({
        field: TEXT_FIELD,
        problem: e.message.split("\n")[0].replace(atPosition, ""),
        line: e.linePos?.[0].line ?? null,
      })),
    };
  }
  let value: unknown;
  try {
    // Aliases expand at most 100 times (the package's default), so a small text cannot grow huge.
    value = doc.toJS();
  } catch (err) {
    return {
      ok: false,
      problems: [{ field: TEXT_FIELD, problem: err instanceof Error ? err.message : String(err), line: null }],
    };
  }
  return { ok: true, value, locate: (problems) => problems.map((p) => ({ ...p, line: lineOf(doc, lines, p.field) })) };
}

/**
 * The document as `npm run catalog -- pull` writes it (scripts/lib/catalog-client.mjs): YAML with
 * the schema comment editors follow and every string quoted (YAML 1.1 readers see times and dates
 * as strings too), or JSON with `$schema`.
 */
export function formatCatalog(doc: object, format: CatalogFormat, schemaUrl: string): string {
  if (format === "json") return `${JSON.stringify({ $schema: schemaUrl, ...doc }, null, 2)}\n`;
  const yaml = stringify(doc, { lineWidth: 0, defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" });
  return `# yaml-language-server: $schema=${schemaUrl}\n${yaml}`;
}
