import { raw } from "hono/html";
import { FILTER_OPS } from "../../../rules/counter";
import { PREDEFINED_EVENTS } from "../../../rules/predefined-events";
import { rowsOf } from "../core/form";
import { catalogFields } from "../forms/events";
import { AddRowButton, fieldId, RemoveRowButton, SelectField, TextField, type FormState } from "./forms";

/**
 * What a challenge, level challenge or leaderboard counts: the event name (the catalog's 64
 * events offered), the value field (that event's fields offered) and the filter builder. The
 * catalog goes to the page once as JSON, so that the offered fields follow the event name as it
 * is typed (console.js); without script the fields of the saved event are offered.
 */
const EVENTS_LIST = "catalog-events";
const fieldsListId = (eventField: string) => `${fieldId(eventField)}-fields`;

/** JSON in a <script type="application/json"> is data, not code: `<` is escaped so no tag can end it. */
export const jsonData = (id: string, value: unknown) =>
  raw(`<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`);

/** Once per page that has counter fields. */
export function EventCatalogData() {
  const catalog = Object.fromEntries(
    Object.entries(PREDEFINED_EVENTS).map(([name, e]) => [name, [...e.required, ...e.optional]]),
  );
  return (
    <>
      <datalist id={EVENTS_LIST}>
        {Object.keys(PREDEFINED_EVENTS).map((name) => (
          <option value={name} />
        ))}
      </datalist>
      {jsonData("event-catalog", catalog)}
    </>
  );
}

/** `optional`: the form takes something else instead (a leaderboard may rank a points system). */
export function EventNameField(props: { form: FormState; name: string; optional?: boolean }) {
  const current = props.form.values[props.name] ?? "";
  return (
    <>
      <TextField
        form={props.form}
        name={props.name}
        label="Event name"
        required={!props.optional}
        list={EVENTS_LIST}
        class="event-name"
        help="One of the 64 events of the catalog (suggested as you type), or your own event name."
      />
      <datalist id={fieldsListId(props.name)} data-event-fields-for={fieldId(props.name)}>
        {catalogFields(current).map((f) => (
          <option value={f} />
        ))}
      </datalist>
    </>
  );
}

export function ValueFieldField(props: { form: FormState; name: string; eventField: string; what: string }) {
  return (
    <TextField
      form={props.form}
      name={props.name}
      label="Value field"
      list={fieldsListId(props.eventField)}
      placeholder="amount"
      help={`The event's meta data field that ${props.what}. Empty: the event's amount when it has one, else 1 per event.`}
    />
  );
}

const OP_LABELS: Record<string, string> = { eq: "=", ne: "≠", gt: ">", gte: "≥", lt: "<", lte: "≤", in: "in list" };

/** Rows of {field, op, value}; every filter must pass for an event to count. */
export function FiltersField(props: { form: FormState; name: string; eventField: string }) {
  const id = fieldId(props.name);
  const rows = rowsOf(props.form.values, props.name);
  const problems = Object.entries(props.form.errors).filter(([f]) => f === props.name);
  return (
    <fieldset class="field filters" id={id}>
      <legend>Filters</legend>
      {rows.length === 0 && <p class="muted">No filters: every event of this name counts.</p>}
      {rows.map((row, i) => {
        const rowName = `${props.name}.${i}`;
        const rowForm = props.form;
        return (
          <div class="filter-row">
            <TextField form={rowForm} name={`${rowName}.field`} label="Field" list={fieldsListId(props.eventField)} />
            <SelectField
              form={rowForm}
              name={`${rowName}.op`}
              label="Operator"
              options={FILTER_OPS.map((op) => [op, OP_LABELS[op]] as const)}
            />
            <TextField
              form={rowForm}
              name={`${rowName}.value`}
              label="Value"
              placeholder={row.op === "in" ? "a, b, c" : ""}
            />
            <RemoveRowButton row={rowName} label={`Remove filter ${i + 1}`} readOnly={props.form.readOnly} />
          </div>
        );
      })}
      <AddRowButton list={props.name} label="Add a filter" readOnly={props.form.readOnly} />
      <p class="help">
        Every filter must pass for an event to count. = and ≠ compare as text, the order comparisons as whole numbers;
        "in list" takes values separated by commas.
      </p>
      {problems.length > 0 && (
        <ul class="field-errors">{problems.flatMap(([, list]) => list.map((p) => <li>{p}</li>))}</ul>
      )}
    </fieldset>
  );
}

let zones: string[] | undefined;
/** The runtime's IANA time zones, for the zone field's search. */
function timeZones(): string[] {
  zones ??= typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  return zones;
}

export function TimeZoneField(props: { form: FormState; name: string }) {
  return (
    <>
      <TextField
        form={props.form}
        name={props.name}
        label="Time zone"
        list="time-zones"
        placeholder="Europe/Berlin"
        help="IANA time zone of the reset time (type to search, e.g. Berlin). Resets follow daylight saving time."
      />
      <datalist id="time-zones">
        {timeZones().map((z) => (
          <option value={z} />
        ))}
      </datalist>
    </>
  );
}

export const PERIOD_OPTIONS = [
  ["never", "never"],
  ["d", "d: daily"],
  ["w", "w: weekly, on Monday"],
  ["m", "m: monthly, on the 1st"],
] as const;

/** The choices of a counter's goal condition and scope, with their help: challenges and level challenges share them. */
export const GOAL_CONDITION_OPTIONS = [
  ["0", "0: complete when the counter reaches the goal (counter ≥ goal)"],
  ["1", "1: complete when an event leaves the counter at or below the goal (time targets)"],
] as const;

export const COUNTER_SCOPE_OPTIONS = [
  ["session", "session"],
  ["total", "total"],
] as const;

export const COUNTER_SCOPE_HELP =
  "session (the spec's rule): an event with a new session_id starts the counter again. total: sessions do not reset it.";
