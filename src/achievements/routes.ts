import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, requireTokenOrKey } from "../auth/middleware";
import { appTrust, refuseBanned } from "../auth/trust";
import { PLAYER_RESOURCE, recordAudit } from "../apps/audit-log";
import { requestActor } from "../apps/actor";
import { DomainError, forbidden, invalid } from "../shared/domain-errors";
import { createRouter, jsonText, type AppEnv } from "../shared/http";
import {
  bearerSecurity,
  conflictResponse,
  errorResponses,
  forbiddenResponse,
  jsonBody,
  jsonResponse,
  pathId,
} from "../shared/openapi";
import { GrantAnswer, GrantInput, PlayerAchievements, RevokeAnswer } from "./schemas";
import { userAchievements, type GrantResult, type RevokeResult } from "./user-achievements";

/**
 * The achievements API: a player's list (access token, or API key naming the user), and the
 * studio's backend's grants and revocations (API key only).
 */

const tags = ["Achievements"];
type Ctx = Context<AppEnv>;

const UserQuery = z.object({
  user_id: z.string().min(1).max(256).optional().openapi({
    description: "With an API key: the player. With an access token: not allowed (the token names the player)",
    example: "player-42",
  }),
  language: z.string().max(20).optional().openapi({ description: "Language of names; default: the app's language" }),
});
const AppParams = z.object({ appId: pathId("appId") });
const AchievementParams = AppParams.extend({ achievementId: pathId("achievementId") });
const UserIdParam = z
  .string()
  .min(1)
  .max(256)
  .openapi({ param: { name: "userId", in: "path" }, example: "player-42" });

/** The player a read is about: the token's, or with an API key the `user_id` of the query. */
function readUser(c: Ctx, userId: string | undefined): string {
  const caller = c.get("caller");
  if (caller.kind === "access-token") {
    if (userId !== undefined)
      throw invalid("user_id must not be sent with an access token: the token names the user", [
        { field: "user_id", problem: "not allowed with an access token" },
      ]);
    return caller.userId;
  }
  if (userId === undefined)
    throw invalid("user_id is required with an API key", [{ field: "user_id", problem: "required with an API key" }]);
  return userId;
}

/** Grants and revocations are the studio backend's: an access token gets 403. */
function requireBackend(c: Ctx, what: string): void {
  if (c.get("caller").kind === "access-token")
    throw forbidden(`Achievements are ${what} by the studio's backend with an API key, not by a game client`);
}

export const achievementsRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "getPlayerAchievements",
      method: "get",
      path: "/api/v1/achievements/{appId}",
      tags,
      security: bearerSecurity.tokenOrKey,
      summary: "The player's achievements: what they hold, their progress, and each one's rarity",
      description:
        "Every active and locked achievement of the app, in sort_order. A hidden achievement the player does not hold shows its " +
        "hidden description and a name that only says it is hidden, with no progress. An achievement created or activated since " +
        "the player's last call is awarded first when they qualify (backdating).",
      middleware: [requireTokenOrKey] as const,
      request: { params: AppParams, query: UserQuery },
      responses: { 200: jsonResponse(PlayerAchievements, "The player's achievements"), ...errorResponses },
    }),
    async (c) => {
      const appId = callerApp(c, c.req.valid("param").appId);
      const { user_id, language } = c.req.valid("query");
      const userId = readUser(c, user_id);
      // Already JSON (the player's object writes the text: src/achievements/list-json.ts).
      return jsonText<z.infer<typeof PlayerAchievements>>(
        await userAchievements(c.env, appId, userId).listJson(appId, userId, c.get("now"), language),
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "grantAchievement",
      method: "post",
      path: "/api/v1/achievements/{appId}/{achievementId}/grant",
      tags,
      security: bearerSecurity.apiKey,
      summary: "Grant an achievement to a player (studio backend)",
      description:
        "For manual achievements, and for any kind as a correction: held from now, with its points_rewards credited, its " +
        "`achievement-unlocked` webhook and MQTT message, and the composites it completes. Granting one the player holds changes " +
        "nothing and answers 200 with `granted: false`. 409 for a locked or inactive achievement (it takes no new holders). " +
        "API key only: an access token, or a banned player, gets 403.",
      middleware: [requireTokenOrKey] as const,
      request: { params: AchievementParams, ...jsonBody(GrantInput) },
      responses: {
        200: jsonResponse(GrantAnswer, "The player holds it"),
        ...errorResponses,
        ...forbiddenResponse("An access token (grants take the API key only), or the player is banned"),
        ...conflictResponse,
      },
    }),
    async (c) => {
      requireBackend(c, "granted");
      const { appId: pathApp, achievementId } = c.req.valid("param");
      const appId = callerApp(c, pathApp);
      const { user_id } = c.req.valid("json");
      refuseBanned(await appTrust(c.env.DB, appId), user_id, c.get("now"));
      const result = (await userAchievements(c.env, appId, user_id).grant(
        appId,
        achievementId,
        user_id,
        c.get("now"),
      )) as unknown as GrantResult;
      if (!result.ok) throw new DomainError(result.kind, result.message);
      return c.json(result.answer, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "revokeAchievement",
      method: "delete",
      path: "/api/v1/achievements/{appId}/{achievementId}/holders/{userId}",
      tags,
      security: bearerSecurity.apiKey,
      summary: "Take an achievement back from a player (studio backend)",
      description:
        "The player no longer holds it, nor the composites that required it; the points it credited stay. Written to the audit " +
        "log (`revoke-achievement`) with what was revoked and the `reason`. Not holding it revokes nothing (`revoked` is empty). " +
        "API key only: an access token gets 403.",
      middleware: [requireTokenOrKey] as const,
      request: {
        params: AchievementParams.extend({ userId: UserIdParam }),
        query: z.object({
          reason: z
            .string()
            .trim()
            .max(500)
            .optional()
            .openapi({ description: "Kept in the audit log", example: "cheated" }),
        }),
      },
      responses: {
        200: jsonResponse(RevokeAnswer, "What the player no longer holds"),
        ...errorResponses,
        ...forbiddenResponse("An access token: revocations take the API key only"),
      },
    }),
    async (c) => {
      requireBackend(c, "revoked");
      const { appId: pathApp, achievementId, userId } = c.req.valid("param");
      const appId = callerApp(c, pathApp);
      const result = (await userAchievements(c.env, appId, userId).revoke(
        appId,
        achievementId,
        userId,
      )) as unknown as RevokeResult;
      if (!result.ok) throw new DomainError(result.kind, result.message);
      const { reason } = c.req.valid("query");
      if (result.answer.revoked.length > 0)
        await recordAudit(c.env.DB, [
          {
            actor: requestActor(c),
            appId,
            resource: PLAYER_RESOURCE,
            resourceId: userId,
            action: "revoke-achievement",
            before: { user_id: userId, held: result.answer.revoked },
            after: { user_id: userId, revoked: result.answer.revoked, reason: reason ?? null },
          },
        ]);
      return c.json(result.answer, 200);
    },
  );
