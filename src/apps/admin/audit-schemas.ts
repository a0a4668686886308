import { z } from "@hono/zod-openapi";
import { PagingQuery } from "../../shared/paging";

/** Zod schemas of the audit log's admin API. */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const TimeBound = z
  .string()
  .refine(
    (value) => (ISO_DAY.test(value) || ISO_TIME.test(value)) && !Number.isNaN(Date.parse(value)),
    "must be an ISO date (2026-11-24) or date-time (2026-11-24T09:00:00Z)",
  );

export const AuditQuery = PagingQuery.extend({
  resource: z.string().max(64).optional().openapi({
    description: "Only entries about this kind of object: app, api-key, challenge, webhook, player, ...",
    example: "challenge",
  }),
  resource_id: z
    .string()
    .max(300)
    .optional()
    .openapi({ description: "Only entries about this object (an id, a catalog key path, or a player's user id)" }),
  actor: z.string().max(100).optional().openapi({
    description:
      "Only entries by this actor: a part of their name (X-Actor name, console user's email, key name), their id, or their kind (admin-token, console-user, api-key, system)",
  }),
  from: TimeBound.optional().openapi({
    description: "Entries at or after: ISO date (from its start) or date-time (UTC)",
  }),
  to: TimeBound.optional().openapi({
    description: "Entries before: ISO date (that day included) or date-time (excluded)",
  }),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntry = z
  .object({
    entry_id: z.string(),
    at: z.string().openapi({ description: "When (UTC, wall clock)", example: "2026-11-24T09:15:02.113Z" }),
    app_id: z
      .string()
      .nullable()
      .openapi({ description: "The app, or null for what is not one app's (apps, console users)" }),
    actor: z.object({
      kind: z.enum(["admin-token", "console-user", "api-key", "system"]),
      id: z.string().nullable().openapi({ description: "The console user's or API key's id" }),
      name: z.string().nullable().openapi({
        description: "The X-Actor name given with the admin token, the console user's email, or the system task",
      }),
    }),
    origin: z.object({
      channel: z.enum(["admin-api", "console", "api", "background"]),
      ip: z.string().nullable().openapi({ description: "The client's address as Cloudflare saw it" }),
      request_id: z
        .string()
        .nullable()
        .openapi({ description: "The request's X-Request-Id: the entries of one request, and its log lines" }),
    }),
    resource: z.string().openapi({ example: "challenge" }),
    resource_id: z.string().nullable().openapi({
      description: "The object's id (catalog applies: its key path). A player erased since is `erased:<subject>`.",
    }),
    action: z.string().openapi({ example: "update" }),
    outcome: z.enum(["done", "refused"]).openapi({
      description: "refused: an authenticated actor tried what their role does not allow; nothing changed",
    }),
    before: z
      .unknown()
      .openapi({ description: "The object before (a deletion keeps what was deleted); secrets redacted" }),
    after: z.unknown().openapi({
      description: "What it was asked to become; secrets redacted (`[redacted, changed]` when one changed)",
    }),
  })
  .openapi("AuditEntry");
