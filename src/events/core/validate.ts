import type { FieldProblem } from "../../shared/domain-errors";
import { EVENT_NAME_MAX_LENGTH, eventNameCharacterProblem } from "../../shared/event-name";
import { fieldType, predefinedEvent, type CatalogEvent } from "../../rules/predefined-events";
import type { MetaValue } from "../../rules/counter";
import type { UserEvent } from "../../user/event";

/** Which credential the sender chose with `?auth=`; an access token already names the user. */
export type AuthMode = UserEvent["credential"];

export interface SenderContext {
  mode: AuthMode;
  /** The user of the access token (mode access_token only). */
  tokenUserId?: string;
}

/** An event as validated, before the intake stamps it with the app and the time of receipt. */
export type ValidEvent = Omit<UserEvent, "appId" | "receivedAt">;

export type Validation = { ok: true; event: ValidEvent } | { ok: false; errors: FieldProblem[] };

export const LIMITS = {
  idLength: 256,
  eventNameLength: EVENT_NAME_MAX_LENGTH,
  eventIdLength: 128,
  metaKeys: 50,
  metaKeyLength: 64,
  metaStringLength: 1000,
} as const;

export const DEFAULT_SESSION_ID = "persistent";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** How a wrong value is named in a problem: "a float", "a string", ... */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a float";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** `null` and absence mean the same: SDKs serialize unset optional fields either way. */
const absent = (value: unknown) => value === undefined || value === null;

/**
 * Checks one event payload (spec "Send an event" and the predefined catalog). Every problem is
 * reported at once, each naming its field; the result keeps only what is applied and stored.
 */
export function validateEvent(raw: unknown, sender: SenderContext): Validation {
  if (!isObject(raw))
    return { ok: false, errors: [{ field: "body", problem: `must be a JSON object, not ${describe(raw)}` }] };
  const errors: FieldProblem[] = [];
  const problem = (field: string, text: string) => errors.push({ field, problem: text });

  const text = (field: string, max: number, value = raw[field]): string | undefined => {
    if (absent(value)) return undefined;
    if (typeof value !== "string") return void problem(field, `must be a string, not ${describe(value)}`);
    if (value.length > max) return void problem(field, `must be at most ${max} characters`);
    return value;
  };

  const userId = resolveUser(raw.user_id, sender, problem, (value) => text("user_id", LIMITS.idLength, value));

  // An empty team or session id is what some clients send for "none".
  const teamId = text("team_id", LIMITS.idLength) || null;
  const sessionId = text("session_id", LIMITS.idLength) || DEFAULT_SESSION_ID;

  // The one rule of event names (shared/event-name.ts), which configuration checks too.
  const eventName = text("event_name", LIMITS.eventNameLength);
  if (eventName === "" || (eventName === undefined && absent(raw.event_name))) problem("event_name", "is required");
  const nameProblem = eventName ? eventNameCharacterProblem(eventName) : undefined;
  if (nameProblem) problem("event_name", nameProblem);

  let eventType: UserEvent["eventType"] = "single";
  if (!absent(raw.event_type)) {
    if (raw.event_type === "single" || raw.event_type === "group") eventType = raw.event_type;
    else problem("event_type", "must be 'single' or 'group'");
  }

  const eventId = text("event_id", LIMITS.eventIdLength);
  if (eventId === "") problem("event_id", "must not be empty");

  // `meta_data` is canonical; `metadata` is the name the send description uses.
  const metaField = absent(raw.meta_data) && !absent(raw.metadata) ? "metadata" : "meta_data";
  const metaData = checkMeta(raw[metaField], metaField, eventName, problem);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    event: {
      userId: userId!,
      teamId,
      eventName: eventName!,
      eventType,
      sessionId,
      metaData,
      eventId: eventId ?? null,
      credential: sender.mode,
    },
  };
}

