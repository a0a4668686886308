import type { Child } from "hono/jsx";
import { problemSentence } from "../../../shared/problems";
import { errorsUnder, rowsOf, type FieldErrors, type FormValues } from "../core/form";
import { usePage } from "./context";

/**
 * Form controls. Every input has a visible label bound by `for`, its help text and its problems
 * (the API's errors[] for that field) right below it; a form re-rendered after an error keeps
 * every value that was typed.
 */
export interface FormState {
  values: FormValues;
  errors: FieldErrors;
  /** A viewer sees the form, disabled. */
  readOnly?: boolean;
}

export const emptyForm = (values: FormValues = {}): FormState => ({ values, errors: {} });

export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

export function CsrfField() {
  return <input type="hidden" name="_csrf" value={usePage().session.csrfToken} />;
}

/**
 * A POST form with its CSRF token. The server checks every field with the API's own rules and
 * answers with the problems next to the fields, so the browser's own checks are off (novalidate):
 * one set of rules, one way of showing them. Re-rendering keeps the scroll position (`show:none`).
 * A form with a file input takes `enctype: "multipart/form-data"` (htmx then sends it so too).
 * A second submit while the form posts is dropped (its buttons are disabled meanwhile, by
 * console.browser.js): whatever the answer swaps in, the form is not posted twice.
 */
export function PostForm(props: {
  action: string;
  children: Child;
  class?: string;
  confirm?: string;
  id?: string;
  swap?: string;
  enctype?: "multipart/form-data";
}) {
  return (
    <form
      method="post"
      novalidate
      action={props.action}
      enctype={props.enctype}
      class={props.class}
      id={props.id}
      data-confirm={props.confirm}
      hx-swap={props.swap ?? "innerHTML show:none"}
      hx-sync="this:drop"
    >
      <CsrfField />
      {props.children}
    </form>
  );
}

/** A destructive action: asks before it posts, and says what it destroys. */
export function DeleteButton(props: { action: string; confirm: string; label?: string }) {
  return (
    <PostForm action={props.action} confirm={props.confirm} class="inline" swap="innerHTML">
      <button type="submit" class="danger">
        {props.label ?? "Delete"}
      </button>
    </PostForm>
  );
}

/** Problems of the form that belong to no field (a conflict, an unknown category). */
export function FormErrors(props: { errors: FieldErrors; fields: readonly string[] }) {
  const general = Object.entries(props.errors).filter(
    ([field]) => !props.fields.some((f) => field === f || field.startsWith(`${f}.`)),
  );
  if (general.length === 0) return null;
  return (
    <div class="form-errors" role="alert">
      <p>The form was not saved:</p>
      <ul>
        {general.flatMap(([field, problems]) =>
          problems.map((p) => (
            <li>{field === "body" || field === "form" ? p : problemSentence({ field, problem: p })}</li>
          )),
        )}
      </ul>
    </div>
  );
}

function Problems(props: { id: string; problems: string[] }) {
  if (props.problems.length === 0) return null;
  return (
    <ul class="field-errors" id={props.id}>
      {props.problems.map((p) => (
        <li>{p}</li>
      ))}
    </ul>
  );
}

/** Outside the label, so that the label is the field's name and nothing more. */
function RequiredMark() {
  return (
    <span class="required" title="required" aria-hidden="true">
      *
    </span>
  );
}

interface FieldProps {
  form: FormState;
  name: string;
  label: string;
  help?: Child;
  required?: boolean;
}

/** aria attributes that tie an input to its help and its problems. */
function described(id: string, help: boolean, problems: string[]) {
  const ids = [help ? `${id}-help` : null, problems.length > 0 ? `${id}-errors` : null].filter(Boolean).join(" ");
  return { "aria-describedby": ids || undefined, "aria-invalid": problems.length > 0 ? "true" : undefined };
}

/** What is said below a field: its help, then its problems. */
function HelpAndProblems(props: { id: string; help?: Child; problems: string[] }) {
  return (
    <>
      {props.help && (
        <p class="help" id={`${props.id}-help`}>
          {props.help}
        </p>
      )}
      <Problems id={`${props.id}-errors`} problems={props.problems} />
    </>
  );
}

function FieldFrame(props: FieldProps & { children: Child; problems: string[]; id: string; class?: string }) {
  return (
    <div class={`field${props.problems.length > 0 ? " invalid" : ""}${props.class ? ` ${props.class}` : ""}`}>
      <label for={props.id}>{props.label}</label>
      {props.required && <RequiredMark />}
      {props.children}
      <HelpAndProblems id={props.id} help={props.help} problems={props.problems} />
    </div>
  );
}

type InputType = "text" | "number" | "url" | "email" | "password" | "datetime-local" | "time" | "search";

export function TextField(
  props: FieldProps & {
    type?: InputType;
    list?: string;
    placeholder?: string;
    autocomplete?: string;
    class?: string;
    step?: string;
    min?: string;
    /** More attributes of the input: htmx's, for a field that asks the server as one types. */
    attrs?: Record<string, string>;
  },
) {
  const id = fieldId(props.name);
  const problems = errorsUnder(props.form.errors, props.name);
  return (
    <FieldFrame {...props} id={id} problems={problems}>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.type === "password" ? "" : (props.form.values[props.name] ?? "")}
        list={props.list}
        placeholder={props.placeholder}
        autocomplete={props.autocomplete}
        step={props.step ?? (props.type === "number" ? "1" : props.type === "time" ? "1" : undefined)}
        min={props.min}
        required={props.required}
        disabled={props.form.readOnly}
        {...props.attrs}
        {...described(id, Boolean(props.help), problems)}
      />
    </FieldFrame>
  );
}

