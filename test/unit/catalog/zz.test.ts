import { it } from "vitest";
import { catalogJsonSchema } from "../../../src/catalog/json-schema";
it("schema", () => {
  const s = catalogJsonSchema();
  console.log(Object.keys(s.$defs));
  console.log(JSON.stringify(s.$defs.CatalogWebhook));
  console.log(JSON.stringify(s.$defs.CatalogDocument));
  console.log(JSON.stringify((s.$defs as any).CatalogChallenge).slice(0, 1500));
});
