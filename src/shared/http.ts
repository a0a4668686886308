import { OpenAPIHono } from "@hono/zod-openapi";
import type { TypedResponse } from "hono";
import { invalid } from "./domain-errors";
import { invalidMessage, problemsOfIssues, type IssueLike } from "./problems";

/** Who is calling: set by the credential middlewares of src/auth. */
export type Caller =
  /** `actorName`: who uses the admin token, from the optional X-Actor header (the audit log's "who"). */
  | { kind: "admin"; actorName: string | null }
  | { kind: "api-key"; appId: string; keyId: string }
  | { kind: "access-token"; appId: string; userId: string; issuedAt: number };

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** The service's clock for this request (ms since epoch), read once per request. */
    now: number;
    caller: Caller;
    /** This request's id: in the `X-Request-Id` answer header, its log line and any 5xx body. */
    requestId: string;
  };
};

/**
 * The 400 of a failed validation of `target` (json, query, param...): each field with its problem
 * in plain words (src/shared/problems.ts). `input` is the validated value, when known: it tells a
 * missing field from one of the wrong type.
 */
export function invalidInput(issues: readonly IssueLike[], target?: string, input?: { value: unknown }) {
  const errors = problemsOfIssues(issues, { target: target ?? "body", ...(input ? { input: input.value } : {}) });
  return invalid(invalidMessage(target ?? "request", errors), errors);
}

/**
 * A router of one area. Validation failures of any part of a request (path, query, body) become
 * a 400 of the one error shape, naming each field and its problem.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      // The validator hands the hook what it validated as `data`, which the OpenAPI typing of a failure leaves out.
      if (!result.success)
        throw invalidInput(result.error.issues, result.target === "json" ? "body" : result.target, {
          value: (result as { data?: unknown }).data,
        });
    },
  });
}

/**
 * A 200 whose body is JSON text made elsewhere (a user's object writes long lists as text), typed
 * as the route's JSON answer `T`: the route's schema still documents it, and the text is what
 * `c.json` of a `T` would have sent.
 */
export const jsonText = <T>(text: string) =>
  new Response(text, { headers: { "Content-Type": "application/json" } }) as unknown as TypedResponse<T, 200, "json">;
