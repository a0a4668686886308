import type { OpenAPIHono } from "@hono/zod-openapi";

type Document = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

const BANNED_PLAYER = {
  description: "The access token's player is banned: the message names the reason and the expiry",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

/**
 * Every operation that takes an access token refuses a banned player's token with 403 (one check
 * for all of them: src/auth/trusted-token.ts), so the document says it for all of them in one
 * place too. Operations that declare their own 403 (naming their other cases) keep it.
 */
export function withTokenAnswers(document: Document): Document {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      if (
        typeof operation !== "object" ||
        operation === null ||
        !("responses" in operation) ||
        !("security" in operation)
      )
        continue;
      const takesToken = ((operation.security ?? []) as Record<string, string[]>[]).some(
        (requirement) => "AccessToken" in requirement,
      );
      if (takesToken && !(403 in (operation.responses ?? {})))
        operation.responses = { ...operation.responses, 403: BANNED_PLAYER };
    }
  }
  return document;
}
