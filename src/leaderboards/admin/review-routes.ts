import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import type { ChangeSink } from "../../changes/types";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { acceptFlag, dismissFlag, listFlagged } from "../review";
import { requestActor } from "../../apps/actor";
import { AcceptedSubmission, FlaggedSubmission } from "./schemas";

const tags = ["Admin: leaderboards"];
const security = bearerSecurity.admin;
const flagged = "/api/v1/admin/apps/{appId}/leaderboards/{leaderboardId}/flagged";
const BoardParams = z.object({ appId: pathId("appId"), leaderboardId: pathId("leaderboardId") });
const FlagParams = BoardParams.extend({ flagId: pathId("flagId") });

/**
 * The review queue of a board: submissions held back by min_value / max_value or by
 * max_events_per_minute. Accepting applies a value, which changes the board, so the wiring gives
 * these routes the fan-out of leaderboard changes (`sinkOf`), as it gives the queue consumers.
 */
export const leaderboardReviewAdmin = (sinkOf: (env: Env) => ChangeSink) =>
  createRouter()
    .openapi(
      createRoute({
        operationId: "listFlaggedSubmissions",
        method: "get",
        path: flagged,
        tags,
        security,
        summary: "List the submissions the board held back for review",
        description: "Oldest first. Each was not applied: accept it to apply its value, or dismiss it.",
        request: { params: BoardParams, query: PagingQuery },
        responses: { 200: jsonResponse(pageOf(FlaggedSubmission), "A page of held submissions"), ...errorResponses },
      }),
      async (c) => {
        const { appId, leaderboardId } = c.req.valid("param");
        const app = await requireApp(c.env.DB, appId);
        return c.json(await listFlagged(c.env.DB, String(app.app_id), leaderboardId, c.req.valid("query")), 200);
      },
    )
    .openapi(
      createRoute({
        operationId: "acceptFlaggedSubmission",
        method: "post",
        path: `${flagged}/{flagId}/accept`,
        tags,
        security,
        summary: "Accept a held submission: apply its value",
        description:
          "Applies the value as if its event had just arrived (the board's aggregation, the current season) and removes it from the queue. " +
          "Accepting the same flag twice applies it once (the second answers 404).",
        request: { params: FlagParams },
        responses: {
          200: jsonResponse(AcceptedSubmission, "The applied submission, and the member's standing now"),
          ...errorResponses,
        },
      }),
      async (c) => {
        const { appId, leaderboardId, flagId } = c.req.valid("param");
        const app = await requireApp(c.env.DB, appId);
        const accepted = await acceptFlag(
          c.env.DB,
          String(app.app_id),
          leaderboardId,
          flagId,
          c.get("now"),
          sinkOf(c.env),
          requestActor(c),
        );
        return c.json(accepted, 200);
      },
    )
    .openapi(
      createRoute({
        operationId: "dismissFlaggedSubmission",
        method: "post",
        path: `${flagged}/{flagId}/dismiss`,
        tags,
        security,
        summary: "Dismiss a held submission: it never counts",
        request: { params: FlagParams },
        responses: { 204: { description: "Dismissed" }, ...errorResponses },
      }),
      async (c) => {
        const { appId, leaderboardId, flagId } = c.req.valid("param");
        const app = await requireApp(c.env.DB, appId);
        await dismissFlag(c.env.DB, String(app.app_id), leaderboardId, flagId, requestActor(c));
        return c.body(null, 204);
      },
    );
