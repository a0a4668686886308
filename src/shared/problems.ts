import type { FieldProblem } from "./domain-errors";

/**
 * zod's issues in plain words, for the API's errors[] and message and for the console alike:
 * every problem says the rule the value broke ("must not be empty", "must be at most 100
 * characters", "must be one of: sum, max"), never zod's own wording, and a sentence puts the field
 * before it ("name must not be empty"). A message the schema gives itself (a refinement's, a
 * regex's "must be lower-case letters...") is kept as it is.
 */

/** What the problems read of an issue: any of zod's issues (z.core.$ZodIssue), or one made by hand. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
  readonly input?: unknown;
  readonly expected?: unknown;
  readonly origin?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly inclusive?: unknown;
  readonly exact?: unknown;
  readonly format?: unknown;
  readonly pattern?: unknown;
  readonly prefix?: unknown;
  readonly suffix?: unknown;
  readonly includes?: unknown;
  readonly divisor?: unknown;
  readonly values?: unknown;
  readonly keys?: unknown;
  readonly errors?: unknown;
  readonly options?: unknown;
  readonly discriminator?: unknown;
  readonly issues?: unknown;
}

/** `levels.1.name`: the path as errors[].field names it, and as the console's inputs are named. */
export const fieldOfPath = (path: readonly PropertyKey[]) => path.map(String).join(".");

/** `levels[1].name`: a field as a sentence names it, list indexes in brackets. */
export const fieldLabel = (field: string) =>
  field.replace(/\.(\d+)(?=\.|$)/g, "[$1]").replace(/^(\d+)(?=\.|\[|$)/, "[$1]");

/**
 * One problem as a sentence: the field, then the rule ("name must not be empty"). A problem that
 * is a sentence of its own (it starts with a capital) stands alone; one that does not start with
 * a verb (a quoted key, a count, "keys must...") follows the field after a colon.
 */
export function problemSentence(p: FieldProblem, label = fieldLabel(p.field)): string {
  if (/^[A-Z]/.test(p.problem)) return p.problem;
  return PREDICATE.test(p.problem) ? `${label} ${p.problem}` : `${label}: ${p.problem}`;
}

const PREDICATE = /^(must|is|are|has|have|may|can|cannot|does|do|needs|takes|matches|should|would)\b/;

/** Whether a problem is a rule that reads after its field's name ("must not be empty"). */
export const isPredicate = (problem: string) => PREDICATE.test(problem);

/** How a value is named after "not": "a number", "an array", "null". */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : "a number";
  if (typeof value === "object") return "an object";
  return typeof value === "undefined" ? "nothing" : `a ${typeof value}`;
}

/** zod's name of an input's type (`received ...` of its own message), for a value the issue no longer carries. */
const ZOD_RECEIVED: Record<string, string> = {
  null: "null",
  array: "an array",
  object: "an object",
  number: "a number",
  NaN: "NaN",
  string: "a string",
  boolean: "a boolean",
};

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
  tuple: "an array",
  date: "a date",
  null: "null",
};

const FORMATS: Record<string, string> = {
  datetime: "must be a date-time such as 2026-01-01T00:00:00Z",
  date: "must be a date such as 2026-01-01",
  time: "must be a time such as 09:30:00",
  duration: "must be a duration such as P1D",
  url: "must be an absolute URL",
  email: "must be an email address",
  uuid: "must be a UUID",
  guid: "must be a UUID",
  ipv4: "must be an IPv4 address",
  ipv6: "must be an IPv6 address",
  base64: "must be base64",
  base64url: "must be base64url",
  json_string: "must be JSON text",
  jwt: "must be a JWT",
};

/** A value of a list of allowed values as a sentence shows it: strings as they are. */
const shown = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "bigint" ? value.toString() : JSON.stringify(value);

