import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, requireTokenOrKey } from "../auth/middleware";
import { invalid } from "../shared/domain-errors";
import { createRouter, type AppEnv } from "../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../shared/openapi";
import { userStreaks } from "./user-streaks";
import { PlayerStreaks, UserTimeZone, UserTimeZoneInput } from "./schemas";

/** The streaks API of a player (access token, or API key naming the user), and the player's time zone. */

type Ctx = Context<AppEnv>;

const UserQuery = z.object({
  user_id: z.string().min(1).max(256).optional().openapi({
    description: "With an API key: the player. With an access token: not allowed (the token names the player)",
    example: "player-42",
  }),
});
const LanguageQuery = UserQuery.extend({
  language: z.string().max(20).optional().openapi({ description: "Language of names; default: the app's language" }),
});
const AppParams = z.object({ appId: pathId("appId") });

/** The player a request is about: the token's, or with an API key the `user_id` of the query. */
function requestUser(c: Ctx, userId: string | undefined): string {
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

export const streaksRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "getPlayerStreaks",
      method: "get",
      path: "/api/v1/streaks/{appId}",
      tags: ["Streaks"],
      security: bearerSecurity.tokenOrKey,
      summary: "The player's streaks in the app: length, this period's count, freezes",
      description:
        "Periods follow the player's time zone (PUT /api/v1/user-time-zone), else the streak's. A period that ended is closed " +
        "(kept, frozen or lost) before the answer shows it.",
      middleware: [requireTokenOrKey] as const,
      request: { params: AppParams, query: LanguageQuery },
      responses: { 200: jsonResponse(PlayerStreaks, "The player's streaks"), ...errorResponses },
    }),
    async (c) => {
      const appId = callerApp(c, c.req.valid("param").appId);
      const { user_id, language } = c.req.valid("query");
      const userId = requestUser(c, user_id);
      return c.json(await userStreaks(c.env, appId, userId).list(appId, userId, c.get("now"), language), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getUserTimeZone",
      method: "get",
      path: "/api/v1/user-time-zone",
      tags: ["Streaks"],
      security: bearerSecurity.tokenOrKey,
      summary: "The player's time zone (null when never set)",
      middleware: [requireTokenOrKey] as const,
      request: { query: UserQuery },
      responses: { 200: jsonResponse(UserTimeZone, "The player's zone"), ...errorResponses },
    }),
    async (c) => {
      const appId = callerApp(c);
      const userId = requestUser(c, c.req.valid("query").user_id);
      return c.json(await userStreaks(c.env, appId, userId).timeZone(), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "setUserTimeZone",
      method: "put",
      path: "/api/v1/user-time-zone",
      tags: ["Streaks"],
      security: bearerSecurity.tokenOrKey,
      summary: "Store the player's IANA time zone: their streak periods follow it",
      description:
        "The current periods keep their ends; the next ones end at the boundaries of the new zone. An unknown zone is a 400.",
      middleware: [requireTokenOrKey] as const,
      request: { query: UserQuery, ...jsonBody(UserTimeZoneInput) },
      responses: { 200: jsonResponse(UserTimeZone, "The stored zone"), ...errorResponses },
    }),
    async (c) => {
      const appId = callerApp(c);
      const userId = requestUser(c, c.req.valid("query").user_id);
      const { time_zone } = c.req.valid("json");
      return c.json(await userStreaks(c.env, appId, userId).setTimeZone(appId, userId, time_zone), 200);
    },
  );
