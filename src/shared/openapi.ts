import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    status: z.number().int().openapi({ example: 404 }),
    message: z.string().openapi({ example: "Not found" }),
    errors: z.array(z.object({ field: z.string(), problem: z.string() })).optional(),
    request_id: z.string().optional().openapi({ description: "In every 5xx answer: the request's id (also in the X-Request-Id header), to quote when reporting it." }),
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
  401: errorResponse("Missing or invalid credential"),
  404: errorResponse("Unknown id, or an app that is not the credential's"),
} as const;

export const conflictResponse = { 409: errorResponse("The object is not in a state that allows this action") } as const;

export const jsonBody = <T extends z.ZodType>(schema: T, description = "JSON body") => ({
  body: { required: true, description, content: { "application/json": { schema } } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A path id: digits; anything else is answered as an unknown id (404), not a 400. */
export const pathId = (name: string) =>
  z.string().openapi({ param: { name, in: "path" }, example: "1" });

type SecurityRequirement = Record<string, string[]>;

export const bearerSecurity: Record<"apiKey" | "accessToken" | "tokenOrKey" | "admin", SecurityRequirement[]> = {
  apiKey: [{ ApiKey: [] }],
  accessToken: [{ AccessToken: [] }],
  tokenOrKey: [{ AccessToken: [] }, { ApiKey: [] }],
  admin: [{ AdminToken: [] }],
};
