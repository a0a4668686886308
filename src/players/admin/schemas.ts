import { z } from "@hono/zod-openapi";

/** Zod schemas of the admin API for players: bans (the support view's schemas sit with its route). */

export const BanInput = z
  .object({
    reason: z.string().trim().min(1).max(500).openapi({ description: "Shown to the player in every refusal", example: "score manipulation" }),
    expires_at: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-06-01T00:00:00Z" })
      .nullable()
      .optional()
      .openapi({ description: "When the ban ends by itself (in the future); left out or null: until lifted", example: "2026-06-01T00:00:00Z" }),
  })
  .openapi("BanInput");

export const Ban = z
  .object({
    app_id: z.string(),
    user_id: z.string(),
    reason: z.string(),
    expires_at: z.string().nullable().openapi({ description: "null: until lifted" }),
    banned_at: z.string(),
  })
  .openapi("PlayerBan");
