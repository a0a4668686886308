import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { CounterFilterInput } from "../../rules/schemas";
import { ConfigKey, Localized, LocalizedName, LocalizedText } from "../../shared/schemas";
import { PointsRewardsInput } from "../../apps/points-rewards";
import { ACHIEVEMENT_KINDS, ACHIEVEMENT_STATUSES, AGGREGATIONS } from "../core/model";

/** Zod schemas of the admin API for achievements. */

export const MAX_THRESHOLD = 1_000_000_000_000;
export const MAX_REQUIRES = 50;

/** The fields of an achievement's input; catalog documents take the same. */
export const AchievementFields = z.object({
  key: ConfigKey.openapi({
    description: "Unique in the app; how composites (`requires`) and documents name the achievement",
    example: "kills-100",
  }),
  name: LocalizedName.openapi({ example: { en: "Centurion", de: "Zenturio" } }),
  description: LocalizedText.nullable().default(null),
  hidden: z.boolean().default(false).openapi({
    description: "true: players who do not hold it see neither its name, icon, description nor progress",
  }),
  hidden_description: LocalizedText.nullable().default(null).openapi({
    description: 'What players who do not hold a hidden achievement read; null: "Hidden achievement"',
  }),
  icon: z
    .string()
    .max(2000)
    .nullable()
    .default(null)
    .openapi({ description: "An image URL, or any text your client reads" }),
  kind: z.enum(ACHIEVEMENT_KINDS).openapi({
    description:
      "metric: held when a running total of an event reaches `threshold`; manual: granted by the studio's backend; composite: held when every achievement of `requires` is",
  }),
  status: z.enum(ACHIEVEMENT_STATUSES).default("active").openapi({
    description:
      "active: counts and can be earned; locked: keeps its holders, earns no new ones and stays visible; inactive: hidden from players, counts nothing",
  }),
  sort_order: z.number().int().min(-1_000_000).max(1_000_000).default(0).openapi({
    description: "Players' lists are in ascending sort_order, then by id",
  }),
  points_rewards: PointsRewardsInput.openapi({
    description: "Points credited when the achievement is earned or granted. Every system must exist in the app",
  }),
  event_name: EventName.nullable()
    .default(null)
    .openapi({ description: "metric: the event counted", example: "kill-enemy" }),
  filters: z.array(CounterFilterInput).max(20).default([]).openapi({
    description: "metric: conditions on the event's meta data, as challenges take them",
  }),
  value_field: z.string().min(1).max(100).nullable().default(null).openapi({
    description: "metric: the meta data field whose value counts; null: `amount` when the event has one, else 1",
  }),
  aggregation: z.enum(AGGREGATIONS).nullable().default(null).openapi({
    description: "metric: sum (the default) of the values, count of the events, or the max of one event's value",
  }),
  threshold: z.number().int().min(1).max(MAX_THRESHOLD).nullable().default(null).openapi({
    description: "metric: held from this value on",
    example: 100,
  }),
  requires: z.array(ConfigKey).max(MAX_REQUIRES).default([]).openapi({
    description: "composite: the keys of the achievements it requires (at least 2, no cycles)",
  }),
});

/** What one achievement alone must satisfy: the fields of its kind, and only those. */
export function achievementRule(a: z.infer<typeof AchievementFields>, ctx: z.RefinementCtx): void {
  const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", message, path: [path] });
  if (a.kind === "metric") {
    if (a.event_name === null) problem("event_name", "is required for a metric achievement");
    if (a.threshold === null) problem("threshold", "is required for a metric achievement");
  } else {
    if (a.event_name !== null) problem("event_name", "is only for metric achievements");
    if (a.filters.length > 0) problem("filters", "are only for metric achievements");
    if (a.value_field !== null) problem("value_field", "is only for metric achievements");
    if (a.aggregation !== null) problem("aggregation", "is only for metric achievements");
    if (a.threshold !== null) problem("threshold", "is only for metric achievements");
  }
  if (a.kind === "composite") {
    if (a.requires.length < 2) problem("requires", "a composite requires at least 2 achievements");
    if (new Set(a.requires).size !== a.requires.length) problem("requires", "names an achievement more than once");
    if (a.requires.includes(a.key)) problem("requires", "a composite cannot require itself");
  } else if (a.requires.length > 0) problem("requires", "is only for composite achievements");
}

/** The input with its kind's defaults: a metric aggregates by sum unless told. */
export const withDefaults = <T extends z.infer<typeof AchievementFields>>(a: T): T =>
  a.kind === "metric" && a.aggregation === null ? { ...a, aggregation: "sum" } : a;

export const AchievementInput = AchievementFields.superRefine(achievementRule)
  .transform(withDefaults)
  .openapi("AchievementInput");
export type AchievementInput = z.infer<typeof AchievementInput>;

export const AchievementAdmin = z
  .object({
    achievement_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    name: Localized,
    description: Localized.nullable(),
    hidden: z.boolean(),
    hidden_description: Localized.nullable(),
    icon: z.string().nullable(),
    kind: z.enum(ACHIEVEMENT_KINDS),
    status: z.enum(ACHIEVEMENT_STATUSES),
    sort_order: z.number().int(),
    points_rewards: z.array(z.object({ system: z.string(), amount: z.number().int() })),
    event_name: z.string().nullable(),
    filters: z.array(CounterFilterInput),
    value_field: z.string().nullable(),
    aggregation: z.enum(AGGREGATIONS).nullable(),
    threshold: z.number().int().nullable(),
    requires: z.array(z.string()),
    backdated: z.boolean().openapi({
      description:
        "metric: true when it reads the players' totals kept from before it existed (no filters, no value_field), so " +
        "players who already qualify hold it at their next request or event; false: it counts from its creation",
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("AchievementAdmin");
