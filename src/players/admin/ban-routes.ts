import { createRoute, z } from "@hono/zod-openapi";
import { requestActor } from "../../apps/actor";
import { requireApp } from "../../apps/repo";
import { isInForce, banOf, listBans, presentBan, readBan } from "../../auth/bans";
import { invalid, notFound } from "../../shared/domain-errors";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { banPlayer, liftBan } from "../bans";
import { Ban, BanInput, UserParams } from "./schemas";

const ban = "/api/v1/admin/apps/{appId}/users/{userId}/ban";
const tags = ["Admin: bans"];
const security = bearerSecurity.admin;

/** Bans of players: ban, read, lift, list (src/players/bans.ts carries them across areas). */
export const bansAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "banUser",
      method: "post",
      path: ban,
      tags,
      security,
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
        throw invalid("Invalid body: expires_at must be in the future", [
          { field: "expires_at", problem: "must be in the future" },
        ]);
      }
      const row = await banPlayer(c.env, app.app_id, userId, { reason: input.reason, expiresAt }, now, requestActor(c));
      return c.json(presentBan(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getUserBan",
      method: "get",
      path: ban,
      tags,
      security,
      summary: "A player's ban",
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
      operationId: "liftUserBan",
      method: "delete",
      path: ban,
      tags,
      security,
      summary: "Lift a player's ban",
      description:
        "At once: the player's tokens, events and topics work again, and their scores are back on every leaderboard.",
      request: { params: UserParams },
      responses: { 204: { description: "Lifted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, userId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      if (!(await liftBan(c.env, app.app_id, userId, requestActor(c))))
        throw notFound(`Player ${userId} is not banned`);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "listBans",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/bans",
      tags,
      security,
      summary: "List the bans in force, newest first",
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
