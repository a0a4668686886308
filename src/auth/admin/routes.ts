import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../shared/http";
import { notFound } from "../../shared/errors";
import { parseId } from "../../shared/ids";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import { toIso } from "../../shared/clock";
import { insertApiKey, presentApiKey, type ApiKeyRow } from "../api-keys";
import { requireApp } from "../../apps/repo";

const ApiKeyInput = z.object({ name: z.string().trim().max(200).default("").openapi({ example: "game server" }) }).openapi("ApiKeyInput");

const ApiKey = z
  .object({
    key_id: z.string(), app_id: z.string(), name: z.string(), key_prefix: z.string(),
    created_at: z.string(), revoked_at: z.string().nullable(),
  })
  .openapi("ApiKey");

const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: "The key itself. Shown only in this response; only its hash is stored." }),
}).openapi("CreatedApiKey");

const AppParams = z.object({ appId: pathId("appId") });
const KeyParams = AppParams.extend({ keyId: pathId("keyId") });
const tags = ["Admin: API keys"];
const security = bearerSecurity.admin;
const COLUMNS = "key_id, app_id, name, key_prefix, created_at, revoked_at";

async function requireKey(db: D1Database, appId: number, keyId: string): Promise<ApiKeyRow> {
  const id = parseId(keyId);
  const row = id === null ? null : await db
    .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? AND key_id = ?`)
    .bind(appId, id)
    .first<ApiKeyRow>();
  if (!row) throw notFound(`API key ${keyId} not found`);
  return row;
}

export const apiKeysAdmin = createRouter()
  .openapi(
    createRoute({
      method: "post", path: "/api/v1/admin/apps/{appId}/api-keys", tags, security, summary: "Create an API key",
      request: { params: AppParams, ...jsonBody(ApiKeyInput) },
      responses: { 201: jsonResponse(CreatedApiKey, "The new key, shown once"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const { key, row } = await insertApiKey(c.env.DB, app.app_id, c.req.valid("json").name, c.get("now"));
      return c.json({ ...presentApiKey(row), key }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/api-keys", tags, security, summary: "List API keys (without the keys)",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(ApiKey), "A page of keys"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const [rows, total] = await c.env.DB.batch<ApiKeyRow | { n: number }>([
        c.env.DB.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? ORDER BY key_id LIMIT ? OFFSET ?`)
          .bind(app.app_id, paging.pageSize, pageOffset(paging)),
        c.env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE app_id = ?").bind(app.app_id),
      ]);
      return c.json(
        { items: (rows.results as ApiKeyRow[]).map(presentApiKey), ...paging, total: (total.results[0] as { n: number }).n },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/api-keys/{keyId}", tags, security, summary: "Get an API key's metadata",
      request: { params: KeyParams },
      responses: { 200: jsonResponse(ApiKey, "The key's metadata"), ...errorResponses },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentApiKey(await requireKey(c.env.DB, app.app_id, keyId)), 200);
    },
  )
  .openapi(
    createRoute({
      method: "put", path: "/api/v1/admin/apps/{appId}/api-keys/{keyId}", tags, security, summary: "Rename an API key",
      request: { params: KeyParams, ...jsonBody(ApiKeyInput) },
      responses: { 200: jsonResponse(ApiKey, "The updated metadata"), ...errorResponses },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const key = await requireKey(c.env.DB, app.app_id, keyId);
      const row = await c.env.DB.prepare(`UPDATE api_keys SET name = ? WHERE key_id = ? RETURNING ${COLUMNS}`)
        .bind(c.req.valid("json").name, key.key_id)
        .first<ApiKeyRow>();
      return c.json(presentApiKey(row!), 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete", path: "/api/v1/admin/apps/{appId}/api-keys/{keyId}", tags, security,
      summary: "Revoke an API key; the next request with it is refused",
      request: { params: KeyParams },
      responses: { 200: jsonResponse(ApiKey, "The revoked key's metadata"), ...errorResponses },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const key = await requireKey(c.env.DB, app.app_id, keyId);
      const row = await c.env.DB.prepare(
        `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ? RETURNING ${COLUMNS}`,
      )
        .bind(toIso(c.get("now")), key.key_id)
        .first<ApiKeyRow>();
      return c.json(presentApiKey(row!), 200);
    },
  );
