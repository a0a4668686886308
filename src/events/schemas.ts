import { z } from "@hono/zod-openapi";
import { EventName } from "../shared/event-name";
import { DEFAULT_SESSION_ID, LIMITS } from "./core/validate";

/**
 * The event payload as the OpenAPI document shows it. Requests are checked by validateEvent
 * (core/validate.ts), which also knows the catalog and the credential mode.
 */
export const EventPayload = z
  .object({
    user_id: z.string().max(LIMITS.idLength).optional().openapi({
      description: "Required with an API key; must not be sent with an access token, which names the user.",
      example: "player-42",
    }),
    team_id: z.string().max(LIMITS.idLength).nullable().optional().openapi({
      description: "Builds team rankings in leaderboards.",
      example: "red",
    }),
    event_name: EventName.openapi({
      description: "A predefined name (see /api/v1/public/documentation) or a custom one.",
      example: "kill-enemy",
    }),
    // Optional with the default in words: a `default` keyword makes generated clients (openapi-typescript)
    // require the field in a minimal event.
    event_type: z.enum(["single", "group"]).optional().openapi({
      description: "`single` adds the amount to counters; `group` replaces them. Default: `single`.",
    }),
    session_id: z
      .string()
      .max(LIMITS.idLength)
      .optional()
      .openapi({
        description: `Groups events, for example a match; counters reset when it changes. Default: \`${DEFAULT_SESSION_ID}\`.`,
        example: "match-17",
      }),
    meta_data: z
      .record(z.string(), z.union([z.number().int(), z.string()]))
      .optional()
      .openapi({
        description:
          "Integer or string values. For a predefined event only its own fields are kept; floats are refused for every event.",
        example: { amount: 1, weapon_used: "rifle" },
      }),
    metadata: z
      .record(z.string(), z.union([z.number().int(), z.string()]))
      .optional()
      .openapi({
        description: "Alias of meta_data, used when meta_data is absent.",
      }),
    event_id: z.string().min(1).max(LIMITS.eventIdLength).optional().openapi({
      description: "Makes the event idempotent per user for 48 hours: a retry is acknowledged and applied once.",
      example: "6f1c9a8e-2f4b-4f7e-9a1d-1f2e3d4c5b6a",
    }),
  })
  .openapi("EventPayload");

export const MAX_BATCH_EVENTS = 500;

export const EventBatchPayload = z
  .object({ events: z.array(EventPayload).min(1).max(MAX_BATCH_EVENTS) })
  .openapi("EventBatchPayload");

export const AuthQuery = z.object({
  auth: z
    .enum(["api_key", "access_token"])
    .optional()
    .openapi({
      description:
        "The credential in the Bearer header: an API key (backend) or an access token (client). " +
        "When absent, the credential itself tells: a JWT longer than 64 characters is an access token, anything else an API key " +
        "(SCILL's Unreal and PHP SDKs never send `auth`).",
    }),
});

const FieldProblem = z.object({ field: z.string(), problem: z.string() });

export const EventResult = z
  .object({
    index: z.number().int().openapi({ description: "Position of the event in the batch" }),
    status: z.number().int().openapi({ example: 200 }),
    message: z.string().openapi({ example: "OK" }),
    event_id: z.string().optional(),
    duplicate: z.boolean().optional().openapi({ description: "true when this event_id was already applied" }),
    errors: z.array(FieldProblem).optional(),
    retry_after_seconds: z
      .number()
      .int()
      .optional()
      .openapi({ description: "With status 429: when this event would be accepted" }),
  })
  .openapi("EventResult");

export const EventBatchResponse = z
  .object({
    status: z.number().int().openapi({ example: 200 }),
    message: z.string().openapi({ example: "1 of 3 events rejected" }),
    results: z.array(EventResult),
  })
  .openapi("EventBatchResponse");

const EventProperty = z.object({ property_name: z.string(), property_type: z.enum(["number", "string"]) });

export const EventDescription = z
  .object({
    event_name: z.string(),
    required_properties: z.array(EventProperty),
    optional_properties: z.array(EventProperty),
  })
  .openapi("EventDescription");
