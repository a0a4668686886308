import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export interface FieldProblem {
  field: string;
  problem: string;
}

/** The one error type of the service: becomes `{status, message, errors?}` with that HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldProblem[]) => new ApiError(400, message, errors);
export const unauthorized = (message: string) =>
  new ApiError(401, message, undefined, { "WWW-Authenticate": 'Bearer realm="gamification"' });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);

export function errorBody(status: number, message: string, errors?: FieldProblem[]) {
  return errors && errors.length > 0 ? { status, message, errors } : { status, message };
}

/** Turns every thrown value into the error shape; only unexpected errors are logged. */
export function handleError(err: unknown, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.status, err.message, err.errors), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    // Hono raises these for malformed JSON bodies and body-limit overflows.
    const message = err.status === 413 ? "Request body too large" : err.message || "Bad request";
    return c.json(errorBody(err.status, message), err.status as ContentfulStatusCode);
  }
  console.error("unexpected error", c.req.method, c.req.path, err);
  return c.json(errorBody(500, "Internal error"), 500);
}
