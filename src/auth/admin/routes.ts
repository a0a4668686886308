import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { toIso } from "../../shared/clock";
import { insertApiKey, presentApiKey } from "../api-keys";
import { requireApp } from "../../apps/repo";
import { listApiKeys, requireApiKey, revokeApiKey, updateApiKey } from "./repo";
import { ApiKey, ApiKeyInput, CreatedApiKey } from "./schemas";
import { requestActor } from "../../apps/actor";

const AppParams = z.object({ appId: pathId("appId") });
const KeyParams = AppParams.extend({ keyId: pathId("keyId") });
const tags = ["Admin: API keys"];
const security = bearerSecurity.admin;
export const apiKeysAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createApiKey",
      method: "post",
      path: "/api/v1/admin/apps/{appId}/api-keys",
      tags,
      security,
      summary: "Create an API key",
      request: { params: AppParams, ...jsonBody(ApiKeyInput) },
      responses: { 201: jsonResponse(CreatedApiKey, "The new key, shown once"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const { key, row } = await insertApiKey(c.env.DB, app.app_id, c.req.valid("json"), c.get("now"), requestActor(c));
      return c.json({ ...presentApiKey(row), key }, 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listApiKeys",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/api-keys",
      tags,
      security,
      summary: "List API keys (without the keys)",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(ApiKey), "A page of keys"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listApiKeys(c.env.DB, app.app_id, paging);
      return c.json({ items: rows.map(presentApiKey), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getApiKey",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/api-keys/{keyId}",
      tags,
      security,
      summary: "Get an API key's metadata",
      request: { params: KeyParams },
      responses: { 200: jsonResponse(ApiKey, "The key's metadata"), ...errorResponses },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentApiKey(await requireApiKey(c.env.DB, app.app_id, keyId)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "updateApiKey",
      method: "put",
      path: "/api/v1/admin/apps/{appId}/api-keys/{keyId}",
      tags,
      security,
      summary: "Rename an API key, or change whether revoking it ends its tokens",
      request: { params: KeyParams, ...jsonBody(ApiKeyInput) },
      responses: { 200: jsonResponse(ApiKey, "The updated metadata"), ...errorResponses },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const key = await requireApiKey(c.env.DB, app.app_id, keyId);
      return c.json(presentApiKey(await updateApiKey(c.env.DB, key, c.req.valid("json"), requestActor(c))), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "revokeApiKey",
      method: "delete",
      path: "/api/v1/admin/apps/{appId}/api-keys/{keyId}",
      tags,
      security,
      summary: "Revoke an API key; the next request with it is refused",
      description:
        "With end_tokens_on_revoke (the default) the access tokens it minted are refused from then on too (401).",
      request: { params: KeyParams },
      responses: { 200: jsonResponse(ApiKey, "The revoked key's metadata"), ...errorResponses },
    }),
    async (c) => {
      const { appId, keyId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const key = await requireApiKey(c.env.DB, app.app_id, keyId);
      return c.json(presentApiKey(await revokeApiKey(c.env.DB, key, toIso(c.get("now")), requestActor(c))), 200);
    },
  );
