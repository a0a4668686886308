import { OpenAPIHono } from "@hono/zod-openapi";
import { badRequest, type FieldProblem } from "./errors";

/** Who is calling: set by the credential middlewares of src/auth. */
export type Caller =
  | { kind: "admin" }
  | { kind: "api-key"; appId: string; keyId: string }
  | { kind: "access-token"; appId: string; userId: string };

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
 * A router of one area. Validation failures of any part of a request (path, query, body) become
 * a 400 of the one error shape, naming each field and its problem.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const errors: FieldProblem[] = result.error.issues.map((issue) => ({
          field: issue.path.map(String).join(".") || (result.target ?? "body"),
          problem: issue.message,
        }));
        throw badRequest(`Invalid ${result.target ?? "request"}: ${errors.map((e) => `${e.field}: ${e.problem}`).join("; ")}`, errors);
      }
    },
  });
}

