import type { z } from "@hono/zod-openapi";
import type { LeaderboardAdmin } from "../admin/schemas";
import { FormReader, type Decoded, type FormValues } from "../../kit/console/core/form";
import {
  compactFilters,
  compactLocalized,
  filtersToForm,
  flag,
  localizedToForm,
  readFilters,
  readLocalized,
} from "../../kit/console/forms/common";
import { readWallClock } from "../../kit/console/forms/common";

/** The leaderboard form: values ⇄ the admin API's LeaderboardInput. */

const numberToForm = (n: number | null) => (n === null ? "" : String(n));

export function leaderboardToForm(b: z.infer<typeof LeaderboardAdmin>, defaultLanguage: string): FormValues {
  return {
    key: b.key,
    ...localizedToForm("name", b.name, defaultLanguage),
    event_name: b.event_name,
    points_system: b.points_system ?? "",
    value_field: b.value_field ?? "",
    ...filtersToForm("filters", b.filters),
    aggregation: b.aggregation,
    sort_order_ascending: flag(b.sort_order_ascending),
    period_range: b.period_range ?? "never",
    period_range_reset_at_time: b.period_range_reset_at_time ?? "00:00:00",
    period_range_time_zone: b.period_range_time_zone ?? "UTC",
    authoritative: flag(b.authoritative),
    min_value: numberToForm(b.min_value),
    max_value: numberToForm(b.max_value),
    max_events_per_minute: numberToForm(b.max_events_per_minute),
  };
}

export function decodeLeaderboard(submitted: FormValues): Decoded {
  const values = compactFilters(compactLocalized(submitted, "name"), "filters");
  const form = new FormReader(values);
  const input = {
    key: form.optionalText("key"),
    name: readLocalized(form, "name"),
    // A board ranks events or a points system: an event name left empty beside a system is none.
    event_name: form.nullableText("points_system") === null ? form.text("event_name") : form.optionalText("event_name"),
    points_system: form.nullableText("points_system"),
    value_field: form.nullableText("value_field"),
    filters: readFilters(form, "filters"),
    aggregation: form.optionalText("aggregation"),
    sort_order_ascending: form.checked("sort_order_ascending"),
    period_range: form.optionalText("period_range"),
    period_range_reset_at_time: readWallClock(form, "period_range_reset_at_time"),
    period_range_time_zone: form.optionalText("period_range_time_zone"),
    authoritative: form.checked("authoritative"),
    // Empty: no bound, no pace (the API's null).
    min_value: form.integer("min_value") ?? null,
    max_value: form.integer("max_value") ?? null,
    max_events_per_minute: form.integer("max_events_per_minute") ?? null,
  };
  return { input, problems: form.problems, values };
}
