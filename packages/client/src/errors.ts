import type { components } from "./generated/schema.js";

type ErrorBody = components["schemas"]["Error"];
export type FieldProblem = NonNullable<ErrorBody["errors"]>[number];

/**
 * A non-2xx answer of the service. Every error body is `{status, message, errors?}`; a 5xx also
 * carries `request_id` (also in the X-Request-Id header of every answer) and a 429
 * `retry_after_seconds` (also in Retry-After).
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  /** One entry per invalid field of a 400: `field` is the dotted path, `problem` the rule it breaks. */
  readonly errors: FieldProblem[];
  /** The request's id, to quote when reporting a problem: the body's `request_id`, else the X-Request-Id header. */
  readonly request_id: string | undefined;
  /** With a 429: seconds until the service takes the request again. */
  readonly retry_after_seconds: number | undefined;
  /** The method and URL of the request. */
  readonly request: { method: string; url: string };
  /** The body as the service sent it (parsed JSON, or the text when it is not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    message: string;
    errors?: FieldProblem[];
    request_id?: string;
    retry_after_seconds?: number;
    request: { method: string; url: string };
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.request_id = init.request_id;
    this.retry_after_seconds = init.retry_after_seconds;
    this.request = init.request;
    this.body = init.body;
  }

  /** The error of an answer that is not 2xx; reads its body. */
  static async from(request: Request, response: Response): Promise<ApiError> {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const json = (typeof body === "object" && body !== null ? body : {}) as Partial<ErrorBody>;
    const retryHeader = response.headers.get("Retry-After");
    const retryAfter =
      typeof json.retry_after_seconds === "number"
        ? json.retry_after_seconds
        : retryHeader !== null && /^\d+$/.test(retryHeader)
          ? Number(retryHeader)
          : undefined;
    return new ApiError({
      status: response.status,
      message: typeof json.message === "string" ? json.message : `${response.status} ${response.statusText}`.trim(),
      errors: Array.isArray(json.errors) ? json.errors : [],
      request_id:
        typeof json.request_id === "string" ? json.request_id : (response.headers.get("X-Request-Id") ?? undefined),
      retry_after_seconds: retryAfter,
      request: { method: request.method, url: request.url },
      body,
    });
  }
}
