import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { LanguageCode } from "../../shared/schemas";
import { DEFAULT_RATE_LIMITS } from "../settings";

const PerMinute = (what: string, fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(1_000_000_000)
    .optional()
    .openapi({
      description: `${what}; left out: the service's default, ${fallback.toLocaleString("en-US")}. Past it, event intake answers 429.`,
      example: fallback,
    });

export const RateLimitsInput = z
  .object({
    per_user_per_minute: PerMinute(
      "Events one player may send in any 60 seconds (a batch of 500 counts 500; exact)",
      DEFAULT_RATE_LIMITS.perUserPerMinute,
    ),
    per_app_per_minute: PerMinute(
      "Events the whole app may send in a minute (approximate: see docs/fair-play.md)",
      DEFAULT_RATE_LIMITS.perAppPerMinute,
    ),
  })
  .openapi("RateLimitsInput");

export const AppInput = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: "Space Racer" }),
    default_language: LanguageCode.default("en").openapi({ example: "en" }),
    backend_only_events: z
      .array(EventName)
      .max(200)
      .default([])
      .openapi({
        description:
          "Event names only the studio's backend (an API key) may send: an access token's event of one of these names answers 403.",
        example: ["purchase-completed"],
      }),
    rate_limits: RateLimitsInput.default({}),
  })
  .openapi("AppInput");
export type AppInput = z.infer<typeof AppInput>;
/** The fair-play settings of an input: what a catalog document holds of an app (src/catalog). */
export type AppSettingsInput = Pick<AppInput, "backend_only_events" | "rate_limits">;

export const App = z
  .object({
    app_id: z.string(),
    name: z.string(),
    default_language: z.string(),
    backend_only_events: z.array(z.string()),
    rate_limits: z
      .object({ per_user_per_minute: z.number().int(), per_app_per_minute: z.number().int() })
      .openapi({ description: "The limits in force: the app's own, or the service's defaults" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("App");
