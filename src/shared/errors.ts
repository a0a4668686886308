import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type ErrorKind, type FieldProblem } from "./domain-errors";
import { logError } from "./log";

/**
 * An answer of the HTTP edge that no domain error describes (an unsupported media type, a body
 * too large, a rate limit with its headers); a domain error becomes one (toApiError). Becomes
 * `{status, message, errors?}` with that HTTP status, plus `fields` when the answer has more to
 * say (`retry_after_seconds` of a 429).
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors?: FieldProblem[];
  readonly headers?: Record<string, string>;
  readonly fields?: Record<string, unknown>;

  constructor(
    status: ContentfulStatusCode,
    message: string,
    errors?: FieldProblem[],
    headers?: Record<string, string>,
    fields?: Record<string, unknown>,
  ) {
    // An answer, not a fault: a request's ApiError is never logged, and capturing a stack would
    // cost every refusal (a flood of 429s) a walk of the whole middleware stack. One that reaches
    // a background log is known by its message, which names what to do.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = status;
    this.errors = errors;
    this.headers = headers;
    this.fields = fields;
  }
}

/** The HTTP status of each kind of domain error. */
const STATUS_OF: Record<ErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  unavailable: 503,
};

const WWW_AUTHENTICATE = { "WWW-Authenticate": 'Bearer realm="gamification"' };

/** The answer's status for a thrown value: its own for an answer, 500 for anything unexpected. */
export function errorStatus(err: unknown): ContentfulStatusCode {
  if (err instanceof DomainError) return STATUS_OF[err.kind];
  if (err instanceof ApiError) return err.status;
  if (err instanceof HTTPException) return err.status as ContentfulStatusCode;
  return 500;
}

/** A domain error as an HTTP answer: the status of its kind, its fields and details, and its headers. */
export function toApiError(err: DomainError): ApiError {
  const headers = err.kind === "unauthenticated" ? WWW_AUTHENTICATE : undefined;
  return new ApiError(STATUS_OF[err.kind], err.message, err.problems, headers, err.details);
}

export function errorBody(status: number, message: string, errors?: FieldProblem[]) {
  return errors && errors.length > 0 ? { status, message, errors } : { status, message };
}

/**
 * Turns every thrown value into the error shape; only unexpected errors are logged (with their
 * stack). A 5xx body names the request id (set by src/shared/request-log.ts), so that a studio can
 * quote it and the operator can find the log line.
 */
export function handleError(err: unknown, c: Context): Response {
  const requestId: string | undefined = c.get("requestId");
  const withRequestId = <T extends object>(body: T, status: number) =>
    status >= 500 && requestId ? { ...body, request_id: requestId } : body;
  if (err instanceof DomainError) err = toApiError(err);
  if (err instanceof ApiError) {
    return c.json(
      withRequestId({ ...errorBody(err.status, err.message, err.errors), ...err.fields }, err.status),
      err.status,
      err.headers,
    );
  }
  if (err instanceof HTTPException) {
    // Hono raises these for malformed JSON bodies and body-limit overflows.
    const message = err.status === 413 ? "Request body too large" : err.message || "Bad request";
    return c.json(withRequestId(errorBody(err.status, message), err.status), err.status as ContentfulStatusCode);
  }
  logError("unexpected error", err, { request_id: requestId ?? null, method: c.req.method, route: c.req.routePath });
  return c.json(withRequestId(errorBody(500, "Internal error"), 500), 500);
}
