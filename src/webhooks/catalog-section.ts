import { z } from "@hono/zod-openapi";

import { duplicateKeys, indexBy, type CatalogSection, type CatalogSnapshot } from "../kit/catalog";

import { webhookUrlProblem } from "../rules/webhook-url";

import { toIso } from "../shared/clock";

import type { FieldProblem } from "../shared/domain-errors";

import { ConfigKey } from "../shared/schemas";

import { WebhookInput } from "./admin/schemas";

import { newWebhookSecret, secretProblem } from "./core/signing";

import { canonicalWebhookType } from "./core/webhook-types";

import {
  deleteEndpointStatement,
  insertEndpointStatement,
  replaceEndpointStatement,
  type EndpointRow,
} from "./endpoints-repo";

/** The webhook endpoints of the catalog document, by key; secrets stay out of it. */

/** A secret kept out of the document: the CLI puts the variable's value in its place before sending. */
export const SecretRef = z
  .object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "must be an environment variable name") })
  .strict()
  .openapi("CatalogSecretRef", {
    description:
      "The name of an environment variable that holds the secret. The catalog CLI replaces it with the variable's value; when the variable is unset, or when the API receives the reference itself, the endpoint keeps its current secret (a new endpoint gets a generated one).",
  });
export type SecretRef = z.infer<typeof SecretRef>;

export const CatalogWebhook = WebhookInput.omit({ secret_key: true })
  .extend({
    key: ConfigKey.openapi({ description: "Unique in the app" }),
    secret_key: z.union([z.string(), SecretRef]).optional().openapi({
      description:
        "The secret itself, or a reference {env: NAME} that keeps it out of the document. Left out: an existing endpoint keeps its secret, a new one gets a generated secret. Exports always show a reference, never the secret.",
    }),
  })
  .strict()
  .openapi("CatalogWebhook");

export type CatalogWebhook = z.infer<typeof CatalogWebhook>;

/** Where the CLI looks for a webhook's secret: WEBHOOK_SECRET_ and the key in capitals. */
export const secretVariable = (key: string): SecretRef => ({
  env: `WEBHOOK_SECRET_${key.toUpperCase().replaceAll("-", "_")}`,
});

/** Never the secret itself: a reference to where the CLI finds it. */
export const webhookDoc = (row: EndpointRow): CatalogWebhook => ({
  key: row.key,
  webhook_type: row.webhook_type,
  url: row.url,
  secret_key: secretVariable(row.key),
});

/** The secret is compared on its own (the plan): it never appears in a document the service writes. */
const canonicalWebhook = (doc: CatalogWebhook): CatalogWebhook => ({
  key: doc.key,
  webhook_type: canonicalWebhookType(doc.webhook_type),
  url: doc.url,
  secret_key: secretVariable(doc.key),
});

const hooksOf = (s: CatalogSnapshot) => s.webhooks as EndpointRow[];

export const webhookCatalogSection: CatalogSection = {
  key: "webhooks",
  schema: z.array(CatalogWebhook).max(100).default([]),
  objects: {
    webhook: { resource: "webhook", label: "webhook", deletedDoc: (step) => webhookDoc(step.row) },
  },
  reads: (db, appId) => ({
    webhooks: db.prepare("SELECT * FROM webhooks WHERE app_id = ? ORDER BY webhook_id").bind(appId),
  }),
  export: (s) => hooksOf(s).map(webhookDoc),
  /** A secret in clear replaces the current one; a reference or none keeps it (a new endpoint gets a generated one). */
  plan(p, docs, s) {
    const wanted = docs as CatalogWebhook[];
    const hooks = indexBy(hooksOf(s), (w) => w.key);
    const wantedKeys = new Set(wanted.map((w) => w.key));
    for (const hook of wanted) {
      const row = hooks.get(hook.key);
      const secret = typeof hook.secret_key === "string" ? hook.secret_key : null;
      const newSecret =
        row && secret !== null && secret !== row.secret_key
          ? [{ field: "secret_key", before: "(secret)", after: "(new secret)" }]
          : [];
      p.upsert(
        { object: "webhook", ref: `webhooks/${hook.key}`, doc: hook, row, secret },
        row ? webhookDoc(row) : null,
        canonicalWebhook(hook),
        [],
        newSecret,
      );
    }
    for (const row of hooksOf(s))
      if (!wantedKeys.has(row.key)) p.leftOut({ object: "webhook", ref: `webhooks/${row.key}`, row });
  },
  statement(db, appId, step, now) {
    const nowIso = toIso(now);
    if (step.action === "delete") return deleteEndpointStatement(db, step.row.webhook_id);
    const doc = step.doc as CatalogWebhook;
    const secret = step.secret as string | null;
    const input = { key: doc.key, webhook_type: canonicalWebhookType(doc.webhook_type), url: doc.url };
    return step.row
      ? replaceEndpointStatement(
          db,
          step.row.webhook_id,
          { ...input, secret_key: secret ?? step.row.secret_key },
          nowIso,
        )
      : insertEndpointStatement(db, appId, { ...input, secret_key: secret ?? newWebhookSecret() }, nowIso);
  },
  problems(docs, rules) {
    const hooks = docs as CatalogWebhook[];
    const problems: FieldProblem[] = duplicateKeys(
      hooks.map((w, i) => ({ key: w.key, field: `webhooks.${i}.key` })),
      "the document's webhooks",
    );
    hooks.forEach((hook, i) => {
      const urlProblem = webhookUrlProblem(hook.url, rules.allowLoopbackWebhooks);
      if (urlProblem) problems.push({ field: `webhooks.${i}.url`, problem: urlProblem });
      const problem = typeof hook.secret_key === "string" ? secretProblem(hook.secret_key) : null;
      if (problem) problems.push({ field: `webhooks.${i}.secret_key`, problem });
    });
    return problems;
  },
};
