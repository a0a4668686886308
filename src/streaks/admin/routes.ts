import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { requestActor } from "../../apps/actor";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import {
  bearerSecurity,
  conflictResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  keyConflictResponse,
  pathId,
} from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import { requireRewardSystems } from "../../apps/points-rewards";
import { deleteStreak, insertStreak, listStreaks, presentStreakRow, requireStreak, updateStreak } from "./repo";
import { StreakAdmin, StreakInput } from "./schemas";
import { correctStreak } from "../corrections";
import { StreakCorrectionAnswer, StreakFreezesGrantInput, StreakRestoreInput } from "../schemas";

const tags = ["Admin: streaks"];
const security = bearerSecurity.admin;
const streaks = "/api/v1/admin/apps/{appId}/streaks";
const AppParams = z.object({ appId: pathId("appId") });
const StreakParams = AppParams.extend({ streakId: pathId("streakId") });
const PlayerStreakParams = StreakParams.extend({
  userId: z
    .string()
    .min(1)
    .max(256)
    .openapi({ param: { name: "userId", in: "path" }, example: "player-42" }),
});
const playerStreak = "/api/v1/admin/apps/{appId}/users/{userId}/streaks/{streakId}";

const EXAMPLE = {
  key: "daily-practice",
  name: { en: "Daily practice", de: "Tägliches Üben" },
  period: "daily",
  event_name: "lesson-completed",
  min_count: 1,
  reset_at_time: "00:00:00",
  time_zone: "Europe/Berlin",
  freezes: { initial: 1, earn_every: 7, max: 2 },
  milestones: [{ length: 7, points_rewards: [{ system: "xp", amount: 100 }] }, { length: 30 }],
};

/** 400 naming the reward when a milestone's reward names a points system the app does not have. */
async function requireMilestoneSystems(
  db: D1Database,
  appId: number,
  milestones: { points_rewards: { system: string; amount: number }[] }[],
): Promise<void> {
  for (const [i, milestone] of milestones.entries()) {
    await requireRewardSystems(db, appId, milestone.points_rewards, `milestones.${i}.points_rewards`);
  }
}

export const streaksAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createStreak",
      method: "post",
      path: streaks,
      tags,
      security,
      summary: "Create a streak (a daily or weekly habit)",
      description:
        "Players' streak states live in their objects. Periods follow each player's time zone, else `time_zone`. 409 when the key is taken in the app.",
      request: {
        params: AppParams,
        ...jsonBody(StreakInput, "The streak", { daily: { summary: "A daily streak with freezes", value: EXAMPLE } }),
      },
      responses: { 201: jsonResponse(StreakAdmin, "The new streak"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      await requireMilestoneSystems(c.env.DB, app.app_id, c.req.valid("json").milestones);
      const row = await insertStreak(c.env.DB, app.app_id, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentStreakRow(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listStreaks",
      method: "get",
      path: streaks,
      tags,
      security,
      summary: "List streaks",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(StreakAdmin), "A page of streaks"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listStreaks(c.env.DB, app.app_id, paging.pageSize, pageOffset(paging));
      return c.json({ items: rows.map(presentStreakRow), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getStreak",
      method: "get",
      path: `${streaks}/{streakId}`,
      tags,
      security,
      summary: "Get a streak",
      request: { params: StreakParams },
      responses: { 200: jsonResponse(StreakAdmin, "The streak"), ...errorResponses },
    }),
    async (c) => {
      const { appId, streakId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentStreakRow(await requireStreak(c.env.DB, app.app_id, streakId)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceStreak",
      method: "put",
      path: `${streaks}/{streakId}`,
      tags,
      security,
      summary: "Replace a streak",
      description:
        "Applies from now on: players' lengths and freezes stay; the current periods keep their ends, the next ones follow the new rules.",
      request: { params: StreakParams, ...jsonBody(StreakInput) },
      responses: { 200: jsonResponse(StreakAdmin, "The streak"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const { appId, streakId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const current = await requireStreak(c.env.DB, app.app_id, streakId);
      await requireMilestoneSystems(c.env.DB, current.app_id, c.req.valid("json").milestones);
      const row = await updateStreak(c.env.DB, current, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentStreakRow(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteStreak",
      method: "delete",
      path: `${streaks}/{streakId}`,
      tags,
      security,
      summary: "Delete a streak",
      description: "Nothing counts for it any more and its pending decisions are dropped at the players' next alarm.",
      request: { params: StreakParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, streakId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await deleteStreak(c.env.DB, await requireStreak(c.env.DB, app.app_id, streakId), requestActor(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "restoreUserStreak",
      method: "post",
      path: `${playerStreak}/restore`,
      tags: ["Admin: corrections"],
      security,
      summary: "Restore a player's lost streak",
      description:
        "Back to the length lost last, when it was lost within the last 7 periods; a run started since then is added (`lost_length + length`). " +
        "A correction: needs a reason and is written to the audit log (`correct-streak-restore`). 409 when there is nothing to restore.",
      request: { params: PlayerStreakParams, ...jsonBody(StreakRestoreInput) },
      responses: {
        200: jsonResponse(StreakCorrectionAnswer, "The streak before and after"),
        ...errorResponses,
        ...conflictResponse,
      },
    }),
    async (c) => {
      const { appId, userId, streakId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const answer = await correctStreak(
        c.env,
        "streak-restore",
        { appId: String(app.app_id), userId, streakId },
        c.req.valid("json"),
        c.get("now"),
        requestActor(c),
      );
      return c.json(answer as z.infer<typeof StreakCorrectionAnswer>, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "grantUserStreakFreezes",
      method: "post",
      path: `${playerStreak}/freezes`,
      tags: ["Admin: corrections"],
      security,
      summary: "Grant a player freezes of a streak",
      description:
        "Adds `amount` freezes, capped by the streak's freezes.max. A correction: needs a reason and is written to the audit log (`correct-streak-freezes`).",
      request: { params: PlayerStreakParams, ...jsonBody(StreakFreezesGrantInput) },
      responses: { 200: jsonResponse(StreakCorrectionAnswer, "The streak before and after"), ...errorResponses },
    }),
    async (c) => {
      const { appId, userId, streakId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const answer = await correctStreak(
        c.env,
        "streak-freezes",
        { appId: String(app.app_id), userId, streakId },
        c.req.valid("json"),
        c.get("now"),
        requestActor(c),
      );
      return c.json(answer as z.infer<typeof StreakCorrectionAnswer>, 200);
    },
  );
