import type { OpenAPIHono } from "@hono/zod-openapi";
import { UNSUPPORTED_MEDIA_TYPE_MESSAGE } from "../shared/body";

type Document = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

const UNSUPPORTED_MEDIA_TYPE = {
  description:
    `${UNSUPPORTED_MEDIA_TYPE_MESSAGE}. Any application/json or application/*+json type is accepted, with parameters such as ` +
    "`; charset=utf-8`; an empty body counts as no body whatever its Content-Type (an optional body is then `{}`). " +
    "Bytes that are not UTF-8 answer 400.",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

/**
 * Every operation that takes a body answers 415 to a body that is not JSON: one middleware checks
 * them all (src/shared/body.ts), so the document says it for all of them in one place too.
 */
export function withBodyAnswers(document: Document): Document {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      if (
        typeof operation !== "object" ||
        operation === null ||
        !("requestBody" in operation) ||
        !("responses" in operation)
      )
        continue;
      operation.responses = { ...operation.responses, 415: UNSUPPORTED_MEDIA_TYPE };
    }
  }
  return document;
}
