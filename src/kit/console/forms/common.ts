import type { Localized } from "../../../shared/localize";
import { fieldType } from "../../../rules/predefined-events";
import { compactRows, rowsOf, type FormReader, type FormValues } from "../core/form";

/** Form encodings shared by several resources: checkboxes, localized texts, counter filters, UTC date-times. */

/** A checkbox's value: present when on. */
export const flag = (on: boolean) => (on ? "on" : "");

// ---- localized texts: rows of {lang, text}

export const LANGUAGE_ROW = ["lang", "text"] as const;

/** One row per language; a plain string is the app's default language. */
export function localizedToForm(name: string, value: Localized | null, defaultLanguage: string): FormValues {
  const entries =
    value === null ? [] : typeof value === "string" ? (value ? [[defaultLanguage, value]] : []) : Object.entries(value);
  return Object.fromEntries(
    entries.flatMap(([lang, text], i) => [
      [`${name}.${i}.lang`, lang],
      [`${name}.${i}.text`, text],
    ]),
  );
}

/** The rows with a text as `{lang: text}`; undefined when there is none, so that "required" or the default applies. */
export function readLocalized(form: FormReader, name: string): Record<string, string> | undefined {
  const rows = rowsOf(form.values, name);
  const result: Record<string, string> = {};
  rows.forEach((row, i) => {
    const text = (row.text ?? "").trim();
    const lang = (row.lang ?? "").trim();
    if (text === "") return;
    if (lang === "") form.problems.push({ field: `${name}.${i}.lang`, problem: "needs a language code such as en" });
    else if (Object.hasOwn(result, lang))
      form.problems.push({ field: `${name}.${i}.lang`, problem: `${lang} appears twice` });
    else result[lang] = text;
  });
  return Object.keys(result).length > 0 ? result : undefined;
}

// ---- counter filters: rows of {field, op, value}

export const FILTER_ROW = ["field", "value"] as const;

const listText = (value: unknown) => (Array.isArray(value) ? value.join(", ") : String(value));

export function filtersToForm(
  name: string,
  filters: readonly { field: string; op: string; value: unknown }[],
): FormValues {
  return Object.fromEntries(
    filters.flatMap((f, i) => [
      [`${name}.${i}.field`, f.field],
      [`${name}.${i}.op`, f.op],
      [`${name}.${i}.value`, listText(f.value)],
    ]),
  );
}

/**
 * A filter value as the API takes it: a whole number for number fields of the catalog and for
 * the order comparisons, else text (eq, ne and in compare as text, so "7" and 7 match alike).
 */
function filterValue(field: string, op: string, text: string): string | number {
  const numeric = fieldType(field) === "number" || ["gt", "gte", "lt", "lte"].includes(op);
  return numeric && /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

/** The filled rows; `in` takes a comma-separated list. */
export function readFilters(form: FormReader, name: string): unknown[] {
  return rowsOf(form.values, name).map((row) => {
    const field = (row.field ?? "").trim();
    const op = row.op ?? "eq";
    const text = (row.value ?? "").trim();
    const value =
      op === "in"
        ? text
            .split(",")
            .map((v) => filterValue(field, op, v.trim()))
            .filter((v) => v !== "")
        : filterValue(field, op, text);
    return { field, op, value };
  });
}

export const compactFilters = (values: FormValues, name: string) => compactRows(values, name, FILTER_ROW);
export const compactLocalized = (values: FormValues, name: string) => compactRows(values, name, ["text"]);

// ---- date-times, entered in UTC

const LOCAL_INPUT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;

/** An ISO instant as a datetime-local input shows it, in UTC. */
export const dateTimeToForm = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16) : "");

/** A datetime-local value read as UTC; any other text goes to the API as typed, which names the problem. */
export function readDateTime(form: FormReader, name: string): string | undefined {
  const text = form.text(name);
  if (text === "") return undefined;
  return LOCAL_INPUT.test(text) ? `${text}${text.length === 16 ? ":00" : ""}Z` : text;
}

// ---- the rows an "Add" button appends

/** An empty row for the list `list` (its path ends in the list's name). */
export function emptyRowFor(defaultLanguage: string) {
  return (list: string): FormValues => {
    const name = list.slice(list.lastIndexOf(".") + 1);
    if (name === "filters") return { field: "", op: "eq", value: "" };
    if (name === "challenges") {
      return {
        "challenge_name.0.lang": defaultLanguage,
        "challenge_name.0.text": "",
        challenge_goal_condition: "0",
        counter_scope: "session",
      };
    }
    if (name === "custom") return { key: "", value: "" };
    return { lang: "", text: "" };
  };
}

/** A time input gives HH:MM unless seconds were typed; the API takes HH:MM:SS. */
export function readWallClock(form: FormReader, name: string): string | undefined {
  const text = form.text(name);
  return /^\d\d:\d\d$/.test(text) ? `${text}:00` : text || undefined;
}

/** Points rewards as one text field: `coins:50, xp:10`. */
export const pointsRewardsToForm = (rewards: { system: string; amount: number }[]) =>
  rewards.map((r) => `${r.system}:${r.amount}`).join(", ");

/** `coins:50, xp:10` to the API's `points_rewards`; a part that is not `key:number` is a problem of the field. */
export function readPointsRewards(form: FormReader, name: string): { system: string; amount: number }[] | undefined {
  const text = form.text(name);
  if (text === "") return undefined;
  const rewards: { system: string; amount: number }[] = [];
  for (const part of text.split(",")) {
    const match = /^\s*([^:\s]+)\s*:\s*(\d{1,13})\s*$/.exec(part);
    if (!match) {
      form.problems.push({
        field: name,
        problem: "must be key:amount pairs separated by commas, e.g. coins:50, xp:10",
      });
      return undefined;
    }
    rewards.push({ system: match[1], amount: Number(match[2]) });
  }
  return rewards;
}
