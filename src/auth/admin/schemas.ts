import { z } from "@hono/zod-openapi";

export const ApiKeyInput = z
  .object({
    name: z.string().trim().max(200).default("").openapi({ example: "game server" }),
    end_tokens_on_revoke: z
      .boolean()
      .default(true)
      .openapi({
        description:
          "true (default): revoking the key also ends every access token it minted, as a studio revoking a leaked key expects. " +
          "false: those tokens keep working until they expire.",
      }),
  })
  .openapi("ApiKeyInput");

export const ApiKey = z
  .object({
    key_id: z.string(),
    app_id: z.string(),
    name: z.string(),
    key_prefix: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    end_tokens_on_revoke: z.boolean(),
  })
  .openapi("ApiKey");

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: "The key itself. Shown only in this response; only its hash is stored." }),
}).openapi("CreatedApiKey");
