import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { UserIdSchema } from "../../auth/schemas";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { StoredChallengeStateSchema } from "../../challenges/schemas";
import { UserBattlePassState } from "../../battlepasses/admin/user-state";
import { readUserState } from "./state";

const UserParams = z.object({
  appId: pathId("appId"),
  userId: UserIdSchema.openapi({ param: { name: "userId", in: "path" }, example: "player-42" }),
});

const AdminUserState = z
  .object({
    app_id: z.string(),
    user_id: z.string(),
    challenges: z.array(StoredChallengeStateSchema),
    battle_passes: UserBattlePassState,
  })
  .openapi("AdminUserState");

/** The read-only support view of one user: every area's stored state, nothing started or reset. */
export const usersAdmin = createRouter().openapi(
  createRoute({
    method: "get", path: "/api/v1/admin/apps/{appId}/users/{userId}", tags: ["Admin: users"], security: bearerSecurity.admin,
    summary: "Read one user's stored state, for support (nothing is started or reset by reading)",
    request: { params: UserParams },
    responses: { 200: jsonResponse(AdminUserState, "The user's state"), ...errorResponses },
  }),
  async (c) => {
    const { appId, userId } = c.req.valid("param");
    const app = String((await requireApp(c.env.DB, appId)).app_id);
    return c.json(await readUserState(c.env, app, userId, c.get("now")), 200);
  },
);