export function TextArea(props: FieldProps & { rows?: number; class?: string }) {
  const id = fieldId(props.name);
  const problems = errorsUnder(props.form.errors, props.name);
  return (
    <FieldFrame {...props} id={id} problems={problems}>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 3}
        disabled={props.form.readOnly}
        {...described(id, Boolean(props.help), problems)}
      >
        {props.form.values[props.name] ?? ""}
      </textarea>
    </FieldFrame>
  );
}

export function SelectField(props: FieldProps & { options: readonly (readonly [string, string])[] }) {
  const id = fieldId(props.name);
  const problems = errorsUnder(props.form.errors, props.name);
  const current = props.form.values[props.name] ?? "";
  return (
    <FieldFrame {...props} id={id} problems={problems}>
      <select
        id={id}
        name={props.name}
        disabled={props.form.readOnly}
        {...described(id, Boolean(props.help), problems)}
      >
        {props.options.map(([value, text]) => (
          <option value={value} selected={value === current}>
            {text}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function CheckboxField(props: FieldProps) {
  const id = fieldId(props.name);
  const problems = errorsUnder(props.form.errors, props.name);
  const on = (props.form.values[props.name] ?? "") !== "";
  return (
    <div class={`field check${problems.length > 0 ? " invalid" : ""}`}>
      <input
        type="checkbox"
        id={id}
        name={props.name}
        checked={on}
        disabled={props.form.readOnly}
        {...described(id, Boolean(props.help), problems)}
      />
      <label for={id}>{props.label}</label>
      <HelpAndProblems id={id} help={props.help} problems={problems} />
    </div>
  );
}

/** Exclusive choices with a legend; each choice has its own label. */
export function RadioField(props: FieldProps & { options: readonly (readonly [string, string])[] }) {
  const id = fieldId(props.name);
  const problems = errorsUnder(props.form.errors, props.name);
  const current = props.form.values[props.name] ?? props.options[0][0];
  return (
    <fieldset
      class={`field radios${problems.length > 0 ? " invalid" : ""}`}
      id={id}
      {...described(id, Boolean(props.help), problems)}
    >
      <legend>{props.label}</legend>
      {props.options.map(([value, text], i) => (
        <div class="check">
          <input
            type="radio"
            id={`${id}-${i}`}
            name={props.name}
            value={value}
            checked={value === current}
            disabled={props.form.readOnly}
          />
          <label for={`${id}-${i}`}>{text}</label>
        </div>
      ))}
      <HelpAndProblems id={id} help={props.help} problems={problems} />
    </fieldset>
  );
}

/** The add and remove buttons of a list: they re-render the form with one row more or less, saving nothing. */
export function AddRowButton(props: { list: string; label: string; readOnly?: boolean }) {
  if (props.readOnly) return null;
  return (
    <button type="submit" name="_add" value={props.list} class="secondary small" formnovalidate>
      {props.label}
    </button>
  );
}

export function RemoveRowButton(props: { row: string; label: string; readOnly?: boolean }) {
  if (props.readOnly) return null;
  return (
    <button
      type="submit"
      name="_remove"
      value={props.row}
      class="link danger small"
      formnovalidate
      aria-label={props.label}
      title={props.label}
    >
      Remove
    </button>
  );
}

/**
 * A localized text: one row per language (code and text), as the API's `{"en": "...", "de": "..."}`.
 * A form without any row shows one for the app's default language.
 */
export function LocalizedField(props: FieldProps & { defaultLanguage: string; multiline?: boolean }) {
  const id = fieldId(props.name);
  const problems = errorsUnder(props.form.errors, props.name);
  const rows = rowsOf(props.form.values, props.name);
  const shown = rows.length > 0 ? rows : [{ lang: props.defaultLanguage, text: "" }];
  return (
    <fieldset
      class={`field localized${problems.length > 0 ? " invalid" : ""}`}
      id={id}
      {...described(id, Boolean(props.help), problems)}
    >
      <legend>
        {props.label}
        {props.required && <RequiredMark />}
      </legend>
      {shown.map((row, i) => {
        const rowId = `${id}-${i}`;
        return (
          <div class="localized-row">
            <div class="lang">
              <label for={`${rowId}-lang`}>Language</label>
              <input
                id={`${rowId}-lang`}
                name={`${props.name}.${i}.lang`}
                value={row.lang ?? ""}
                maxlength={5}
                placeholder="en"
                disabled={props.form.readOnly}
              />
            </div>
            <div class="text">
              <label for={`${rowId}-text`}>Text{row.lang ? ` (${row.lang})` : ""}</label>
              {props.multiline ? (
                <textarea id={`${rowId}-text`} name={`${props.name}.${i}.text`} rows={2} disabled={props.form.readOnly}>
                  {row.text ?? ""}
                </textarea>
              ) : (
                <input
                  id={`${rowId}-text`}
                  name={`${props.name}.${i}.text`}
                  value={row.text ?? ""}
                  disabled={props.form.readOnly}
                />
              )}
            </div>
            {shown.length > 1 && (
              <RemoveRowButton
                row={`${props.name}.${i}`}
                label={`Remove language ${row.lang ?? ""}`}
                readOnly={props.form.readOnly}
              />
            )}
          </div>
        );
      })}
      <AddRowButton list={props.name} label="Add a language" readOnly={props.form.readOnly} />
      <HelpAndProblems id={id} help={props.help} problems={problems} />
    </fieldset>
  );
}