/** The value the issue is about: the issue's own input when zod kept it, else the one at its path in `root`. */
const NOT_KNOWN = Symbol("not known");
function valueAt(issue: IssueLike, root: unknown): unknown {
  if ("input" in issue) return issue.input;
  if (root === NOT_KNOWN) return NOT_KNOWN;
  let value = root;
  for (const key of issue.path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * zod's English default for this issue, to tell it from a message the schema gave: only defaults
 * are put in plain words. An invalid_type's default ends with the received type, which the issue
 * no longer carries, so only its start is compared.
 */
function isDefaultMessage(issue: IssueLike): boolean {
  const m = issue.message;
  switch (issue.code) {
    case "invalid_type":
      return m.startsWith(`Invalid input: expected ${String(issue.expected)}, received `);
    case "too_small":
      return m.startsWith("Too small: expected ");
    case "too_big":
      return m.startsWith("Too big: expected ");
    case "invalid_value":
      return m.startsWith("Invalid input: expected ") || m.startsWith("Invalid option: expected one of ");
    case "invalid_format":
      return /^Invalid (string: must |[\w .-]+$)/.test(m);
    case "not_multiple_of":
      return m.startsWith("Invalid number: must be a multiple of ");
    case "unrecognized_keys":
      return m.startsWith("Unrecognized key");
    case "invalid_union":
      return m === "Invalid input" || m.startsWith("Invalid discriminator value") || m.startsWith("Invalid input: ");
    case "invalid_key":
      return m.startsWith("Invalid key in ");
    case "invalid_element":
      return m.startsWith("Invalid value in ");
    default:
      return m === "Invalid input";
  }
}

function sizeProblem(issue: IssueLike, bound: "at least" | "at most"): string {
  const limit = Number(bound === "at least" ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  const origin = String(issue.origin);
  const unit =
    origin === "string"
      ? "characters"
      : origin === "file"
        ? "bytes"
        : origin === "array" || origin === "set" || origin === "map"
          ? "items"
          : null;
  if (unit) {
    const n = inclusive ? limit : bound === "at least" ? limit + 1 : limit - 1;
    if (bound === "at least" && n === 1) return "must not be empty";
    if (issue.exact)
      return unit === "characters" || unit === "bytes"
        ? `must be exactly ${n} ${unit}`
        : `must have exactly ${n} ${unit}`;
    return unit === "characters" || unit === "bytes"
      ? `must be ${bound} ${n} ${unit}`
      : `must have ${bound} ${n} ${unit}`;
  }
  if (origin === "date")
    return `must be ${bound === "at least" ? "on or after" : "on or before"} ${new Date(limit).toISOString()}`;
  if (issue.exact) return `must be exactly ${limit}`;
  if (bound === "at least") {
    if (inclusive) return limit === 0 ? "must not be negative" : `must be at least ${limit}`;
    return limit === 0 ? "must be greater than 0" : `must be greater than ${limit}`;
  }
  return inclusive ? `must be at most ${limit}` : `must be less than ${limit}`;
}

function typeProblem(issue: IssueLike, value: unknown): string {
  const expected = String(issue.expected);
  if (value === undefined || expected === "nonoptional") return "is required";
  if (value === NOT_KNOWN) {
    const received = /, received (\w+)$/.exec(issue.message)?.[1];
    if (received === "undefined") return "is required";
    const wanted = EXPECTED[expected] ?? expected;
    return received && ZOD_RECEIVED[received]
      ? `must be ${wanted}, not ${ZOD_RECEIVED[received]}`
      : `must be ${wanted}`;
  }
  if (expected === "int" && typeof value === "number") return "must be a whole number";
  if (expected === "number" && typeof value === "number") return "must be a finite number";
  return `must be ${EXPECTED[expected] ?? expected}, not ${describe(value)}`;
}

function formatProblem(issue: IssueLike): string {
  const format = String(issue.format);
  if (format === "starts_with") return `must start with "${String(issue.prefix)}"`;
  if (format === "ends_with") return `must end with "${String(issue.suffix)}"`;
  if (format === "includes") return `must contain "${String(issue.includes)}"`;
  if (format === "regex") return `must match the pattern ${String(issue.pattern)}`;
  return FORMATS[format] ?? `must be in the ${format} format`;
}

/** The problems of a union that no option took: the option the value came closest to, or the types it may have. */
function unionProblems(issue: IssueLike, value: unknown, root: unknown, field: string): FieldProblem[] {
  const options = Array.isArray(issue.options) ? issue.options : [];
  // A discriminated union's issue is at its discriminator's path already.
  if (options.length > 0) return [{ field, problem: `must be one of: ${options.map(shown).join(", ")}` }];
  if (issue.inclusive === false) return [{ field, problem: "matches more than one of its allowed forms" }];
  const branches = (Array.isArray(issue.errors) ? issue.errors : []) as IssueLike[][];
  if (value === undefined) return [{ field, problem: "is required" }];
  const wrongType = (b: IssueLike[]) => b.length === 1 && b[0].path.length === 0 && b[0].code === "invalid_type";
  // An option of the value's own type that failed on its content says most ("must be at most 500 characters").
  const closest = branches.find((b) => b.length > 0 && !wrongType(b));
  if (closest) {
    const nested = (b: IssueLike) => ({ ...b, path: [...issue.path, ...b.path] }) as IssueLike;
    return closest.flatMap((b) => problemsOfIssue(nested(b), root));
  }
  const types = branches.filter(wrongType).map((b) => EXPECTED[String(b[0].expected)] ?? String(b[0].expected));
  if (types.length === 0) return [{ field, problem: "is not valid" }];
  const wanted = [...new Set(types)];
  const either = wanted.length === 1 ? wanted[0] : `${wanted.slice(0, -1).join(", ")} or ${wanted[wanted.length - 1]}`;
  return [{ field, problem: value === NOT_KNOWN ? `must be ${either}` : `must be ${either}, not ${describe(value)}` }];
}

/**
 * The problems of one zod issue, each with its field (`target` when the issue is about the whole
 * input). `root` is the validated input, when known: it tells a missing value ("is required") from
 * one of the wrong type ("must be a string, not a number").
 */
export function problemsOfIssue(issue: IssueLike, root: unknown = NOT_KNOWN, target = "body"): FieldProblem[] {
  const field = fieldOfPath(issue.path) || target;
  const one = (problem: string) => [{ field, problem }];
  if (!isDefaultMessage(issue)) return one(issue.message);
  const value = valueAt(issue, root);
  switch (issue.code) {
    case "invalid_type":
      return one(typeProblem(issue, value));
    case "too_small":
      return one(sizeProblem(issue, "at least"));
    case "too_big":
      return one(sizeProblem(issue, "at most"));
    case "invalid_format":
      return one(formatProblem(issue));
    case "invalid_value": {
      const values = Array.isArray(issue.values) ? issue.values : [];
      if (value === undefined) return one("is required");
      return one(
        values.length === 1 ? `must be ${shown(values[0])}` : `must be one of: ${values.map(shown).join(", ")}`,
      );
    }
    case "not_multiple_of":
      return one(`must be a multiple of ${String(issue.divisor)}`);
    case "unrecognized_keys": {
      const keys = Array.isArray(issue.keys) ? (issue.keys as string[]) : [];
      const prefix = fieldOfPath(issue.path);
      return keys.map((key) => ({ field: prefix ? `${prefix}.${key}` : key, problem: "is not a known field" }));
    }
    case "invalid_union":
      return unionProblems(issue, value, root, field);
    case "invalid_key": {
      // The path ends with the key itself; a message of the key's schema says the rule on its own.
      const inner = (Array.isArray(issue.issues) ? issue.issues : []) as IssueLike[];
      if (inner[0] && !isDefaultMessage(inner[0])) return one(inner[0].message);
      const first = inner[0] ? problemsOfIssue({ ...inner[0], path: [] }, NOT_KNOWN, "key")[0]?.problem : undefined;
      return one(first ? `is not an allowed key: keys ${first}` : "is not an allowed key");
    }
    case "invalid_element":
      return one("has an item that is not valid");
    default:
      return one("is not valid");
  }
}

/**
 * Every problem of a failed validation, in the order zod found them. `input`, when given (even as
 * undefined), is what was validated; `target` names the whole input ("body", "query").
 */
export function problemsOfIssues(
  issues: readonly IssueLike[],
  options: { input?: unknown; target?: string } = {},
): FieldProblem[] {
  const root = "input" in options ? options.input : NOT_KNOWN;
  return tightestBounds(issues).flatMap((issue) => problemsOfIssue(issue, root, options.target));
}

/**
 * One bound of each side per field: a whole number past both the schema's maximum and the safe
 * integers is told the schema's maximum only, the tighter rule.
 */
function tightestBounds(issues: readonly IssueLike[]): IssueLike[] {
  const bound = (i: IssueLike) =>
    i.code === "too_big" ? Number(i.maximum) : i.code === "too_small" ? -Number(i.minimum) : null;
  const tightest = new Map<string, number>();
  for (const issue of issues) {
    const b = bound(issue);
    if (b === null || !isDefaultMessage(issue)) continue;
    const key = `${issue.code} ${fieldOfPath(issue.path)}`;
    tightest.set(key, Math.min(tightest.get(key) ?? Infinity, b));
  }
  const kept = new Set<string>();
  return issues.filter((issue) => {
    const b = bound(issue);
    if (b === null || !isDefaultMessage(issue)) return true;
    const key = `${issue.code} ${fieldOfPath(issue.path)}`;
    if (b !== tightest.get(key) || kept.has(key)) return false;
    kept.add(key);
    return true;
  });
}

/** The message of a 400 for failed validation of `target`: every problem as a sentence. */
export const invalidMessage = (target: string, problems: readonly FieldProblem[]) =>
  `Invalid ${target}: ${problems.map((p) => problemSentence(p)).join("; ")}`;
