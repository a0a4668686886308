import { createRoute, z } from "@hono/zod-openapi";
import { requestActor } from "../../apps/actor";
import { requireApp } from "../../apps/repo";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { readErasure, requestErasure } from "../erasure";
import { exportPlayer } from "../export";
import { readUserState } from "./state";
import { listPlayers, presentPlayer } from "../registry";
import { pageOf } from "../../shared/paging";
import {
  AdminPlayer,
  AdminUserState,
  ErasureReceipt,
  PlayerExport,
  PlayersQuery,
  unavailable,
  UserParams,
} from "./schemas";

const tags = ["Admin: users"];
const security = bearerSecurity.admin;

/**
 * One player, for support and for their rights: the read-only state view, the export, and erasure with its receipts.
 */
export const usersAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "listUsers",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/users",
      tags,
      security,
      summary: "List the players the app has seen, paged and searchable",
      description:
        "Every player with an event, an access token or stored user info, newest activity first by default. `search` matches a prefix of the user id " +
        "or a part of the username of players who stored user info. A player's events move `last_seen_at` and `events` at most once an hour.",
      request: { params: z.object({ appId: pathId("appId") }), query: PlayersQuery },
      responses: { 200: jsonResponse(pageOf(AdminPlayer), "A page of players"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const query = c.req.valid("query");
      const { rows, total } = await listPlayers(c.env.DB, app.app_id, c.get("now"), query);
      return c.json(
        { items: rows.map(presentPlayer), currentPage: query.currentPage, pageSize: query.pageSize, total },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getUserState",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/users/{userId}",
      tags,
      security,
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
      operationId: "exportUser",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/users/{userId}/export",
      tags,
      security,
      summary: "Everything held about one player, as one JSON document (right of access)",
      description:
        "The admin user view, user info, leaderboard entries in every stored season, recent events, logged webhook deliveries that name " +
        "the player and the audit entries about them, and how the raw event archive names them. No credential: webhook payloads lose their user_token. " +
        "The export itself is recorded in the audit log.",
      request: { params: UserParams },
      responses: { 200: jsonResponse(PlayerExport, "The player's data"), ...errorResponses },
    }),
    async (c) => {
      const { appId, userId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(await exportPlayer(c.env, app, userId, c.get("now"), requestActor(c)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "adminEraseUser",
      method: "delete",
      path: "/api/v1/admin/apps/{appId}/users/{userId}",
      tags,
      security,
      summary: "Erase one player (right to erasure): answers a receipt at once, completes within seconds",
      description:
        "Removes every row about the player: their object (all progress, processed-event ids, recent events, pending notifications), " +
        "leaderboard entries, user info, webhook deliveries that name them (pending ones are cancelled), MQTT subscriptions of their topics; " +
        "their archived raw events become unlinkable. Access tokens minted before the erasure are refused from then on; a new token starts a new player. " +
        "Poll GET .../erasures/{erasureId}; `user-erased` webhooks are notified on completion. Erasing again is harmless.",
      request: { params: UserParams },
      responses: {
        202: jsonResponse(ErasureReceipt, "The receipt: status pending"),
        ...errorResponses,
        ...unavailable,
      },
    }),
    async (c) => {
      const { appId, userId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(await requestErasure(c.env, app.app_id, userId, requestActor(c), c.get("now")), 202);
    },
  )
  .openapi(
    createRoute({
      operationId: "adminGetErasure",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/erasures/{erasureId}",
      tags,
      security,
      summary: "The receipt of an erasure: pending, running, completed or failed",
      request: { params: z.object({ appId: pathId("appId"), erasureId: pathId("erasureId") }) },
      responses: { 200: jsonResponse(ErasureReceipt, "The receipt"), ...errorResponses },
    }),
    async (c) => {
      const { appId, erasureId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(await readErasure(c.env.DB, app.app_id, erasureId), 200);
    },
  );
