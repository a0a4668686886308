import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../apps/repo";
import { dispatchChanges } from "../fanout/dispatch";
import { invalid, notFound } from "../shared/domain-errors";
import { createRouter } from "../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../shared/openapi";
import { webhookUrlProblem } from "../rules/webhook-url";
import { ACCEPTED_WEBHOOK_TYPES, canonicalWebhookType } from "../webhooks/channel";

const MAX_CHANGES = 1000;

const EmitChanges = z
  .object({
    changes: z
      .array(
        z.object({
          webhook_type: z.enum(ACCEPTED_WEBHOOK_TYPES),
          payload: z.record(z.string(), z.unknown()).openapi({ description: "Sent as the webhook body, as is." }),
          webhook_url: z
            .string()
            .optional()
            .openapi({ description: "A per-level reward URL, as a battle pass level would give." }),
        }),
      )
      .min(1)
      .max(MAX_CHANGES),
  })
  .openapi("DevEmitChanges");

/**
 * Development only (DEV_CLOCK=on): hands arbitrary changes to the change hook, as the challenge,
 * battle pass and leaderboard areas do, so receivers can be built and tested without playing.
 */
export const devChangesAdmin = createRouter().openapi(
  createRoute({
    operationId: "emitDevChanges",
    method: "post",
    path: "/api/v1/admin/dev/apps/{appId}/changes",
    tags: ["Admin: development"],
    security: bearerSecurity.admin,
    summary: "Emit changes through the change hook (development only)",
    request: { params: z.object({ appId: pathId("appId") }), ...jsonBody(EmitChanges) },
    responses: {
      202: jsonResponse(z.object({ dispatched: z.number().int() }), "Queued for delivery"),
      ...errorResponses,
    },
  }),
  async (c) => {
    if (c.env.DEV_CLOCK !== "on") throw notFound("Development endpoints are off");
    const app = await requireApp(c.env.DB, c.req.valid("param").appId);
    const allowLoopback = c.env.ALLOW_LOOPBACK_WEBHOOKS === "on";
    const changes = c.req.valid("json").changes.map((change, i) => {
      const problem = change.webhook_url === undefined ? null : webhookUrlProblem(change.webhook_url, allowLoopback);
      if (problem)
        throw invalid(`Invalid body: changes.${i}.webhook_url: ${problem}`, [
          { field: `changes.${i}.webhook_url`, problem },
        ]);
      return {
        appId: String(app.app_id),
        webhookType: canonicalWebhookType(change.webhook_type),
        payload: change.payload,
        topic: null,
        userId: null,
        webhookUrl: change.webhook_url,
      };
    });
    await dispatchChanges(c.env, changes);
    return c.json({ dispatched: changes.length }, 202);
  },
);
