import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, requireTokenOrKey } from "../auth/middleware";
import { appTrust, refuseBanned } from "../auth/trust";
import { conflict, forbidden, invalid, notFound } from "../shared/domain-errors";
import { createRouter, type AppEnv } from "../shared/http";
import { bearerSecurity, errorResponses, forbiddenResponse, jsonBody, jsonResponse, pathId } from "../shared/openapi";
import { userPoints } from "./user-points";
import {
  LedgerPage,
  PlayerBalances,
  PointsWriteAnswer,
  PointsWriteInput,
  ShortBalance,
  SystemKeyParam,
} from "./schemas";

/**
 * The points API: a player's balances and ledger (access token, or API key naming the user), and
 * the studio's backend's grants and spends (API key only).
 */

const tags = ["Points"];
type Ctx = Context<AppEnv>;

const UserQuery = z.object({
  user_id: z.string().min(1).max(256).optional().openapi({
    description: "With an API key: the player. With an access token: not allowed (the token names the player)",
    example: "player-42",
  }),
  language: z.string().max(20).optional().openapi({ description: "Language of names; default: the app's language" }),
});
const LedgerQuery = UserQuery.extend({
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "must be a next_cursor of a previous page")
    .optional(),
});
const AppParams = z.object({ appId: pathId("appId") });
const SystemParams = AppParams.extend({ systemKey: SystemKeyParam });

/** The player a read is about: the token's, or with an API key the `user_id` of the query. */
function readUser(c: Ctx, userId: string | undefined): string {
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

const writeRoute = (op: "grant" | "spend") =>
  createRoute({
    operationId: op === "grant" ? "grantPoints" : "spendPoints",
    method: "post",
    path: `/api/v1/points/{appId}/{systemKey}/${op}`,
    tags,
    security: bearerSecurity.apiKey,
    summary: op === "grant" ? "Grant points to a player (studio backend)" : "Spend points of a player (studio backend)",
    description:
      (op === "grant"
        ? "Credits `amount`, capped by the system's max_balance (the ledger shows the capped amount). "
        : "Takes `amount` from the balance of a spendable system, never below zero: 409 with the `balance` when it is short, and nothing changes. " +
          "Spends never lower `earned` nor the level. ") +
      "The same idempotency_key within 48 hours answers the first result again and changes nothing. " +
      "API key only: an access token, or a banned player, gets 403.",
    middleware: [requireTokenOrKey] as const,
    request: { params: SystemParams, ...jsonBody(PointsWriteInput) },
    responses: {
      200: jsonResponse(PointsWriteAnswer, "The balance after"),
      ...errorResponses,
      ...forbiddenResponse("An access token (grants and spends take the API key only), or the player is banned"),
      409: jsonResponse(
        ShortBalance,
        op === "spend"
          ? "The balance is short (`balance` says how much there is), or the system is not spendable"
          : "Refused",
      ),
    },
  });

async function write(
  c: Ctx,
  op: "grant" | "spend",
  appIdParam: string,
  systemKey: string,
  body: z.infer<typeof PointsWriteInput>,
) {
  if (c.get("caller").kind === "access-token")
    throw forbidden(
      `Points are ${op === "grant" ? "granted" : "spent"} by the studio's backend with an API key, not by a game client`,
    );
  const appId = callerApp(c, appIdParam);
  refuseBanned(await appTrust(c.env.DB, appId), body.user_id, c.get("now"));
  return userPoints(c.env, appId, body.user_id).write(
    appId,
    {
      op,
      systemKey,
      userId: body.user_id,
      amount: body.amount,
      reason: body.reason,
      idempotencyKey: body.idempotency_key,
    },
    c.get("now"),
  );
}

export const pointsRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "getPlayerPoints",
      method: "get",
      path: "/api/v1/points/{appId}",
      tags,
      security: bearerSecurity.tokenOrKey,
      summary: "The player's balance, points earned and level in every points system of the app",
      middleware: [requireTokenOrKey] as const,
      request: { params: AppParams, query: UserQuery },
      responses: { 200: jsonResponse(PlayerBalances, "The player's points"), ...errorResponses },
    }),
    async (c) => {
      const appId = callerApp(c, c.req.valid("param").appId);
      const { user_id, language } = c.req.valid("query");
      const userId = readUser(c, user_id);
      return c.json(await userPoints(c.env, appId, userId).balances(appId, language), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getPlayerPointsLedger",
      method: "get",
      path: "/api/v1/points/{appId}/{systemKey}/ledger",
      tags,
      security: bearerSecurity.tokenOrKey,
      summary: "The player's ledger in one points system, newest first, 50 a page",
      description:
        "One entry per applied event or request that moved the balance; the balance always equals the ledger's sum. Entries older than 90 days, " +
        "or past the newest 1,000 of the system, fold into one `opening-balance` entry.",
      middleware: [requireTokenOrKey] as const,
      request: { params: SystemParams, query: LedgerQuery },
      responses: { 200: jsonResponse(LedgerPage, "A page of the ledger"), ...errorResponses },
    }),
    async (c) => {
      const { appId: pathApp, systemKey } = c.req.valid("param");
      const appId = callerApp(c, pathApp);
      const { user_id, cursor } = c.req.valid("query");
      const page = await userPoints(c.env, appId, readUser(c, user_id)).ledger(appId, systemKey, cursor ?? null);
      if (!page) throw notFound(`Points system ${systemKey} not found`);
      return c.json(page, 200);
    },
  )
  .openapi(writeRoute("grant"), async (c) => {
    const { appId, systemKey } = c.req.valid("param");
    const result = await write(c, "grant", appId, systemKey, c.req.valid("json"));
    if (!result.ok) throw notFound(result.message);
    return c.json(result.answer, 200);
  })
  .openapi(writeRoute("spend"), async (c) => {
    const { appId, systemKey } = c.req.valid("param");
    const result = await write(c, "spend", appId, systemKey, c.req.valid("json"));
    if (result.ok) return c.json(result.answer, 200);
    if (result.kind === "not-found") throw notFound(result.message);
    throw conflict(result.message, undefined, result.balance === undefined ? undefined : { balance: result.balance });
  });
