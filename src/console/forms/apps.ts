import { backendOnlyEventsOf } from "../../apps/settings";
import type { AppRow } from "../../apps/repo";
import { FormReader, type Decoded, type FormValues } from "../../kit/console/core/form";

/**
 * The app form: values ⇄ the admin API's AppInput. Backend-only events are one name a line; a rate
 * limit left empty is the service's default (as when the API's PUT leaves it out), so the form
 * shows the app's own limits only.
 */

export const appToForm = (app: AppRow): FormValues => ({
  name: app.name,
  default_language: app.default_language,
  backend_only_events: backendOnlyEventsOf(app).join("\n"),
  "rate_limits.per_user_per_minute": app.rate_limit_per_user_per_minute?.toString() ?? "",
  "rate_limits.per_app_per_minute": app.rate_limit_per_app_per_minute?.toString() ?? "",
});

export function decodeApp(values: FormValues): Decoded {
  const form = new FormReader(values);
  const input = {
    name: form.text("name"),
    default_language: form.optionalText("default_language"),
    // Commas separate names too, as people paste them from a list.
    backend_only_events: form
      .text("backend_only_events")
      .split(/[\n,]/)
      .map((name) => name.trim())
      .filter((name) => name !== ""),
    rate_limits: {
      per_user_per_minute: form.integer("rate_limits.per_user_per_minute"),
      per_app_per_minute: form.integer("rate_limits.per_app_per_minute"),
    },
  };
  return { input, problems: form.problems, values };
}
