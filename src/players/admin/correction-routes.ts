import { createRoute, z } from "@hono/zod-openapi";
import { requestActor } from "../../apps/actor";
import { requireApp } from "../../apps/repo";
import { createRouter } from "../../shared/http";
import { bearerSecurity, conflictResponse, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { applyCorrection } from "../corrections";
import { CORRECTIONS, memberTarget, playerTarget } from "../correction-list";
import {
  BattlePassChallengeCorrectionInput,
  BattlePassCorrectionInput,
  ChallengeCorrectionInput,
  CorrectionAnswer,
  ScoreCorrectionInput,
} from "./correction-schemas";
import { UserParams } from "./schemas";

const tags = ["Admin: corrections"];
const security = bearerSecurity.admin;
const user = "/api/v1/admin/apps/{appId}/users/{userId}";
const refused = conflictResponse;
const common =
  "Needs a reason. Written to the audit log with the state before and after and the reason; sends the webhooks and MQTT messages the change " +
  "would have sent had the player caused it. ";

/** Corrections of a player's progress (src/players/corrections.ts), each a PUT of the state it sets. */
/** A leaderboard member's type in the path. */
const MemberTypeParam = z
  .enum(["user", "team"])
  .openapi({ param: { name: "memberType", in: "path" }, example: "user" });

export const correctionsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "correctUserChallenge",
      method: "put",
      path: `${user}/challenges/{challengeId}`,
      tags,
      security,
      summary: "Correct a player's challenge: set its counter, complete it or put it back",
      description:
        common +
        "`counter` (0..goal) sets the counter of an in-progress challenge (reaching the goal completes it, as an event would); " +
        "`state: unclaimed` completes an in-progress challenge (an automatic one is claimed by the service, finished); " +
        "`state: unlocked` puts the challenge back to unlocked with its counter at 0. Any other state answers 409 saying why.",
      request: {
        params: UserParams.extend({ challengeId: pathId("challengeId") }),
        ...jsonBody(ChallengeCorrectionInput),
      },
      responses: { 200: jsonResponse(CorrectionAnswer, "The correction made"), ...errorResponses, ...refused },
    }),
    async (c) => {
      const { appId, userId, challengeId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const { counter, state, reason } = c.req.valid("json");
      const input = {
        challengeId,
        ...(counter !== undefined ? { counter } : {}),
        ...(state !== undefined ? { state } : {}),
        reason,
      };
      return c.json(
        await applyCorrection(
          c.env,
          CORRECTIONS.challenge,
          playerTarget(app.app_id, userId),
          input,
          c.get("now"),
          requestActor(c),
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "correctUserBattlePass",
      method: "put",
      path: `${user}/battle-passes/{battlePassId}`,
      tags,
      security,
      summary: "Unlock a battle pass for a player",
      description:
        common +
        "`state: unlocked` unlocks the pass as the player's purchase would (price 0): its first level activates. 409 when it is unlocked already, switched off or ended.",
      request: {
        params: UserParams.extend({ battlePassId: pathId("battlePassId") }),
        ...jsonBody(BattlePassCorrectionInput),
      },
      responses: { 200: jsonResponse(CorrectionAnswer, "The correction made"), ...errorResponses, ...refused },
    }),
    async (c) => {
      const { appId, userId, battlePassId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const { reason } = c.req.valid("json");
      return c.json(
        await applyCorrection(
          c.env,
          CORRECTIONS.battlePassUnlock,
          playerTarget(app.app_id, userId),
          { battlePassId, reason },
          c.get("now"),
          requestActor(c),
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "correctUserBattlePassChallenge",
      method: "put",
      path: `${user}/battle-passes/{battlePassId}/challenges/{challengeId}`,
      tags,
      security,
      summary: "Correct a player's battle-pass level challenge: set its counter or complete it",
      description:
        common +
        "`counter` (0..goal) sets the counter of an in-progress level challenge (reaching the goal completes it); `state: unclaimed` completes it. " +
        "Its level completes with its last challenge, and in an incremental pass the next level activates. A pass not unlocked, a level not active or a challenge already done answers 409.",
      request: {
        params: UserParams.extend({ battlePassId: pathId("battlePassId"), challengeId: pathId("challengeId") }),
        ...jsonBody(BattlePassChallengeCorrectionInput),
      },
      responses: { 200: jsonResponse(CorrectionAnswer, "The correction made"), ...errorResponses, ...refused },
    }),
    async (c) => {
      const { appId, userId, battlePassId, challengeId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const { counter, state, reason } = c.req.valid("json");
      const input = {
        battlePassId,
        challengeId,
        ...(counter !== undefined ? { counter } : {}),
        ...(state === "unclaimed" ? { complete: true } : {}),
        reason,
      };
      return c.json(
        await applyCorrection(
          c.env,
          CORRECTIONS.battlePassLevelChallenge,
          playerTarget(app.app_id, userId),
          input,
          c.get("now"),
          requestActor(c),
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "correctLeaderboardScore",
      method: "put",
      path: "/api/v1/admin/apps/{appId}/leaderboards/{leaderboardId}/members/{memberType}/{memberId}",
      tags,
      security,
      summary: "Correct a member's score on a leaderboard",
      description:
        common +
        "Sets the member's score in the current season, whatever the board's aggregation; the ranks move at once. A banned player's score is set on their hidden entry.",
      request: {
        params: z.object({
          appId: pathId("appId"),
          leaderboardId: pathId("leaderboardId"),
          memberType: MemberTypeParam,
          memberId: z
            .string()
            .min(1)
            .max(256)
            .openapi({ param: { name: "memberId", in: "path" }, example: "player-42" }),
        }),
        ...jsonBody(ScoreCorrectionInput),
      },
      responses: { 200: jsonResponse(CorrectionAnswer, "The correction made"), ...errorResponses },
    }),
    async (c) => {
      const { appId, leaderboardId, memberType, memberId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const { score, reason } = c.req.valid("json");
      const target = memberTarget(app.app_id, memberType, memberId);
      return c.json(
        await applyCorrection(
          c.env,
          CORRECTIONS.leaderboardScore,
          target,
          { leaderboardId, memberType, score, reason },
          c.get("now"),
          requestActor(c),
        ),
        200,
      );
    },
  );
