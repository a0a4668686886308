import { OpenAPIHono } from "@hono/zod-openapi";
import { CATALOG_FORMAT_VERSION, CatalogDocument } from "./schemas";

/** Where the schema is served, without a credential: documents name it for their editors. */
export const CATALOG_SCHEMA_PATH = "/api/v1/public/catalog-schema.json";

/**
 * The JSON Schema of catalog documents, for editors (VS Code's JSON and YAML extensions and the
 * like). It is made by the same generator as the OpenAPI document, from the same zod definition,
 * so both describe exactly what the API validates (refinements such as IANA time zones aside).
 */
function generate() {
  const generator = new OpenAPIHono();
  generator.openAPIRegistry.register("CatalogDocument", CatalogDocument);
  const { components } = generator.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "Catalog document", version: "1" },
  });
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; only their references point elsewhere.
  const defs = JSON.parse(
    JSON.stringify(components?.schemas ?? {}).replaceAll('"#/components/schemas/', '"#/$defs/'),
  ) as Record<string, unknown>;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: `Open Gamification catalog document, format version ${CATALOG_FORMAT_VERSION}`,
    $ref: "#/$defs/CatalogDocument",
    $defs: defs,
  };
}

let schema: ReturnType<typeof generate> | null = null;

export const catalogJsonSchema = () => (schema ??= generate());
