import { PlayerPointsState } from "../../points/schemas";
import { z } from "@hono/zod-openapi";
import { UserIdSchema } from "../../auth/schemas";
import { AuditEntry } from "../../apps/admin/audit-schemas";
import { UserBattlePassState } from "../../battlepasses/admin/user-state";
import { StoredChallengeStateSchema } from "../../challenges/schemas";
import { ErrorSchema, jsonResponse, pathId } from "../../shared/openapi";
import { Delivery } from "../../webhooks/admin/schemas";
import { FlaggedSubmission } from "../../leaderboards/admin/schemas";
import { ERASURE_STATUSES } from "../erasure-receipts";
import { PagingQuery } from "../../shared/paging";
import { PLAYER_SORTS } from "../registry";

/** Zod schemas of the admin API for one player: the support view, the export, erasure receipts, bans. */

export const UserParams = z.object({
  appId: pathId("appId"),
  userId: UserIdSchema.openapi({ param: { name: "userId", in: "path" }, example: "player-42" }),
});

export const AdminUserState = z
  .object({
    app_id: z.string(),
    user_id: z.string(),
    challenges: z.array(StoredChallengeStateSchema),
    battle_passes: UserBattlePassState,
  })
  .openapi("AdminUserState");

export const ErasureReceipt = z
  .object({
    erasure_id: z.string().openapi({ example: "482917360015842" }),
    app_id: z.string(),
    status: z.enum(ERASURE_STATUSES).openapi({
      description:
        "pending: requested, the player's object starts within seconds; running: under way (or retried after `error`); completed: nothing about the player is left; failed: every attempt failed, nothing is guaranteed erased: request again",
    }),
    requested_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    error: z.string().nullable().openapi({ description: "Why the last attempt failed" }),
  })
  .openapi("ErasureReceipt");

export const BanInput = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .openapi({ description: "Shown to the player in every refusal", example: "score manipulation" }),
    expires_at: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-06-01T00:00:00Z" })
      .nullable()
      .optional()
      .openapi({
        description: "When the ban ends by itself (in the future); left out or null: until lifted",
        example: "2026-06-01T00:00:00Z",
      }),
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

const RecentEvent = z.object({
  event_name: z.string(),
  event_type: z.string(),
  session_id: z.string(),
  team_id: z.string().nullable(),
  meta_data: z.record(z.string(), z.unknown()),
  event_id: z.string().nullable(),
  received_at: z.string(),
});

/** The answer of an erasure request when the player's object is out of reach. */
export const unavailable = {
  503: jsonResponse(ErrorSchema, "The player's object could not be reached: nothing was erased, try again"),
} as const;

/** At most this many of a kind the export lists; `total` and `more` lead to the rest. */
export const EXPORT_LIST_LIMIT = 100;

export const PlayerExport = z
  .object({
    app_id: z.string(),
    user_id: z.string(),
    exported_at: z.string(),
    user_info: z
      .object({ username: z.string().nullable(), avatarImage: z.string().nullable(), updated_at: z.string() })
      .nullable()
      .openapi({
        description: "What the player stored with PUT /api/v1/user-additional-info (shown with every ranking), or null",
      }),
    challenges: z
      .array(StoredChallengeStateSchema)
      .openapi({ description: "The player's personal challenges as stored (the admin user view)" }),
    battle_passes: UserBattlePassState,
    points: PlayerPointsState,
    leaderboards: z
      .array(
        z.object({
          leaderboard_id: z.string(),
          name: z.string(),
          score: z.number().int().openapi({ description: "In the current season; 0 without a score" }),
          rank: z.number().int().openapi({ description: "In the current season; -1 without a score" }),
          seasons: z
            .array(z.object({ season_started_at: z.string(), score: z.number().int(), last_event_at: z.string() }))
            .openapi({ description: "Every score the store holds, past seasons not yet removed included" }),
        }),
      )
      .openapi({ description: "The player on every board of the app" }),
    ban: Ban.nullable().openapi({
      description: "The player's ban as stored (an expired one until the cron lifts it), or null",
    }),
    held_scores: z.array(FlaggedSubmission.extend({ leaderboard_id: z.string() })).openapi({
      description: `Scores of the player that boards held back for review, oldest first, at most ${EXPORT_LIST_LIMIT}`,
    }),
    recent_events: z
      .array(RecentEvent)
      .openapi({ description: "The last events the player's object applied, newest first" }),
    webhook_deliveries: z
      .object({
        total: z.number().int(),
        items: z.array(
          Delivery.extend({
            payload: z.unknown().openapi({ description: "The body sent, without credentials (no user_token)" }),
          }),
        ),
        more: z
          .string()
          .nullable()
          .openapi({ description: "Where the rest is listed, when there is more than the export holds" }),
      })
      .openapi({
        description: `Logged deliveries whose payload names the player (kept 30 days), newest first, at most ${EXPORT_LIST_LIMIT}`,
      }),
    audit_log: z.object({ total: z.number().int(), items: z.array(AuditEntry), more: z.string().nullable() }).openapi({
      description: `What operators did to the player (exports, resets, erasures), newest first, at most ${EXPORT_LIST_LIMIT}`,
    }),
    archive: z
      .object({ user_ref: z.string().nullable(), description: z.string() })
      .openapi({ description: "How the raw event archive names the player (null before their first event)" }),
  })
  .openapi("PlayerExport");

export const PlayersQuery = PagingQuery.extend({
  search: z.string().max(256).optional().openapi({
    description: "A prefix of the user id (case as typed) or a part of the username (any case)",
    example: "player-4",
  }),
  sort: z
    .enum(PLAYER_SORTS)
    .default("last_seen")
    .openapi({ description: "last_seen (default) and first_seen: newest first; id: in id order" }),
});

export const AdminPlayer = z
  .object({
    user_id: z.string(),
    username: z.string().nullable().openapi({ description: "From the player's stored user info, or null" }),
    first_seen_at: z.string().openapi({ description: "The player's first event, access token or stored user info" }),
    last_seen_at: z
      .string()
      .openapi({ description: "Their last activity; a player's events update it at most once an hour" }),
    events: z
      .number()
      .int()
      .openapi({ description: "Events applied for the player, as last reported (at most an hour behind)" }),
    banned: z.boolean().openapi({ description: "A ban is in force" }),
  })
  .openapi("AdminPlayer");
