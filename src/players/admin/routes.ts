import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { isInForce, banOf, listBans, presentBan, readBan } from "../../auth/bans";
import { UserIdSchema } from "../../auth/schemas";
import { badRequest, notFound } from "../../shared/errors";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { banPlayer, liftBan } from "../bans";
import { Ban, BanInput } from "./schemas";
import { StoredChallengeStateSchema } from "../../challenges/schemas";
import { UserBattlePassState } from "../../battlepasses/admin/user-state";
import { readUserState } from "./state";

const UserParams = z.object({
  appId: pathId("appId"),
  userId: UserIdSchema.openapi({ param: { name: "userId", in: "path" }, example: "player-42" }),
});

const AdminUserState = z
  .object({
    app_id: z.string(),
    user_id: z.string(),
    challenges: z.array(StoredChallengeStateSchema),
    battle_passes: UserBattlePassState,
  })
  .openapi("AdminUserState");

const ban = "/api/v1/admin/apps/{appId}/users/{userId}/ban";
const banTags = ["Admin: bans"];
const security = bearerSecurity.admin;

/** The read-only support view of one user: every area's stored state, nothing started or reset; and bans. */
export const usersAdmin = createRouter().openapi(
  createRoute({
    method: "get", path: "/api/v1/admin/apps/{appId}/users/{userId}", tags: ["Admin: users"], security: bearerSecurity.admin,
    summary: "Read one user's stored state, for support (nothing is started or reset by reading)",
    request: { params: UserParams },
    responses: { 200: jsonResponse(AdminUserState, "The user's state"), ...errorResponses },
  }),
  async (c) => {
    const { appId, userId } = c.req.valid("param");
    const app = String((await requireApp(c.env.DB, appId)).app_id);
    return c.json(await readUserState(c.env, app, userId, c.get("now")), 200);
  },
)
  .openapi(
    createRoute({
      method: "post", path: ban, tags: banTags, security,
      summary: "Ban a player (or change a ban's reason and expiry)",
      description:
        "While banned the player's access tokens are refused on every path (403 naming the reason and the expiry), no token is minted for them, " +
        "their events are refused whatever credential sends them, and the broker refuses their MQTT topics and drops their subscriptions. " +
        "Their scores are kept but hidden from every leaderboard (ranks behind close up) until the ban ends: lifted (at once) or expired " +
        "(their own requests see the expiry at once, boards within a minute). Tokens minted before the ban work again after it.",
      request: { params: UserParams, ...jsonBody(BanInput) },
      responses: { 200: jsonResponse(Ban, "The ban in force"), ...errorResponses },
    }),
    async (c) => {
      const { appId, userId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const input = c.req.valid("json");
      const now = c.get("now");
      const expiresAt = input.expires_at == null ? null : Date.parse(input.expires_at);
      if (expiresAt !== null && expiresAt <= now) {
        throw badRequest("Invalid body: expires_at must be in the future", [{ field: "expires_at", problem: "must be in the future" }]);
      }
      const row = await banPlayer(c.env, app.app_id, userId, { reason: input.reason, expiresAt }, now);
      return c.json(presentBan(row), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: ban, tags: banTags, security, summary: "A player's ban",
      request: { params: UserParams },
      responses: { 200: jsonResponse(Ban, "The ban in force"), ...errorResponses },
    }),
    async (c) => {
      const { appId, userId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const row = await readBan(c.env.DB, app.app_id, userId);
      if (!row || !isInForce(banOf(row), c.get("now"))) throw notFound(`Player ${userId} is not banned`);
      return c.json(presentBan(row), 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete", path: ban, tags: banTags, security,
      summary: "Lift a player's ban",
      description: "At once: the player's tokens, events and topics work again, and their scores are back on every leaderboard.",
      request: { params: UserParams },
      responses: { 204: { description: "Lifted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, userId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      if (!(await liftBan(c.env, app.app_id, userId))) throw notFound(`Player ${userId} is not banned`);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/bans", tags: banTags, security, summary: "List the bans in force, newest first",
      request: { params: z.object({ appId: pathId("appId") }), query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(Ban), "A page of bans"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listBans(c.env.DB, app.app_id, c.get("now"), paging);
      return c.json({ items: rows.map(presentBan), ...paging, total }, 200);
    },
  );