function resolveUser(
  value: unknown,
  sender: SenderContext,
  problem: (field: string, text: string) => void,
  asText: (value: unknown) => string | undefined,
): string | undefined {
  if (sender.mode === "access_token") {
    // Unreal's SDK always writes user_id, empty when the game leaves it unset; naming the token's
    // own user says nothing new. Any other user is refused: a token speaks for its user only.
    if (!absent(value) && value !== "" && value !== sender.tokenUserId) {
      problem("user_id", "must not be sent with an access token: the token names the user");
    }
    return sender.tokenUserId;
  }
  if (absent(value)) return void problem("user_id", "is required when sending with an API key");
  const userId = asText(value);
  if (userId === "") problem("user_id", "must not be empty");
  return userId;
}

function checkMeta(
  value: unknown,
  field: string,
  eventName: string | undefined,
  problem: (field: string, text: string) => void,
): Record<string, MetaValue> {
  if (absent(value)) value = {};
  if (!isObject(value)) {
    problem(field, `must be an object of property names to integer or string values, not ${describe(value)}`);
    return {};
  }
  const definition = eventName === undefined ? undefined : predefinedEvent(eventName);
  return definition
    ? checkPredefinedMeta(value, field, eventName!, definition, problem)
    : checkCustomMeta(value, field, problem);
}

/** Only the event's own fields are kept (rule 5): other keys are neither checked nor stored. */
function checkPredefinedMeta(
  meta: Record<string, unknown>,
  field: string,
  eventName: string,
  definition: CatalogEvent,
  problem: (field: string, text: string) => void,
): Record<string, MetaValue> {
  const kept: Record<string, MetaValue> = {};
  for (const key of definition.required) {
    if (absent(meta[key])) problem(`${field}.${key}`, `is required for event '${eventName}'`);
  }
  for (const key of [...definition.required, ...definition.optional]) {
    const value = meta[key];
    if (absent(value)) continue;
    const wrong = fieldType(key) === "number" ? integerProblem(value) : stringProblem(value);
    if (wrong) problem(`${field}.${key}`, wrong);
    else kept[key] = value as MetaValue;
  }
  return kept;
}

/** Custom events keep every key whose value is an integer or a string; floats are refused (rule 6). */
function checkCustomMeta(
  meta: Record<string, unknown>,
  field: string,
  problem: (field: string, text: string) => void,
): Record<string, MetaValue> {
  const keys = Object.keys(meta).filter((key) => !absent(meta[key]));
  if (keys.length > LIMITS.metaKeys) {
    problem(field, `must have at most ${LIMITS.metaKeys} properties`);
    return {};
  }
  const kept: Record<string, MetaValue> = {};
  for (const key of keys) {
    const value = meta[key];
    if (key.length > LIMITS.metaKeyLength) {
      problem(field, `property names must be at most ${LIMITS.metaKeyLength} characters`);
      continue;
    }
    const wrong =
      typeof value === "string" ? stringProblem(value) : integerProblem(value, "must be an integer or a string");
    if (wrong) problem(`${field}.${key}`, wrong);
    else kept[key] = value as MetaValue;
  }
  return kept;
}

function integerProblem(value: unknown, expected = "must be an integer"): string | undefined {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    const hint = typeof value === "number" ? " (scale it to an integer, for example times 1000)" : "";
    return `${expected}, not ${describe(value)}${hint}`;
  }
  if (!Number.isSafeInteger(value))
    return `must be a safe integer (between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER})`;
  return undefined;
}

function stringProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return `must be a string, not ${describe(value)}`;
  if (value.length > LIMITS.metaStringLength) return `must be at most ${LIMITS.metaStringLength} characters`;
  return undefined;
}

/** The message of a 400 for an invalid event: every problem, each after the field it names. */
export const invalidEventMessage = (errors: FieldProblem[]) =>
  `Invalid event: ${errors.map((e) => `${e.field} ${e.problem}`).join("; ")}`;
