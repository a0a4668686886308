import type { FieldProblem } from "../../../shared/domain-errors";
import { isPredicate, problemSentence, problemsOfIssues as problemsOf, type IssueLike } from "../../../shared/problems";

/**
 * HTML forms against the admin API's JSON inputs. A submitted form is a flat map of names to
 * values; names are the paths of the JSON input (`filters.0.op`, `challenge_name.1.text`), so
 * that the API's `errors[].field` points straight at the input that holds the value.
 */
export type FormValues = Record<string, string>;
/** Problems by field path, as the API's errors[] names them. */
export type FieldErrors = Record<string, string[]>;

/** Names starting with `_` are the form's own controls (CSRF token, add and remove buttons), never data. */
export const isControl = (name: string) => name.startsWith("_");

/** The last value of each name of a parsed urlencoded or multipart body; files are ignored. */
export function formValuesOf(body: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const [name, value] of Object.entries(body)) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === "string") values[name] = last;
  }
  return values;
}

export function errorsOf(problems: readonly FieldProblem[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, problem } of problems) (errors[field] ??= []).push(problem);
  return errors;
}

/**
 * The problems of one field and of everything below it (a localized text's languages, a list's
 * rows), each as a sentence that names its field ("challenge_name[1].text must not be empty"). A
 * text of the field's own that is no rule (a whole message) is shown as it is, next to its field.
 */
export function errorsUnder(errors: FieldErrors, name: string): string[] {
  return Object.entries(errors)
    .filter(([field]) => field === name || field.startsWith(`${name}.`))
    .flatMap(([field, problems]) =>
      problems.map((problem) =>
        field === name && !isPredicate(problem) ? problem : problemSentence({ field, problem }),
      ),
    );
}

/**
 * zod issues as the API's errors[] (same field names, same plain messages); `input` is the decoded
 * form, so that a value left empty reads "is required".
 */
export const problemsOfIssues = (issues: readonly IssueLike[], input: unknown): FieldProblem[] =>
  problemsOf(issues, { input });

// ---- reading values

/**
 * A decoder's result: the JSON input to validate, the problems found while reading it, and the values to show again.
 */
export interface Decoded {
  input: Record<string, unknown>;
  problems: FieldProblem[];
  values: FormValues;
}

/** Reads typed values out of a form, collecting problems of its own (a number that is not one). */
export class FormReader {
  readonly problems: FieldProblem[] = [];
  constructor(readonly values: FormValues) {}

  text(name: string): string {
    return (this.values[name] ?? "").trim();
  }

  /** A text, or undefined when empty, so that the API's default applies. */
  optionalText(name: string): string | undefined {
    return this.text(name) || undefined;
  }

  /** A text, or null when empty (the API's "none"). */
  nullableText(name: string): string | null {
    return this.text(name) || null;
  }

  checked(name: string): boolean {
    return name in this.values && this.values[name] !== "" && this.values[name] !== "false";
  }

  /**
   * A whole number, or undefined when empty; anything else is a problem of the field. One too
   * large to be exact is passed on, so that the schema names the limit it passes.
   */
  integer(name: string): number | undefined {
    const text = this.text(name);
    if (text === "") return undefined;
    if (!/^[-+]?\d+$/.test(text)) {
      this.problems.push({ field: name, problem: "must be a whole number" });
      return undefined;
    }
    return Number(text);
  }

  /** A field that holds JSON: its value, undefined when empty, or a problem of the field. */
  json(name: string): unknown {
    const raw = this.text(name);
    if (raw === "") return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      this.problems.push({ field: name, problem: "must be JSON: a list like the example" });
      return undefined;
    }
  }

  /** A text typed as is, or as a JSON object of languages; undefined when empty. */
  localized(name: string): unknown {
    const raw = this.text(name);
    if (raw.startsWith("{")) {
      try {
        return JSON.parse(raw);
      } catch {
        this.problems.push({
          field: name,
          problem: 'must be a text, or JSON such as {"en": "Daily", "de": "Täglich"}',
        });
      }
    }
    return raw === "" ? undefined : raw;
  }
}

// ---- lists of rows (languages, filters, level challenges)

const ROW_NAME = /^(\d+)\.(.+)$/;

/** The rows of a list, in index order, each as its own values (names without the `prefix.N.`). */
export function rowsOf(values: FormValues, prefix: string): FormValues[] {
  const rows = new Map<number, FormValues>();
  for (const [name, value] of Object.entries(values)) {
    if (!name.startsWith(`${prefix}.`)) continue;
    const match = ROW_NAME.exec(name.slice(prefix.length + 1));
    if (!match) continue;
    const index = Number(match[1]);
    if (!rows.has(index)) rows.set(index, {});
    rows.get(index)![match[2]] = value;
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

/** `values` with the list under `prefix` replaced by `rows`, numbered from 0. */
export function withRows(values: FormValues, prefix: string, rows: FormValues[]): FormValues {
  const kept = Object.fromEntries(Object.entries(values).filter(([name]) => !name.startsWith(`${prefix}.`)));
  rows.forEach((row, index) => {
    for (const [name, value] of Object.entries(row)) kept[`${prefix}.${index}.${name}`] = value;
  });
  return kept;
}

/**
 * The list without the rows whose `fields` are all empty (a select's preset value does not make a
 * row), renumbered from 0: what the input is built from and what is shown again, so that the
 * API's row numbers match the rows on screen.
 */
export function compactRows(values: FormValues, prefix: string, fields: readonly string[]): FormValues {
  const filled = (row: FormValues) => fields.some((name) => (row[name] ?? "").trim() !== "");
  return withRows(values, prefix, rowsOf(values, prefix).filter(filled));
}

/**
 * The form's add and remove buttons: `_add=<list path>` appends an empty row, `_remove=<row
 * path>` drops one. Both only change what is shown; nothing is saved. Null when neither was pressed.
 */
export function editRows(values: FormValues, emptyRow: (list: string) => FormValues): FormValues | null {
  const add = values._add;
  const remove = values._remove;
  if (add) return withRows(values, add, [...rowsOf(values, add), emptyRow(add)]);
  if (remove) {
    const match = /^(.+)\.(\d+)$/.exec(remove);
    if (!match) return values;
    const [, list, index] = match;
    return withRows(
      values,
      list,
      rowsOf(values, list).filter((_, i) => i !== Number(index)),
    );
  }
  return null;
}
