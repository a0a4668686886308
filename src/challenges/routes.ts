import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, callerUser, requireAccessToken, requireApiKey, requireSigningKeys } from "../auth/middleware";
import { notFound, DomainError } from "../shared/domain-errors";
import { createRouter, jsonText, type AppEnv } from "../shared/http";
import {
  StatusMessageSchema,
  aliasOf,
  bearerSecurity,
  conflictResponse,
  errorResponses,
  jsonResponse,
  pathId,
  signingKeysResponse,
} from "../shared/openapi";
import { userChallenges } from "./user-challenges";
import { ChallengeCategorySchema, ChallengeEnvelope, ChallengeSchema } from "./schemas";
import type { ChallengeAction, ListFilter } from "./user-challenges";

/**
 * The player endpoints of personal challenges: the spec's methods and paths and SCILL's (POST
 * unlock; PUT activate, cancel and claim; `personal/get/...`; POST reset), served by the same
 * handlers. Everything per user runs in that user's Durable Object.
 */

type Ctx = Context<AppEnv>;
const tags = ["Challenges"];
const prefix = "/api/v1/challenges/personal";

const Language = z
  .string()
  .max(20)
  .optional()
  .openapi({ description: "Language code such as en or de; default: the app's language" });
/** SCILL sends lists as comma-separated values (`style: form, explode: false`). */
const CategoryList = z.string().max(2000).optional().openapi({ description: "Comma-separated category slugs or ids" });
const ListQuery = z.object({ language: Language, include_categories: CategoryList, exclude_categories: CategoryList });
const LanguageQuery = z.object({ language: Language });
const csv = (value: string | undefined) =>
  value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const AppParams = z.object({ appId: pathId("appId") });
const ChallengeParams = AppParams.extend({ challengeId: pathId("challengeId") });

/** requireAccessToken guarantees a user. */
const tokenUser = (c: Ctx) => callerUser(c)!;

const Categories = z.array(ChallengeCategorySchema);
const categoriesResponse = jsonResponse(
  Categories,
  "Categories ordered by category_position, with the user's challenges",
);

function listRoute(operationId: string, path: string, filter: ListFilter, summary: string) {
  return [
    createRoute({
      operationId,
      method: "get",
      path,
      tags,
      summary,
      security: bearerSecurity.accessToken,
      middleware: [requireAccessToken] as const,
      request: { params: AppParams, query: ListQuery },
      responses: { 200: categoriesResponse, ...errorResponses },
    }),
    async (c: Ctx) => {
      const appId = callerApp(c, c.req.param("appId"));
      const query = c.req.query();
      const userId = tokenUser(c);
      const categories = await userChallenges(c.env, appId, userId).list(appId, userId, c.get("now"), {
        filter,
        language: query.language,
        include: csv(query.include_categories),
        exclude: csv(query.exclude_categories),
      });
      // Already JSON (the user's object writes the text: src/challenges/list-json.ts).
      return jsonText<z.infer<typeof Categories>>(categories);
    },
  ] as const;
}

const envelopeResponse = jsonResponse(
  ChallengeEnvelope,
  "{status: 200, message: 'OK', challenge}: the challenge after the action",
);

/** `alias`: another method of the same action, `x-alias-of` SCILL's operation. */
function actionRoute(
  operationId: string,
  method: "get" | "post" | "put" | "delete",
  verb: string,
  action: ChallengeAction,
  summary: string,
  alias?: string,
) {
  return [
    createRoute({
      operationId,
      ...aliasOf(alias),
      method,
      path: `${prefix}/${verb}/{appId}/{challengeId}`,
      tags,
      summary,
      security: bearerSecurity.accessToken,
      middleware: [requireAccessToken] as const,
      request: { params: ChallengeParams, query: LanguageQuery },
      responses: { 200: envelopeResponse, ...errorResponses, ...conflictResponse },
    }),
    async (c: Ctx) => {
      const appId = callerApp(c, c.req.param("appId"));
      const userId = tokenUser(c);
      const result = await userChallenges(c.env, appId, userId).act(
        appId,
        userId,
        c.get("now"),
        action,
        c.req.param("challengeId")!,
        c.req.query("language"),
      );
      if (!result.ok) throw new DomainError(result.kind, result.message);
      return c.json({ status: 200, message: "OK", challenge: result.challenge }, 200);
    },
  ] as const;
}

