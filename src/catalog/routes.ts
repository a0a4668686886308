import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../shared/http";
import { bearerSecurity, conflictResponse, errorResponses, jsonBody, jsonResponse, pathId } from "../shared/openapi";
import { CATALOG_SCHEMA_PATH, catalogJsonSchema } from "./json-schema";
import { CatalogDocument, CatalogPlanAnswer } from "./schemas";
import { applyCatalog, exportCatalog, previewCatalog } from "./service";
import { requestActor } from "../apps/actor";

const tags = ["Admin: catalog as code"];
const security = bearerSecurity.admin;
const path = "/api/v1/admin/apps/{appId}/catalog";
const AppParams = z.object({ appId: pathId("appId") });

const flag = (description: string) =>
  z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description });
const PlanQuery = z.object({ prune: flag("Delete the app's objects that the document leaves out") });
const ApplyQuery = PlanQuery.extend({
  force: flag("Apply even the changes that would break running player state (listed as blocked by the plan)"),
});

const DOCUMENT_BODY = jsonBody(
  CatalogDocument,
  `The catalog document as JSON (the catalog CLI converts YAML). Its JSON Schema: GET ${CATALOG_SCHEMA_PATH}`,
);

/** Catalog as code: the app's whole configuration as one document, by key (src/catalog/service.ts). */
export const catalogRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "exportCatalog",
      method: "get",
      path,
      tags,
      security,
      summary: "Export the app's configuration as a catalog document",
      description:
        "Categories by position with their challenges, battle passes with levels and level challenges, leaderboards and webhooks. Webhook secrets are never exported: each shows as a reference {env: NAME}.",
      request: { params: AppParams },
      responses: { 200: jsonResponse(CatalogDocument, "The catalog document"), ...errorResponses },
    }),
    async (c) => c.json(await exportCatalog(c.env, c.req.valid("param").appId, c.get("now")), 200),
  )
  .openapi(
    createRoute({
      operationId: "planCatalog",
      method: "post",
      path: `${path}/plan`,
      tags,
      security,
      summary: "Plan a catalog document against the app, changing nothing",
      description:
        "Per object: create, update (with the fields that change) or delete (with prune=true); the app's objects the document leaves out; the changes an apply would refuse because they break running player state.",
      request: { params: AppParams, query: PlanQuery, ...DOCUMENT_BODY },
      responses: { 200: jsonResponse(CatalogPlanAnswer, "The plan"), ...errorResponses },
    }),
    async (c) =>
      c.json(
        await previewCatalog(
          c.env,
          c.req.valid("param").appId,
          c.req.valid("json"),
          c.req.valid("query"),
          c.get("now"),
        ),
        200,
      ),
  )
  .openapi(
    createRoute({
      operationId: "applyCatalog",
      method: "put",
      path,
      tags,
      security,
      summary: "Apply a catalog document to the app, atomically",
      description:
        "All of the plan in one D1 batch, or nothing. Idempotent: applying the same document again changes nothing. Objects the document leaves out are deleted only with prune=true. 409 lists the changes that would break running player state (users holding a challenge in progress, a running battle pass users unlocked) unless force=true, and answers a configuration change that came in meanwhile.",
      request: { params: AppParams, query: ApplyQuery, ...DOCUMENT_BODY },
      responses: { 200: jsonResponse(CatalogPlanAnswer, "What was applied"), ...errorResponses, ...conflictResponse },
    }),
    async (c) =>
      c.json(
        await applyCatalog(
          c.env,
          c.req.valid("param").appId,
          c.req.valid("json"),
          c.req.valid("query"),
          c.get("now"),
          requestActor(c),
        ),
        200,
      ),
  )
  .openapi(
    createRoute({
      operationId: "getCatalogSchema",
      method: "get",
      path: CATALOG_SCHEMA_PATH,
      tags,
      summary: "The JSON Schema of catalog documents, for editors",
      description:
        "No credential: editors fetch it as they open a document. The same definition as the CatalogDocument schema of this OpenAPI document.",
      responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "A JSON Schema (draft 2020-12)") },
    }),
    (c) => c.json(catalogJsonSchema(), 200),
  );
