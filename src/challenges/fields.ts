import { z } from "@hono/zod-openapi";

/**
 * A challenge's configured fields as both answers show them, defined once: the admin API's
 * challenge (./admin/schemas.ts) and the player's view of it (./schemas.ts) take them from here;
 * the admin input refines each with its limits and default, and the catalog document takes the
 * admin input made strict (./catalog-section.ts).
 */
export const challengeFieldDocs = {
  challenge_duration_time: "Seconds after activation; -1: no time-out",
  live_date: "Offered from this instant; null: at once",
  challenge_goal_condition:
    "0: complete when the counter reaches the goal; 1: complete when an event leaves it at or below the goal",
};

export const challengeShownFields = {
  challenge_duration_time: z.number().int().openapi({ description: challengeFieldDocs.challenge_duration_time }),
  live_date: z.string().nullable().openapi({ description: challengeFieldDocs.live_date }),
  challenge_goal: z.number().int(),
  challenge_goal_condition: z.number().int().openapi({ description: challengeFieldDocs.challenge_goal_condition }),
  challenge_price: z.number().int(),
  challenge_reward: z.string(),
  challenge_reward_type: z.string(),
  challenge_xp: z.number().int(),
  challenge_icon: z.string(),
  challenge_icon_hd: z.string(),
  repeatable: z.boolean(),
};
