import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import { toIso } from "../../shared/clock";
import { LanguageCode } from "../../shared/schemas";
import { presentApp, requireApp, type AppRow } from "./repo";


const AppInput = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Space Racer" }),
    default_language: LanguageCode.default("en").openapi({ example: "en" }),
  })
  .openapi("AppInput");

const App = z
  .object({ app_id: z.string(), name: z.string(), default_language: z.string(), created_at: z.string(), updated_at: z.string() })
  .openapi("App");

const AppIdParams = z.object({ appId: pathId("appId") });
const tags = ["Admin: apps"];
const security = bearerSecurity.admin;

export const appsAdmin = createRouter()
  .openapi(
    createRoute({
      method: "post", path: "/api/v1/admin/apps", tags, security, summary: "Create an app",
      request: jsonBody(AppInput),
      responses: { 201: jsonResponse(App, "The new app"), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const now = toIso(c.get("now"));
      const row = await c.env.DB.prepare(
        "INSERT INTO apps (name, default_language, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING *",
      )
        .bind(input.name, input.default_language, now, now)
        .first<AppRow>();
      return c.json(presentApp(row!), 201);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps", tags, security, summary: "List apps",
      request: { query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(App), "A page of apps"), ...errorResponses },
    }),
    async (c) => {
      const paging = c.req.valid("query");
      const [rows, total] = await c.env.DB.batch<AppRow | { n: number }>([
        c.env.DB.prepare("SELECT * FROM apps ORDER BY app_id LIMIT ? OFFSET ?").bind(paging.pageSize, pageOffset(paging)),
        c.env.DB.prepare("SELECT COUNT(*) AS n FROM apps"),
      ]);
      return c.json(
        { items: (rows.results as AppRow[]).map(presentApp), ...paging, total: (total.results[0] as { n: number }).n },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}", tags, security, summary: "Get an app",
      request: { params: AppIdParams },
      responses: { 200: jsonResponse(App, "The app"), ...errorResponses },
    }),
    async (c) => c.json(presentApp(await requireApp(c.env.DB, c.req.valid("param").appId)), 200),
  )
  .openapi(
    createRoute({
      method: "put", path: "/api/v1/admin/apps/{appId}", tags, security, summary: "Replace an app's settings",
      request: { params: AppIdParams, ...jsonBody(AppInput) },
      responses: { 200: jsonResponse(App, "The updated app"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const input = c.req.valid("json");
      const row = await c.env.DB.prepare(
        "UPDATE apps SET name = ?, default_language = ?, updated_at = ? WHERE app_id = ? RETURNING *",
      )
        .bind(input.name, input.default_language, toIso(c.get("now")), app.app_id)
        .first<AppRow>();
      return c.json(presentApp(row!), 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete", path: "/api/v1/admin/apps/{appId}", tags, security,
      summary: "Delete an app with its keys and configuration",
      request: { params: AppIdParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      // Foreign keys cascade to everything the app owns in D1.
      await c.env.DB.prepare("DELETE FROM apps WHERE app_id = ?").bind(app.app_id).run();
      return c.body(null, 204);
    },
  );
