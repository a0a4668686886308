import { fieldType, predefinedEvent } from "../../../rules/predefined-events";
import { compactRows, FormReader, rowsOf, type Decoded, type FormValues } from "../core/form";

/**
 * The event tester's form: the payload a backend would POST to /api/v1/events with its API key.
 * Catalog fields are named `meta_data.<field>` so that the intake's errors point at them; more
 * fields (custom events) are rows of `custom`.
 */

const CUSTOM_ROW = ["key", "value"] as const;

/** A field's text as the intake expects it: integers for number fields, when they are integers. */
function metaValue(field: string, text: string, custom: boolean): string | number {
  const integer = /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text));
  return integer && (custom || fieldType(field) === "number") ? Number(text) : text;
}

/** The meta data fields of an event: the catalog's required and optional ones, or none for a custom event. */
export const catalogFields = (eventName: string) => {
  const event = predefinedEvent(eventName);
  return event ? [...event.required, ...event.optional] : [];
};

export function decodeEvent(submitted: FormValues): Decoded {
  const values = compactRows(submitted, "custom", CUSTOM_ROW);
  const form = new FormReader(values);
  const metaData: Record<string, string | number> = {};
  for (const [name, text] of Object.entries(values)) {
    const field = name.startsWith("meta_data.") ? name.slice("meta_data.".length) : null;
    if (field !== null && text.trim() !== "") metaData[field] = metaValue(field, text.trim(), false);
  }
  for (const row of rowsOf(values, "custom")) {
    const key = (row.key ?? "").trim();
    if (key !== "") metaData[key] = metaValue(key, (row.value ?? "").trim(), true);
  }
  const input = {
    user_id: form.text("user_id"),
    event_name: form.text("event_name"),
    event_type: form.optionalText("event_type"),
    session_id: form.optionalText("session_id"),
    team_id: form.optionalText("team_id"),
    event_id: form.optionalText("event_id"),
    meta_data: metaData,
  };
  return { input, problems: form.problems, values };
}
