import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import {
  bearerSecurity,
  errorResponses,
  jsonBody,
  jsonResponse,
  pathId,
  keyConflictResponse,
} from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import { deleteBoard, insertBoard, listBoards, presentBoardRow, requireBoard, updateBoard } from "./repo";
import { LeaderboardAdmin, LeaderboardInput } from "./schemas";
import { requestActor } from "../../apps/actor";
import { MemberTypeParam } from "../schemas";
import { removeEntry } from "../review";

const tags = ["Admin: leaderboards"];
const security = bearerSecurity.admin;
const boards = "/api/v1/admin/apps/{appId}/leaderboards";
const AppParams = z.object({ appId: pathId("appId") });
const BoardParams = AppParams.extend({ leaderboardId: pathId("leaderboardId") });
const EntryParams = BoardParams.extend({
  memberType: MemberTypeParam,
  memberId: z
    .string()
    .min(1)
    .max(256)
    .openapi({ param: { name: "memberId", in: "path" }, example: "player-42" }),
});

const present = presentBoardRow;

export const leaderboardsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createLeaderboard",
      method: "post",
      path: boards,
      tags,
      security,
      summary: "Create a leaderboard",
      description: "Scores come from events named event_name that pass every filter; the first season starts now.",
      request: {
        params: AppParams,
        ...jsonBody(LeaderboardInput, "The leaderboard", {
          weekly: {
            summary: "Kills per week, reset on Monday at midnight UTC",
            value: {
              key: "weekly-kills",
              name: "Weekly kills",
              event_name: "kill-enemy",
              period_range: "w",
              period_range_reset_at_time: "00:00:00",
              period_range_time_zone: "UTC",
            },
          },
        }),
      },
      responses: {
        201: jsonResponse(LeaderboardAdmin, "The new leaderboard"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const now = c.get("now");
      const row = await insertBoard(c.env.DB, app.app_id, c.req.valid("json"), now, toIso(now), requestActor(c));
      return c.json(present(row, now), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listLeaderboards",
      method: "get",
      path: boards,
      tags,
      security,
      summary: "List leaderboards",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(LeaderboardAdmin), "A page of leaderboards"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listBoards(c.env.DB, app.app_id, paging.pageSize, pageOffset(paging));
      return c.json({ items: rows.map((r) => present(r, c.get("now"))), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "adminGetLeaderboard",
      method: "get",
      path: `${boards}/{leaderboardId}`,
      tags,
      security,
      summary: "Get a leaderboard",
      request: { params: BoardParams },
      responses: { 200: jsonResponse(LeaderboardAdmin, "The leaderboard"), ...errorResponses },
    }),
    async (c) => {
      const { appId, leaderboardId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(present(await requireBoard(c.env.DB, app.app_id, leaderboardId), c.get("now")), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceLeaderboard",
      method: "put",
      path: `${boards}/{leaderboardId}`,
      tags,
      security,
      summary: "Replace a leaderboard",
      description:
        "A changed sort_order_ascending or reset schedule starts a new, empty season at once; other changes apply to events from now on and keep the scores.",
      request: { params: BoardParams, ...jsonBody(LeaderboardInput) },
      responses: {
        200: jsonResponse(LeaderboardAdmin, "The updated leaderboard"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const { appId, leaderboardId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const current = await requireBoard(c.env.DB, app.app_id, leaderboardId);
      const now = c.get("now");
      const row = await updateBoard(c.env.DB, current, c.req.valid("json"), now, toIso(now), requestActor(c));
      return c.json(present(row, now), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteLeaderboard",
      method: "delete",
      path: `${boards}/{leaderboardId}`,
      tags,
      security,
      summary: "Delete a leaderboard",
      description: "Its scores disappear at once from every read; the stored rows are removed in the background.",
      request: { params: BoardParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, leaderboardId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const board = await requireBoard(c.env.DB, app.app_id, leaderboardId);
      await deleteBoard(c.env.DB, board, c.get("now"), requestActor(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "removeLeaderboardMember",
      method: "delete",
      path: `${boards}/{leaderboardId}/members/{memberType}/{memberId}`,
      tags,
      security,
      summary: "Remove one member's entry from the leaderboard (moderation)",
      description:
        "Removes the member's scores from this board, in every season; everybody behind moves up at once. " +
        "It does not stop the member's next event from counting: ban the player for that. 404 when the member has no entry.",
      request: { params: EntryParams },
      responses: { 204: { description: "Removed" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, leaderboardId, memberType, memberId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await removeEntry(
        c.env.DB,
        String(app.app_id),
        leaderboardId,
        memberType,
        memberId,
        c.get("now"),
        requestActor(c),
      );
      return c.body(null, 204);
    },
  );
