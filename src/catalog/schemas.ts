import { CatalogPointsSystem } from "../points/catalog-section";
import { z } from "@hono/zod-openapi";
import { AppInput, RateLimitsInput } from "../apps/admin/schemas";
import {
  BattlePassFields,
  LevelChallengeInput,
  LevelFields,
  MAX_CHALLENGES_PER_LEVEL,
  passRule,
} from "../battlepasses/admin/schemas";
import {
  CategoryInput,
  ChallengeFields,
  MAX_CHALLENGES_PER_CATEGORY,
  challengeRule,
} from "../challenges/admin/schemas";
import { LeaderboardFields, boardRule } from "../leaderboards/admin/schemas";
import { WebhookInput } from "../webhooks/admin/schemas";
import { ConfigKey } from "../shared/schemas";

/**
 * The catalog document: an app's whole configuration, with the studio's keys instead of ids. Each
 * object is the admin API's input of its area (the same zod schema, so the same rules), made
 * strict: a misspelt field is an error here, not a silently ignored default.
 */

export const CATALOG_FORMAT_VERSION = 1;

/** A secret kept out of the document: the CLI puts the variable's value in its place before sending. */
export const SecretRef = z
  .object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "must be an environment variable name") })
  .strict()
  .openapi("CatalogSecretRef", {
    description:
      "The name of an environment variable that holds the secret. The catalog CLI replaces it with the variable's value; when the variable is unset, or when the API receives the reference itself, the endpoint keeps its current secret (a new endpoint gets a generated one).",
  });
export type SecretRef = z.infer<typeof SecretRef>;

export const CatalogChallenge = ChallengeFields.omit({ category_id: true })
  .extend({
    key: ConfigKey.openapi({ description: "Unique in the app; how documents and deployments refer to the challenge" }),
  })
  .strict()
  .superRefine(challengeRule)
  .openapi("CatalogChallenge");

export const CatalogCategory = CategoryInput.extend({
  challenges: z.array(CatalogChallenge).max(MAX_CHALLENGES_PER_CATEGORY).default([]),
})
  .strict()
  .openapi("CatalogCategory", {
    description:
      "A challenge category, identified by its category_slug, with its challenges. Players see a category's challenges in the order they were created: new ones in the document's order, after those that exist.",
  });

export const CatalogLevelChallenge = LevelChallengeInput.omit({ challenge_id: true })
  .extend({
    key: ConfigKey.openapi({
      description: "Unique in its level; users keep their progress in a challenge whose key stays",
    }),
  })
  .strict()
  .openapi("CatalogLevelChallenge");

export const CatalogLevel = LevelFields.omit({ challenges: true })
  .extend({
    key: ConfigKey.openapi({ description: "Unique in its battle pass" }),
    challenges: z.array(CatalogLevelChallenge).min(1).max(MAX_CHALLENGES_PER_LEVEL),
  })
  .strict()
  .openapi("CatalogLevel");

export const CatalogBattlePass = BattlePassFields.extend({
  key: ConfigKey.openapi({ description: "Unique in the app" }),
  levels: z.array(CatalogLevel).max(1000).default([]),
})
  .strict()
  .superRefine(passRule)
  .openapi("CatalogBattlePass");

export const CatalogLeaderboard = LeaderboardFields.extend({
  key: ConfigKey.openapi({ description: "Unique in the app" }),
})
  .strict()
  .superRefine(boardRule)
  .openapi("CatalogLeaderboard");

export const CatalogWebhook = WebhookInput.omit({ secret_key: true })
  .extend({
    key: ConfigKey.openapi({ description: "Unique in the app" }),
    secret_key: z.union([z.string(), SecretRef]).optional().openapi({
      description:
        "The secret itself, or a reference {env: NAME} that keeps it out of the document. Left out: an existing endpoint keeps its secret, a new one gets a generated secret. Exports always show a reference, never the secret.",
    }),
  })
  .strict()
  .openapi("CatalogWebhook");

