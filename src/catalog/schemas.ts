import { z } from "@hono/zod-openapi";
import { AppInput, RateLimitsInput } from "../apps/admin/schemas";
import { CATALOG_SECTIONS } from "../registry/areas";

/**
 * The catalog document: an app's whole configuration, with the studio's keys instead of ids. Each
 * object is the admin API's input of its area (the same zod schema, so the same rules), made
 * strict: a misspelt field is an error here, not a silently ignored default. The app's settings are
 * the catalog's own; every other field is an area's section (src/kit/catalog.ts).
 */

export const CATALOG_FORMAT_VERSION = 1;

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
    ...Object.fromEntries(CATALOG_SECTIONS.map((section) => [section.key, section.schema])),
  })
  .strict()
  .openapi("CatalogDocument", {
    description:
      "An app's whole configuration: its fair-play settings, challenge categories with their challenges, battle passes with their levels and level challenges, leaderboards and webhook endpoints, identified by the studio's keys instead of ids.",
  });

/** The document: its settings, and each section's objects under the section's key. */
export interface CatalogDocument {
  $schema?: string;
  version: typeof CATALOG_FORMAT_VERSION;
  settings?: CatalogSettings;
  [section: string]: unknown;
}
export type CatalogSettings = z.infer<typeof CatalogSettings>;

// ---- answers of the plan and apply routes

const CATALOG_OBJECTS = ["app_settings", ...CATALOG_SECTIONS.flatMap((section) => Object.keys(section.objects))] as [
  string,
  ...string[],
];
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
