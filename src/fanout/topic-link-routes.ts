import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter, type AppEnv } from "../shared/http";
import { bearerSecurity, errorResponses, jsonResponse } from "../shared/openapi";
import { callerApp, callerUser, requireAccessToken, requireTokenOrKey } from "../auth/middleware";
import { DigitsId } from "../shared/schemas";
import { notFound } from "../shared/domain-errors";
import { topicSecret } from "../shared/secrets";
import { objectExists, PLAYER_TOPIC_LINKS } from "../registry/areas";
import { topicName, type RealtimeTopicRef } from "../realtime/channel";

const NotificationTopic = z
  .object({
    topic: z.string().openapi({ example: "gamification/challenges/3ea785c6d0ce23e67beff0a1b2c3d4e5f6a7b8c9d0e1f2a3" }),
  })
  .openapi("NotificationTopic");

/** An id in the query; one that is not in the caller's app answers 404, as on every other path. */
const queryId = <N extends string>(name: N) => {
  const id = DigitsId.openapi({ param: { name, in: "query", required: true }, example: "1" });
  return z.object({ [name]: id } as Record<N, typeof id>);
};

const tags = ["Realtime"];
const description =
  "Subscribe to the topic over MQTT 3.1.1 or 5 on WebSocket at `wss://<this host>/mqtt` (subprotocol `mqtt`; " +
  "`npm run mqtt:bridge` offers plain TCP on port 1883 for a local run). Each message is the JSON of the change, " +
  "as the matching webhook carries it; on a leaderboard topic `webhook_type` is SCILL's `leaderboard-ranking-changed` " +
  "(the webhook keeps `leaderoard-updated`). An id that is not in the credential's app answers 404. " +
  "Topics are capabilities: the broker refuses any topic it did not hand out.";
const answer = { 200: jsonResponse(NotificationTopic, "The MQTT topic to subscribe to"), ...errorResponses };

const SocketToken = z.object({ socket_token: z.string() }).openapi("SocketToken");

/** `ref` gets the caller's app and, with an access token, its user. */
async function topicOf(c: Context<AppEnv>, ref: (appId: string, userId: string) => RealtimeTopicRef) {
  return c.json({ topic: await topicName(c.env, ref(callerApp(c), callerUser(c)!)) }, 200);
}

/**
 * The endpoints that hand out MQTT topics (the capabilities a client subscribes with). They sit
 * above the areas because a link checks that the challenge, pass or board exists in the caller's app.
 */
