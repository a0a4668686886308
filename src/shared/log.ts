/**
 * Structured logs: every line is one object, so that Workers Logs (`[observability]` in
 * wrangler.toml) indexes each field and a studio's request id, a route or an app can be filtered
 * on. Objects rather than JSON text: Workers Logs extracts the fields of a logged object, while a
 * string stays one `message`. Nothing here may carry a credential or a secret: callers pass route
 * patterns, ids and error descriptions, never headers, URLs with their query, or bodies.
 */
export type LogFields = Record<string, unknown>;

export interface ErrorDescription {
  name: string;
  message: string;
  stack?: string;
}

/** What an error says about itself; values that are not errors are described by their text. */
export function describeError(err: unknown): ErrorDescription {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: typeof err, message: String(err) };
}

export type LogLevel = "info" | "warn" | "error";

/**
 * LOG_FORMAT: `json` (the default) writes each line as one object, for Workers Logs; `pretty`
 * writes one short line of text, for a developer's terminal (`npm start`). Any other value is
 * `json`: a typo must not cost a deployment its structured fields.
 */
export type LogFormat = "json" | "pretty";

export function logFormatOf(raw: string | undefined): LogFormat {
  return raw?.trim().toLowerCase() === "pretty" ? "pretty" : "json";
}

/** The format of this isolate's lines; every handler and object sets it from its bindings. */
let currentFormat: LogFormat = "json";

export function configureLog(env: { LOG_FORMAT?: string }): void {
  currentFormat = logFormatOf(env.LOG_FORMAT);
}

const WRITERS: Record<LogLevel, (line: LogFields | string) => void> = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/** A value in a line of text: strings as they are, anything else as JSON. */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * One line of text: the level (unless info), the message and its fields as `key=value`; an
 * error's stack follows on its own lines, which a developer needs to find the failure.
 */
export function prettyLine(level: LogLevel, msg: string, fields: LogFields): string {
  const { error, ...rest } = fields;
  const parts = [level === "info" ? msg : `${level}: ${msg}`];
  for (const [key, value] of Object.entries(rest))
    if (value !== undefined && value !== null) parts.push(`${key}=${textOf(value)}`);
  const described = error as ErrorDescription | undefined;
  if (described && typeof described === "object") {
    parts.push(`error=${described.name}: ${described.message}`);
    const stackLines = described.stack?.split("\n").slice(1).join("\n");
    if (stackLines) return `${parts.join(" ")}\n${stackLines}`;
  }
  return parts.join(" ");
}

export function logLine(level: LogLevel, msg: string, fields: LogFields, format: LogFormat = currentFormat): void {
  WRITERS[level](format === "pretty" ? prettyLine(level, msg, fields) : { level, msg, ...fields });
}

/** A line written as it is in the pretty format, at `level`: the request log's short line. */
export function logText(level: LogLevel, text: string): void {
  WRITERS[level](text);
}

/** An unexpected failure, with its stack. */
export function logError(msg: string, err: unknown, fields: LogFields = {}): void {
  logLine("error", msg, { ...fields, error: describeError(err) });
}

/**
 * A failure of work that no request waits for (queue consumers, alarms, cron): `source` says which
 * kind, so one filter finds every background failure.
 */
export function logBackgroundFailure(
  source: "queue" | "alarm" | "cron" | "outbox" | "mqtt" | "rate-limit",
  msg: string,
  err: unknown,
  fields: LogFields = {},
): void {
  logError(msg, err, { source, ...fields });
}
