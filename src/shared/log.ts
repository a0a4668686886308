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

const WRITERS: Record<LogLevel, (line: LogFields) => void> = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export function logLine(level: LogLevel, msg: string, fields: LogFields): void {
  WRITERS[level]({ level, msg, ...fields });
}

/** An unexpected failure, with its stack. */
export function logError(msg: string, err: unknown, fields: LogFields = {}): void {
  logLine("error", msg, { ...fields, error: describeError(err) });
}

/**
 * A failure of work that no request waits for (queue consumers, alarms, cron): `source` says which
 * kind, so one filter finds every background failure.
 */
export function logBackgroundFailure(source: "queue" | "alarm" | "cron" | "outbox" | "mqtt" | "rate-limit", msg: string, err: unknown, fields: LogFields = {}): void {
  logError(msg, err, { source, ...fields });
}