export const realtimeRoutes = createRouter();
// A service without its topic secret answers that first: no link could be made, whatever the ids.
const LINK_KINDS = ["user-challenges", "user-challenge", "user-battle-pass", "leaderboard", "user-notifications"];
for (const kind of [...LINK_KINDS, ...PLAYER_TOPIC_LINKS.map(([k]) => k)]) {
  realtimeRoutes.use(`/api/v1/auth/${kind}-topic-link`, async (c, next) => {
    topicSecret(c.env);
    await next();
  });
}
realtimeRoutes
  .openapi(
    createRoute({
      operationId: "getUserChallengesNotificationTopic",
      method: "get",
      path: "/api/v1/auth/user-challenges-topic-link",
      tags,
      description,
      security: bearerSecurity.accessToken,
      summary: "The MQTT topic on which every change of the token user's challenges is pushed",
      middleware: [requireAccessToken] as const,
      responses: answer,
    }),
    (c) => topicOf(c, (appId, userId) => ({ kind: "user-challenges", appId, userId })),
  )
  .openapi(
    createRoute({
      operationId: "getUserNotificationsTopic",
      method: "get",
      path: "/api/v1/auth/user-notifications-topic-link",
      tags,
      description:
        description +
        " This topic (beyond SCILL) carries the changes of the token user's live-ops areas (points...), each message with its " +
        "`webhook_type` (`points-changed`...); SCILL's own topics never carry them.",
      security: bearerSecurity.accessToken,
      summary: "The MQTT topic on which the token user's points (and other live-ops) changes are pushed",
      middleware: [requireAccessToken] as const,
      responses: answer,
    }),
    (c) => topicOf(c, (appId, userId) => ({ kind: "user-notifications", appId, userId })),
  )
  .openapi(
    createRoute({
      operationId: "getUserChallengeNotificationTopic",
      method: "get",
      path: "/api/v1/auth/user-challenge-topic-link",
      tags,
      description,
      security: bearerSecurity.accessToken,
      summary: "The MQTT topic on which changes of one challenge of the token user are pushed (SCILL)",
      middleware: [requireAccessToken] as const,
      request: { query: queryId("challenge_id") },
      responses: answer,
    }),
    async (c) => {
      const challengeId = c.req.valid("query").challenge_id;
      if (!(await objectExists("challenge")(c.env, callerApp(c), challengeId)))
        throw notFound(`Challenge ${challengeId} not found`);
      return topicOf(c, (appId, userId) => ({ kind: "user-challenge", appId, userId, challengeId }));
    },
  )
  .openapi(
    createRoute({
      operationId: "getUserBattlePassNotificationTopic",
      method: "get",
      path: "/api/v1/auth/user-battle-pass-topic-link",
      tags,
      description,
      security: bearerSecurity.accessToken,
      summary: "The MQTT topic on which changes of the token user's progress in one battle pass are pushed (SCILL)",
      middleware: [requireAccessToken] as const,
      request: { query: queryId("battle_pass_id") },
      responses: answer,
    }),
    async (c) => {
      const battlePassId = c.req.valid("query").battle_pass_id;
      if (!(await objectExists("battle-pass")(c.env, callerApp(c), battlePassId)))
        throw notFound(`Battle pass ${battlePassId} not found`);
      return topicOf(c, (appId, userId) => ({ kind: "user-battle-pass", appId, userId, battlePassId }));
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeaderboardNotificationTopic",
      method: "get",
      path: "/api/v1/auth/leaderboard-topic-link",
      tags,
      description,
      security: bearerSecurity.tokenOrKey,
      summary: "The MQTT topic on which changes of one leaderboard are pushed (SCILL)",
      middleware: [requireTokenOrKey] as const,
      request: { query: queryId("leaderboard_id") },
      responses: answer,
    }),
    async (c) => {
      const leaderboardId = c.req.valid("query").leaderboard_id;
      if (!(await objectExists("leaderboard")(c.env, callerApp(c), leaderboardId)))
        throw notFound(`Leaderboard ${leaderboardId} not found`);
      return topicOf(c, (appId) => ({ kind: "leaderboard", appId, leaderboardId }));
    },
  )
  .openapi(
    createRoute({
      operationId: "generateWebsocketAccessToken",
      method: "get",
      path: "/api/v1/challenges/web-socket/generate-token",
      tags,
      security: bearerSecurity.accessToken,
      deprecated: true,
      summary:
        "SCILL's deprecated websocket token: the token user's challenge topic, for clients that still ask for it",
      description,
      middleware: [requireAccessToken] as const,
      responses: { 200: jsonResponse(SocketToken, "The user's challenge topic as socket_token"), ...errorResponses },
    }),
    async (c) => {
      const ref = { kind: "user-challenges" as const, appId: callerApp(c), userId: callerUser(c)! };
      return c.json({ socket_token: await topicName(c.env, ref) }, 200);
    },
  );

// The areas' own topic links: a topic of one of their objects as the token's player sees it.
for (const [kind, link] of PLAYER_TOPIC_LINKS) {
  realtimeRoutes.openapi(
    createRoute({
      operationId: link.operationId,
      method: "get",
      path: `/api/v1/auth/${kind}-topic-link`,
      tags,
      description: `${description} ${link.description}`,
      security: bearerSecurity.accessToken,
      summary: link.summary,
      middleware: [requireAccessToken] as const,
      request: { query: queryId(link.query) },
      responses: answer,
    }),
    async (c) => {
      const id = (c.req.valid("query") as Record<string, string>)[link.query];
      const ref = await link.ref(c.env, callerApp(c), callerUser(c)!, id, c.get("now"));
      if ("notFound" in ref) throw notFound(ref.notFound);
      return c.json({ topic: await topicName(c.env, ref) }, 200);
    },
  );
}
