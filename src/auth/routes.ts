import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../shared/http";
import {
  bearerSecurity,
  errorResponses,
  forbiddenResponse,
  jsonBody,
  jsonResponse,
  signingKeysResponse,
} from "../shared/openapi";
import { toIso } from "../shared/clock";
import { erasedMeanwhile, mintAccessToken } from "./access-tokens";
import { erasureSubject, tokenIssuedAt } from "../apps/erasure-tombstones";
import { reportPlayerSeen } from "../apps/player-registry";
import { callerApp, callerToken, callerUser, requireAccessToken, requireApiKey, requireTokenOrKey } from "./middleware";
import { readUserInfo, writeUserInfo } from "./user-info";
import { appTrust, refuseBanned } from "./trust";
import { UserIdSchema, UserInfoSchema } from "./schemas";

const ForeignUserIdentifier = z
  .object({ user_id: UserIdSchema.openapi({ example: "player-42" }) })
  .openapi("ForeignUserIdentifier");
const AccessToken = z.object({ token: z.string() }).openapi("AccessToken");
const CredentialCheck = z
  .object({
    app_id: z.string().openapi({ example: "1" }),
    user_id: z.string().optional().openapi({ example: "player-42", description: "Present for an access token" }),
    credential: z.enum(["access-token", "api-key"]),
  })
  .openapi("CredentialCheck");

const tags = ["Auth"];

export const authRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "generateAccessToken",
      method: "post",
      path: "/api/v1/auth/access-token",
      tags,
      security: bearerSecurity.apiKey,
      summary: "Mint an access token for a user of the API key's app (generateAccessToken)",
      description:
        "The token carries the id of the key that minted it: revoking that key ends the token too, unless the key was created with end_tokens_on_revoke false. " +
        "A banned player gets no token (403, naming the reason and the expiry).",
      middleware: [requireApiKey] as const,
      request: jsonBody(ForeignUserIdentifier, "The user the token is for", {
        player: { summary: "A player of the app", value: { user_id: "player-42" } },
      }),
      responses: {
        200: jsonResponse(AccessToken, "The access token", {
          token: {
            summary: "A signed JWT (shortened here)",
            value: { token: "eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJwbGF5ZXItNDIifQ.c2lnbmF0dXJl" },
          },
        }),
        ...errorResponses,
        ...forbiddenResponse("The player is banned"),
        ...signingKeysResponse,
      },
    }),
    async (c) => {
      const caller = c.get("caller");
      const appId = callerApp(c);
      const userId = c.req.valid("json").user_id;
      refuseBanned(await appTrust(c.env.DB, appId), userId, c.get("now"));
      const keyId = caller.kind === "api-key" ? { keyId: caller.keyId } : {};
      const token = await mintAccessToken(c.env, { appId, userId, ...keyId }, c.get("now"));
      reportPlayerSeen(c.env, c.executionCtx, appId, userId, c.get("now"));
      return c.json({ token }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "checkCredential",
      method: "get",
      path: "/api/v1/auth/check",
      tags,
      security: bearerSecurity.tokenOrKey,
      summary: "Tell whether a credential works, and whose it is (app, and the user of an access token)",
      middleware: [requireTokenOrKey] as const,
      responses: { 200: jsonResponse(CredentialCheck, "The credential is valid"), ...errorResponses },
    }),
    (c) => {
      const user = callerUser(c);
      if (user === undefined) return c.json({ app_id: callerApp(c), credential: "api-key" as const }, 200);
      return c.json({ app_id: callerApp(c), user_id: user, credential: "access-token" as const }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getUserInfo",
      method: "get",
      path: "/api/v1/user-additional-info",
      tags,
      security: bearerSecurity.accessToken,
      summary: "Read the token user's name and avatar (shown in leaderboards)",
      middleware: [requireAccessToken] as const,
      responses: { 200: jsonResponse(UserInfoSchema, "The user info; empty fields when never set"), ...errorResponses },
    }),
    async (c) => c.json(await readUserInfo(c.env.DB, callerApp(c), callerUser(c)!), 200),
  )
  .openapi(
    createRoute({
      operationId: "setUserInfo",
      method: "put",
      path: "/api/v1/user-additional-info",
      tags,
      security: bearerSecurity.accessToken,
      summary: "Set the token user's name and avatar",
      middleware: [requireAccessToken] as const,
      request: jsonBody(UserInfoSchema),
      responses: { 200: jsonResponse(UserInfoSchema, "The stored user info"), ...errorResponses },
    }),
    async (c) => {
      const info = c.req.valid("json");
      const stored = { username: info.username ?? null, avatarImage: info.avatarImage ?? null };
      const caller = callerToken(c);
      const guard = {
        subject: await erasureSubject(c.env, caller.appId, caller.userId),
        writtenAt: tokenIssuedAt(caller.issuedAt),
      };
      if (!(await writeUserInfo(c.env.DB, caller.appId, caller.userId, stored, toIso(c.get("now")), guard)))
        throw erasedMeanwhile();
      reportPlayerSeen(c.env, c.executionCtx, caller.appId, caller.userId, c.get("now"));
      return c.json(stored, 200);
    },
  );