/**
 * The app's fair-play settings, as the admin API's app input takes them: not its name or default
 * language, which belong to one deployment's app while a document applies to any.
 */
export const CatalogSettings = z
  .object({
    backend_only_events: AppInput.shape.backend_only_events,
    rate_limits: RateLimitsInput.strict().default({}).openapi("CatalogRateLimits"),
  })
  .strict()
  .openapi("CatalogSettings", {
    description:
      "The app's fair-play settings (docs/fair-play.md), replaced as a whole: an event list or a rate limit left out is the default again (none; the service's limit). A document without settings leaves the app's as they are.",
  });

export const CatalogDocument = z
  .object({
    $schema: z.string().optional().openapi({ description: "Where editors find this schema; ignored by the service" }),
    version: z.literal(CATALOG_FORMAT_VERSION).openapi({ description: "The document format's version" }),
    settings: CatalogSettings.optional(),
    categories: z.array(CatalogCategory).max(1000).default([]),
    battle_passes: z.array(CatalogBattlePass).max(1000).default([]),
    leaderboards: z.array(CatalogLeaderboard).max(1000).default([]),
    points_systems: z.array(CatalogPointsSystem).max(100).default([]),
    webhooks: z.array(CatalogWebhook).max(100).default([]),
  })
  .strict()
  .openapi("CatalogDocument", {
    description:
      "An app's whole configuration: its fair-play settings, challenge categories with their challenges, battle passes with their levels and level challenges, leaderboards, points systems and webhook endpoints, identified by the studio's keys instead of ids.",
  });

export type CatalogDocument = z.infer<typeof CatalogDocument>;
export type CatalogSettings = z.infer<typeof CatalogSettings>;
export type CatalogCategory = z.infer<typeof CatalogCategory>;
export type CatalogChallenge = z.infer<typeof CatalogChallenge>;
export type CatalogBattlePass = z.infer<typeof CatalogBattlePass>;
export type CatalogLevel = z.infer<typeof CatalogLevel>;
export type CatalogLevelChallenge = z.infer<typeof CatalogLevelChallenge>;
export type CatalogLeaderboard = z.infer<typeof CatalogLeaderboard>;
export type CatalogWebhook = z.infer<typeof CatalogWebhook>;
export type { CatalogPointsSystem };

// ---- answers of the plan and apply routes

const CATALOG_OBJECTS = [
  "app_settings",
  "category",
  "challenge",
  "battle_pass",
  "level",
  "level_challenge",
  "leaderboard",
  "points_system",
  "webhook",
] as const;
const Ref = z
  .string()
  .openapi({ description: "The object by its keys", example: "battle_passes/season-1/levels/gold" });

export const CatalogPlanAnswer = z
  .object({
    app_id: z.string(),
    prune: z.boolean(),
    applied: z.boolean().openapi({ description: "false for a plan; true once an apply wrote every change" }),
    summary: z.object({
      create: z.number().int(),
      update: z.number().int(),
      delete: z.number().int(),
      unmanaged: z.number().int(),
      blocked: z.number().int(),
    }),
    changes: z.array(
      z.object({
        action: z.enum(["create", "update", "delete"]),
        object: z.enum(CATALOG_OBJECTS),
        ref: Ref,
        fields: z
          .array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() }))
          .openapi({ description: "On update: each field that changes. Secrets show as (secret)" }),
      }),
    ),
    unmanaged: z
      .array(z.object({ object: z.enum(CATALOG_OBJECTS), ref: Ref }))
      .openapi({ description: "Objects of the app the document leaves out: kept, or deleted with prune=true" }),
    blocked: z.array(z.object({ object: z.enum(CATALOG_OBJECTS), ref: Ref, problem: z.string() })).openapi({
      description: "Changes that would break running player state: an apply refuses them (409) unless force=true",
    }),
  })
  .openapi("CatalogPlan");
