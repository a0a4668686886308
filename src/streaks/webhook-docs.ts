import { z } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";
import type { StreakNoteType } from "./core/streak";

/** The bodies of the area's webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

const body = <T extends StreakNoteType>(type: T, name: string) =>
  z
    .object({
      webhook_type: webhookTypeField(type),
      app_id: z.string(),
      user_id: z.string(),
      streak_id: z.string(),
      key: z.string().openapi({ description: "The streak's key" }),
      length: z.number().int().openapi({ description: "The streak's length after the change (0 once lost)" }),
      longest: z.number().int(),
      freezes: z.number().int().openapi({ description: "Freezes the player holds after the change" }),
      period_start: z.string().openapi({ description: "Start of the period the change is about (ISO 8601)" }),
    })
    .openapi(name);

const NOTIFIED =
  " Beyond SCILL; the same JSON goes to the player's notifications topic (GET /api/v1/auth/user-notifications-topic-link).";

export const streaksWebhooks: WebhookDoc[] = [
  {
    type: "streak-extended",
    operationId: "streakExtendedWebhook",
    schema: body("streak-extended", "StreakExtendedPayload"),
    summary: "A player kept the current period: the streak rose by one",
    description: `Sent when the period's qualifying events reach min_count; length 1 starts a run.${NOTIFIED}`,
  },
  {
    type: "streak-freeze-used",
    operationId: "streakFreezeUsedWebhook",
    schema: body("streak-freeze-used", "StreakFreezeUsedPayload"),
    summary: "A period ended not kept and a freeze bridged it",
    description: `Decided when the period ends, by the player's object, also when the player does not return; the length does not rise.${NOTIFIED}`,
  },
  {
    type: "streak-freeze-earned",
    operationId: "streakFreezeEarnedWebhook",
    schema: body("streak-freeze-earned", "StreakFreezeEarnedPayload"),
    summary: "The streak's length reached a multiple of earn_every: a freeze was earned",
    description: `Not sent at the cap (freezes.max).${NOTIFIED}`,
  },
  {
    type: "streak-lost",
    operationId: "streakLostWebhook",
    schema: body("streak-lost", "StreakLostPayload"),
    summary: "A period ended not kept without a freeze: the streak was lost",
    description: `Decided when the period ends, by the player's object's alarm, also for a player who never returns; length is 0, period_start the missed period's.${NOTIFIED}`,
  },
  {
    type: "streak-milestone",
    operationId: "streakMilestoneWebhook",
    schema: body("streak-milestone", "StreakMilestonePayload"),
    summary: "A run of the streak reached a milestone; its points rewards were credited",
    description: `Once per milestone per run of the streak.${NOTIFIED}`,
  },
];