function resetRoute(operationId: string, method: "delete" | "post", alias?: string) {
  return [
    createRoute({
      operationId,
      ...aliasOf(alias),
      method,
      path: "/api/v1/reset-challenges/{appId}/{userId}",
      tags,
      security: bearerSecurity.apiKey,
      summary: "Reset all challenges of one user in the app (API key)",
      middleware: [requireApiKey, requireSigningKeys] as const,
      request: {
        params: AppParams.extend({
          userId: z
            .string()
            .min(1)
            .max(256)
            .openapi({ param: { name: "userId", in: "path" } }),
        }),
      },
      responses: {
        200: jsonResponse(StatusMessageSchema, "{status: 200, message: 'OK'}"),
        ...errorResponses,
        ...signingKeysResponse,
      },
    }),
    async (c: Ctx) => {
      const appId = callerApp(c, c.req.param("appId"));
      const userId = c.req.param("userId")!;
      await userChallenges(c.env, appId, userId).reset(appId, userId, c.get("now"));
      return c.json({ status: 200, message: "OK" }, 200);
    },
  ] as const;
}

const getOne = [
  createRoute({
    operationId: "getPersonalChallengeById",
    method: "get",
    path: `${prefix}/get/{appId}/{challengeId}`,
    tags,
    security: bearerSecurity.accessToken,
    summary: "Get one of the user's challenges (SCILL getPersonalChallengeById)",
    middleware: [requireAccessToken] as const,
    request: { params: ChallengeParams, query: LanguageQuery },
    responses: { 200: jsonResponse(ChallengeSchema, "The challenge"), ...errorResponses },
  }),
  async (c: Ctx) => {
    const appId = callerApp(c, c.req.param("appId"));
    const userId = tokenUser(c);
    const challengeId = c.req.param("challengeId")!;
    const challenge = await userChallenges(c.env, appId, userId).get(
      appId,
      userId,
      c.get("now"),
      challengeId,
      c.req.query("language"),
    );
    if (!challenge) throw notFound(`Challenge ${challengeId} not found`);
    return c.json(challenge, 200);
  },
] as const;

export const challengeRoutes = createRouter()
  .openapi(
    ...listRoute(
      "getAllPersonalChallenges",
      `${prefix}/all/{appId}`,
      "all",
      "All of the user's challenges, finished ones included",
    ),
  )
  .openapi(
    ...listRoute(
      "getUnresolvedPersonalChallenges",
      `${prefix}/unresolved/{appId}`,
      "unresolved",
      "The user's challenges that are not finished",
    ),
  )
  .openapi(
    ...listRoute(
      "getPersonalChallenges",
      `${prefix}/get/{appId}`,
      "unresolved",
      "The user's challenges that are not finished (SCILL getPersonalChallenges)",
    ),
  )
  .openapi(
    ...listRoute(
      "getActivePersonalChallenges",
      `${prefix}/get-in-progress-challenges/{appId}`,
      "in-progress",
      "The user's challenges in progress",
    ),
  )
  .openapi(...getOne)
  .openapi(
    ...actionRoute(
      "unlockPersonalChallengeViaGet",
      "get",
      "unlock",
      "unlock",
      "Unlock a challenge",
      "unlockPersonalChallenge",
    ),
  )
  .openapi(...actionRoute("unlockPersonalChallenge", "post", "unlock", "unlock", "Unlock a challenge (SCILL method)"))
  .openapi(
    ...actionRoute(
      "activatePersonalChallengeViaGet",
      "get",
      "activate",
      "activate",
      "Activate an unlocked challenge; cid is the challenge_id or the user_challenge_id",
      "activatePersonalChallenge",
    ),
  )
  .openapi(
    ...actionRoute(
      "activatePersonalChallenge",
      "put",
      "activate",
      "activate",
      "Activate an unlocked challenge (SCILL method)",
    ),
  )
  .openapi(
    ...actionRoute(
      "cancelPersonalChallengeViaDelete",
      "delete",
      "cancel",
      "cancel",
      "Cancel a challenge in progress",
      "cancelPersonalChallenge",
    ),
  )
  .openapi(
    ...actionRoute(
      "cancelPersonalChallenge",
      "put",
      "cancel",
      "cancel",
      "Cancel a challenge in progress (SCILL method)",
    ),
  )
  .openapi(
    ...actionRoute(
      "claimPersonalChallengeRewardViaGet",
      "get",
      "claim",
      "claim",
      "Claim the reward of an unclaimed challenge",
      "claimPersonalChallengeReward",
    ),
  )
  .openapi(
    ...actionRoute(
      "claimPersonalChallengeReward",
      "put",
      "claim",
      "claim",
      "Claim the reward of an unclaimed challenge (SCILL method)",
    ),
  )
  .openapi(...resetRoute("resetUserAppChallengesViaDelete", "delete", "resetUserAppChallenges"))
  .openapi(...resetRoute("resetUserAppChallenges", "post"));
