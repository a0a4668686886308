import { createRoute, z } from "@hono/zod-openapi";
import { requestActor } from "../apps/actor";
import { callerApp, requireApiKey } from "../auth/middleware";
import { UserIdSchema } from "../auth/schemas";
import { createRouter } from "../shared/http";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../shared/openapi";
import { ErasureReceipt, unavailable } from "./admin/schemas";
import { readErasure, requestErasure } from "./erasure";

const tags = ["Privacy"];
const security = bearerSecurity.apiKey;

/**
 * Erasure for a studio's backend, with the app's API key, next to SCILL's reset-challenges: the
 * same erasure and receipts as the admin API's, recorded in the audit log under the key.
 */
export const privacyRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "eraseUser",
      method: "delete",
      path: "/api/v1/erase-user/{appId}/{userId}",
      tags,
      security,
      middleware: [requireApiKey] as const,
      summary: "Erase one player of the key's app (API key): answers a receipt at once, completes within seconds",
      description:
        "The same erasure as DELETE /api/v1/admin/apps/{appId}/users/{userId}. Poll GET /api/v1/erasures/{appId}/{erasureId}.",
      request: {
        params: z.object({
          appId: pathId("appId"),
          userId: UserIdSchema.openapi({ param: { name: "userId", in: "path" } }),
        }),
      },
      responses: {
        202: jsonResponse(ErasureReceipt, "The receipt: status pending"),
        ...errorResponses,
        ...unavailable,
      },
    }),
    async (c) => {
      const { appId: pathAppId, userId } = c.req.valid("param");
      const appId = Number(callerApp(c, pathAppId));
      return c.json(await requestErasure(c.env, appId, userId, requestActor(c), c.get("now")), 202);
    },
  )
  .openapi(
    createRoute({
      operationId: "getErasure",
      method: "get",
      path: "/api/v1/erasures/{appId}/{erasureId}",
      tags,
      security,
      middleware: [requireApiKey] as const,
      summary: "The receipt of an erasure of the key's app (API key)",
      request: { params: z.object({ appId: pathId("appId"), erasureId: pathId("erasureId") }) },
      responses: { 200: jsonResponse(ErasureReceipt, "The receipt"), ...errorResponses },
    }),
    async (c) => {
      const { appId: pathAppId, erasureId } = c.req.valid("param");
      return c.json(await readErasure(c.env.DB, Number(callerApp(c, pathAppId)), erasureId), 200);
    },
  );
