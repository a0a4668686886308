import { z } from "@hono/zod-openapi";
import { ConfigKey } from "../shared/schemas";
import { MAX_POINTS } from "./admin/schemas";
import { SOURCE_KINDS } from "./core/model";

/** Zod schemas of the points API: the player's reads, the backend's grants and spends, the operator's adjustment. */

export const SystemKeyParam = ConfigKey.openapi({ param: { name: "systemKey", in: "path" }, example: "xp" });

export const PointsLevelView = z
  .object({ level: z.number().int(), name: z.string(), points: z.number().int() })
  .openapi("PointsLevelView");

export const PlayerBalances = z
  .object({
    systems: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        balance: z.number().int(),
        earned: z.number().int().openapi({ description: "Everything ever credited; spends never lower it" }),
        level: PointsLevelView.nullable().openapi({ description: "The level `earned` reached; null below the first" }),
        next_level: PointsLevelView.nullable().openapi({ description: "The next level; null at the top" }),
      }),
    ),
  })
  .openapi("PlayerPointsBalances");

export const LedgerEntry = z
  .object({
    entry_id: z.string(),
    amount: z.number().int().openapi({ description: "Positive: credited; negative: spent or taken" }),
    balance_after: z.number().int(),
    source: z.object({
      kind: z.enum(SOURCE_KINDS),
      id: z.string().nullable().openapi({
        description:
          "The event name of a trigger, the challenge's or level's id, the idempotency key of a grant or spend",
      }),
    }),
    reason: z.string(),
    created_at: z.string(),
  })
  .openapi("PointsLedgerEntry");

export const LedgerPage = z
  .object({
    items: z.array(LedgerEntry),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: "Pass as `cursor` for the next (older) page; null: none" }),
  })
  .openapi("PointsLedgerPage");

/** Everything the points area holds of a player (the player export). */
export const PlayerPointsState = z
  .object({
    balances: z.record(z.string(), z.object({ balance: z.number().int(), earned: z.number().int() })).openapi({
      description: "By system key",
    }),
    ledger: z
      .array(LedgerEntry.extend({ system: z.string() }))
      .openapi({ description: "Every entry the player's object keeps, oldest first" }),
  })
  .openapi("PlayerPointsState");

export const PointsWriteInput = z
  .object({
    user_id: z.string().min(1).max(256).openapi({ example: "player-42" }),
    amount: z.number().int().min(1).max(MAX_POINTS).openapi({ example: 50 }),
    reason: z.string().trim().min(1).max(500).openapi({ example: "daily login bonus" }),
    idempotency_key: z.string().min(1).max(200).openapi({
      description:
        "The same key (per operation and system) within 48 hours answers the first result again and changes nothing",
      example: "login-2026-11-27-player-42",
    }),
  })
  .openapi("PointsWriteInput");

export const PointsWriteAnswer = z
  .object({
    balance: z.number().int(),
    earned: z.number().int(),
    level: PointsLevelView.nullable(),
    entry_id: z.string().openapi({ description: "The ledger entry; empty when a grant at max_balance moved nothing" }),
  })
  .openapi("PointsWriteAnswer");

export const ShortBalance = z
  .object({ status: z.number().int(), message: z.string(), balance: z.number().int() })
  .openapi("PointsShortBalance");

export const AdjustmentInput = z
  .object({
    amount: z
      .number()
      .int()
      .min(-MAX_POINTS)
      .max(MAX_POINTS)
      .refine((v) => v !== 0, "must not be 0")
      .openapi({ description: "Added to the balance (negative: taken from it, never below zero)", example: 100 }),
    reason: z.string().trim().min(1, "is required: say why the player's state is corrected").max(500).openapi({
      description: "Why; kept in the audit log with the balance before and after",
      example: "lost coins after a crash",
    }),
  })
  .openapi("PointsAdjustment");

export const AdjustmentAnswer = z
  .object({
    before: z.record(z.string(), z.unknown()),
    after: z.record(z.string(), z.unknown()),
    reason: z.string(),
  })
  .openapi("PointsAdjustmentAnswer");
