import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    status: z.number().int().openapi({ example: 404 }),
    message: z.string().openapi({ example: "Not found" }),
    errors: z.array(z.object({ field: z.string(), problem: z.string() })).optional(),
    request_id: z.string().optional().openapi({
      description:
        "In every 5xx answer: the request's id (also in the X-Request-Id header), to quote when reporting it.",
    }),
    retry_after_seconds: z
      .number()
      .int()
      .optional()
      .openapi({ description: "In every 429 answer: when to try again (also in the Retry-After header)." }),
  })
  .openapi("Error");

export const StatusMessageSchema = z
  .object({ status: z.number().int().openapi({ example: 200 }), message: z.string().openapi({ example: "OK" }) })
  .openapi("ActionResponse");

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** The error answers most routes can give, for the OpenAPI document. */
export const errorResponses = {
  400: errorResponse("Invalid input"),
  401: errorResponse(
    "Missing or invalid credential (an access token also when its app was deleted or the API key that minted it was revoked)",
  ),
  404: errorResponse("Unknown id, or an app that is not the credential's"),
} as const;

export const conflictResponse = { 409: errorResponse("The object is not in a state that allows this action") } as const;

/** 409 of a write whose key (or slug) another object of the app already has: `errors` names the field. */
export const keyConflictResponse = {
  409: errorResponse("The key is already used by another object of the app: `errors` names the field"),
} as const;

/** 503 of an operation that signs access tokens with an API key (a credential that needs no secret itself). */
export const signingKeysResponse = {
  503: errorResponse("JWT_SIGNING_KEYS is missing or unusable: the message names the secret. Nothing was done."),
} as const;

/** 403: what the credential may not do here (each route names its cases). */
export const forbiddenResponse = (description: string) => ({ 403: errorResponse(description) }) as const;

/** A header described once in the document's components.headers (src/docs/document.ts). */
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** 429 of the event paths (src/events/rate-limits.ts): the body and the headers a client waits by. */
export const rateLimitedResponse = {
  429: {
    description:
      "Past a rate limit (events a minute, per player or per app): `retry_after_seconds` and Retry-After say when to try again, " +
      "the IETF RateLimit and RateLimit-Policy headers name the policy, its quota and window",
    headers: {
      "Retry-After": headerRef("Retry-After"),
      RateLimit: headerRef("RateLimit"),
      "RateLimit-Policy": headerRef("RateLimit-Policy"),
    },
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;

/** Named examples of a body, as the reference page and generated docs show them. */
export type Examples = Record<string, { summary: string; value: unknown }>;

const withExamples = (examples: Examples | undefined) => (examples === undefined ? {} : { examples });

export const jsonBody = <T extends z.ZodType>(schema: T, description = "JSON body", examples?: Examples) => ({
  body: { required: true, description, content: { "application/json": { schema, ...withExamples(examples) } } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string, examples?: Examples) => ({
  description,
  content: { "application/json": { schema, ...withExamples(examples) } },
});

/** A path id: digits; anything else is answered as an unknown id (404), not a 400. */
export const pathId = (name: string) => z.string().openapi({ param: { name, in: "path" }, example: "1" });

type SecurityRequirement = Record<string, string[]>;

export const bearerSecurity: Record<"apiKey" | "accessToken" | "tokenOrKey" | "admin", SecurityRequirement[]> = {
  apiKey: [{ ApiKey: [] }],
  accessToken: [{ AccessToken: [] }],
  tokenOrKey: [{ AccessToken: [] }, { ApiKey: [] }],
  admin: [{ AdminToken: [] }],
};

/**
 * Marks an operation that serves the same action as `operationId` on another path or method (the
 * spec's paths and methods beside SCILL's): generators may skip it, SCILL's SDKs still call it, so
 * it is not deprecated.
 */
export const aliasOf = (operationId: string | undefined): { "x-alias-of"?: string } =>
  operationId === undefined ? {} : { "x-alias-of": operationId };
