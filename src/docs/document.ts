import type { OpenAPIHono } from "@hono/zod-openapi";
import { version } from "../../package.json";
import type { AppEnv } from "../shared/http";
import { withBodyAnswers } from "./body-answers";
import { withTokenAnswers } from "./token-answers";

type Document = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object as the generator builds it, read and amended by key
type Operation = Record<string, any>;

/** The development-only paths (the dev clock and dev changes): in the document only with DEV_CLOCK=on. */
export const DEVELOPMENT_PATH_PREFIX = "/api/v1/admin/dev/";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** Every tag, in the order a reader meets them: the player's API, then operations, then the admin API. */
const TAGS: { name: string; description: string }[] = [
  {
    name: "Auth",
    description: "Access tokens for game clients, checking a credential, and the player's name and avatar.",
  },
  {
    name: "Events",
    description:
      "Event intake (one event or a batch) and the catalog of predefined events. Events drive challenges, battle passes and leaderboards.",
  },
  {
    name: "Challenges",
    description:
      "A player's personal challenges: lists, one challenge, and the unlock / activate / cancel / claim actions; resetting a player (API key).",
  },
  {
    name: "Battle passes",
    description:
      "The battle passes on offer and a player's progress in them: unlocking a pass, activating and claiming levels.",
  },
  {
    name: "Leaderboards",
    description: "Rankings in the SCILL v1 and v2 shapes, a member's neighbourhood, and resets (API key).",
  },
  {
    name: "Realtime",
    description:
      "The MQTT topics on which changes of a player's challenges, battle passes and of leaderboards are pushed (MQTT over WebSocket at /mqtt).",
  },
  {
    name: "Webhooks",
    description:
      "The calls this service makes to an app's webhook endpoints (the `webhooks` section): one body per webhook type.",
  },
  {
    name: "Points",
    description:
      "Points systems (XP, karma, coins): a player's balances, levels and ledger; grants and spends from the studio's backend.",
  },
  {
    name: "Streaks",
    description: "Daily and weekly habits in the player's time zone, with freezes; the player's time zone.",
  },
  {
    name: "Achievements",
    description:
      "Permanent milestones: a player's achievements with progress and rarity; grants and revocations from the studio's backend.",
  },
  {
    name: "Leagues",
    description:
      "Seasons in which each player competes in a cohort of their tier: standings, the last season's result and its claim.",
  },
  { name: "Privacy", description: "Erasing a player with the app's API key, and the erasure's receipt." },
  { name: "Operations", description: "Liveness without a credential, and the service's status for the operator." },
  { name: "Reference", description: "This document and the API reference page." },
  { name: "Admin: apps", description: "Apps: the unit that holds keys, configuration and players." },
  { name: "Admin: API keys", description: "An app's API keys: created, listed, renamed and revoked." },
  {
    name: "Admin: challenge categories",
    description: "The categories that group an app's challenges, in position order.",
  },
  { name: "Admin: challenges", description: "An app's personal challenges." },
  { name: "Admin: points", description: "Points systems: levels, triggers, caps; where every feature's rewards land." },
  { name: "Admin: streaks", description: "Streaks: periods, freezes and milestones of an app's habits." },
  {
    name: "Admin: achievements",
    description: "Achievements: metric ladders, manual and composite ones, hidden ones, statuses and rewards.",
  },
  { name: "Admin: leagues", description: "Leagues: tiers, cohort size, promotion, relegation, seasons and rewards." },
  { name: "Admin: battle passes", description: "Battle passes with their levels and the levels' challenges." },
  {
    name: "Admin: leaderboards",
    description: "Leaderboards, moderation of members, and the submissions held back for review.",
  },
  {
    name: "Admin: webhooks",
    description:
      "Webhook endpoints, test calls, and the delivery log with redelivery. The bodies sent are under `webhooks`.",
  },
  {
    name: "Admin: catalog as code",
    description: "An app's whole configuration as one document: export, plan, apply, and the document's JSON Schema.",
  },
  {
    name: "Admin: users",
    description:
      "The players an app has seen, a player's stored state, export (right of access) and erasure (right to erasure).",
  },
  {
    name: "Admin: corrections",
    description:
      "Corrections of a player's progress by an operator, each with a reason, audited, sending what the player's own play would have sent.",
  },
  {
    name: "Admin: bans",
    description: "Banning players: a banned player gets no access token and their events are refused.",
  },
  {
    name: "Admin: analytics",
    description:
      "Event counts, players per day and retention, unused event names, monthly usage and the raw event archive.",
  },
  { name: "Admin: audit log", description: "Who changed what, per app and for the service." },
  { name: "Admin: console users", description: "The accounts of the admin console at /console." },
  { name: "Admin: development clock", description: "Development only (DEV_CLOCK=on): moving the service's clock." },
  { name: "Admin: development", description: "Development only (DEV_CLOCK=on): emitting changes without playing." },
];

const SECURITY_SCHEMES = {
  ApiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "API key",
    description:
      "An API key of the app (at most 64 characters), sent as `Authorization: Bearer <key>`. For the studio's backend only: it mints access tokens, sends any player's events and resets.",
  },
  AccessToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "An access token minted for one player (generateAccessToken), sent as `Authorization: Bearer <token>`: what a game client holds. It names the app and the player.",
  },
  AdminToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "Admin token",
    description:
      "The deployment's ADMIN_TOKEN secret, sent as `Authorization: Bearer <token>`: the admin API under /api/v1/admin.",
  },
} as const;

const errorRef = { $ref: "#/components/schemas/Error" };
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const stringHeader = (description: string, example: string) => ({
  description,
  schema: { type: "string" as const },
  example,
});

/** The answer headers, described once and referenced by every answer that carries them. */
const HEADERS = {
  "X-Request-Id": stringHeader(
    "This request's id, on every answer: in its log line and in the body of any 5xx (`request_id`). Quote it when reporting a problem.",
    "3f9c2d1e-8b7a-4c6d-9e5f-1a2b3c4d5e6f",
  ),
  "Retry-After": {
    description: "Seconds until the request can be accepted.",
    schema: { type: "integer" as const, minimum: 0 },
    example: 37,
  },
  RateLimit: stringHeader(
    "The policy that refused, and what is left of it (IETF RateLimit fields).",
    '"per-user";r=0;t=37',
  ),
  "RateLimit-Policy": stringHeader("The policy: its quota (events) and window (seconds).", '"per-user";q=3000;w=60'),
};

const TOO_LARGE = {
  description: "The request body is larger than 1 MiB (1,048,576 bytes)",
  content: { "application/json": { schema: errorRef } },
};
const SERVER_ERROR = {
  description:
    "The service failed, or a service it depends on: the body carries `request_id` (also in X-Request-Id). Safe to retry with an `event_id` for events.",
  content: { "application/json": { schema: errorRef } },
};
const UNCONFIGURED = {
  description:
    "The deployment is not configured for this operation: a secret it needs is missing or unusable (ADMIN_TOKEN for the admin API; " +
    "JWT_SIGNING_KEYS for access tokens; TOPIC_SECRET for topics). The message names the secret. Nothing was done.",
  content: { "application/json": { schema: errorRef } },
};

function operationsOf(document: Document): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method] !== undefined).map((method) => ({
      path,
      method,
      operation: item![method] as Operation,
    })),
  );
}

/** Status codes ascending, then ranges (`4XX`, `5XX`), then `default`. */
function sortedResponses(responses: Record<string, unknown>): Record<string, unknown> {
  const rank = (code: string) =>
    /^\d+$/.test(code) ? Number(code) : code === "default" ? 1000 : Number(code[0]) * 100 + 99.5;
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * The answers every operation can give whatever its handler: 413 for a body over the limit, 503
 * when a secret its credential needs is missing, 5XX, and X-Request-Id on every answer.
 */
function withCommonAnswers(document: Document): Document {
  for (const { operation } of operationsOf(document)) {
    const schemes = new Set(
      ((operation.security ?? []) as Record<string, string[]>[]).flatMap((requirement) => Object.keys(requirement)),
    );
    const responses: Operation = { ...operation.responses };
    if (operation.requestBody) responses[413] ??= TOO_LARGE;
    if (schemes.has("AdminToken") || schemes.has("AccessToken")) responses[503] ??= UNCONFIGURED;
    responses["5XX"] = SERVER_ERROR;
    for (const [status, response] of Object.entries(responses)) {
      const headers: Record<string, unknown> = { "X-Request-Id": headerRef("X-Request-Id") };
      Object.assign(headers, response.headers);
      responses[status] = { ...response, headers };
    }
    operation.responses = sortedResponses(responses);
  }
  return document;
}

/** Operations that need no credential say so (`security: []`): the document has no global default. */
function withExplicitSecurity(document: Document): Document {
  for (const { operation } of operationsOf(document)) operation.security ??= [];
  return document;
}

function withoutDevelopmentPaths(document: Document): Document {
  for (const path of Object.keys(document.paths ?? {}))
    if (path.startsWith(DEVELOPMENT_PATH_PREFIX)) delete document.paths![path];
  return document;
}

/** Every `$ref` target under `value`. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") into.add(item);
      else refsIn(item, into);
    }
  }
  return into;
}

/** Drops the component schemas nothing refers to (those of the development paths when they are left out). */
function withoutUnusedSchemas(document: Document): Document {
  const schemas = document.components?.schemas ?? {};
  const { components, ...rest } = document;
  const used = refsIn(rest, new Set());
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop()!.replace("#/components/schemas/", "");
    for (const ref of refsIn(schemas[name], new Set()))
      if (!used.has(ref)) {
        used.add(ref);
        pending.push(ref);
      }
  }
  for (const name of Object.keys(schemas)) if (!used.has(`#/components/schemas/${name}`)) delete schemas[name];
  return document;
}

function withDeclaredTags(document: Document): Document {
  const webhookOperations = Object.values(document.webhooks ?? {}).flatMap((item) =>
    METHODS.map((method) => (item as Operation)[method]).filter(Boolean),
  );
  const operations = [...operationsOf(document).map(({ operation }) => operation), ...webhookOperations];
  const used = new Set(operations.flatMap((operation) => (operation.tags ?? []) as string[]));
  const undeclared = [...used].filter((name) => !TAGS.some((tag) => tag.name === name));
  if (undeclared.length > 0)
    throw new Error(`Tags without a declaration in src/docs/document.ts: ${undeclared.join(", ")}`);
  const { openapi, info, servers, paths, webhooks, components, ...rest } = document;
  return {
    openapi,
    info,
    servers,
    tags: TAGS.filter((tag) => used.has(tag.name)),
    paths,
    webhooks,
    components,
    ...rest,
  };
}

/** The answers of /openapi.json and /docs, which are registered as plain routes (src/docs/routes.ts). */
export function registerReferencePaths(app: OpenAPIHono<AppEnv>) {
  const textHeaders = { "X-Request-Id": headerRef("X-Request-Id") };
  app.openAPIRegistry.registerPath({
    operationId: "getOpenApiDocument",
    method: "get",
    path: "/openapi.json",
    tags: ["Reference"],
    security: [],
    summary: "This OpenAPI 3.1 document",
    description:
      "The same document as `openapi.json` at the root of the repository (development-only paths appear only with DEV_CLOCK=on).",
    responses: {
      200: {
        description: "The OpenAPI document",
        headers: textHeaders,
        content: { "application/json": { schema: { type: "object" } } },
      },
    },
  });
  app.openAPIRegistry.registerPath({
    operationId: "getApiReference",
    method: "get",
    path: "/docs",
    tags: ["Reference"],
    security: [],
    summary: "The API reference page, rendered from this document",
    responses: {
      200: {
        description: "An HTML page",
        headers: textHeaders,
        content: { "text/html": { schema: { type: "string" } } },
      },
    },
  });
}

export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>) {
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES))
    app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  for (const [name, header] of Object.entries(HEADERS)) app.openAPIRegistry.registerComponent("headers", name, header);
}

const DOCUMENT_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Open Gamification API",
    version,
    summary: "Challenges, battle passes, leaderboards, events, MQTT realtime and webhooks; SCILL-compatible.",
    description:
      "Challenges, battle passes, leaderboards, event intake, MQTT realtime and webhooks. Serves the SCILL paths so the published SCILL SDKs work unchanged.\n\n" +
      "Three credentials, all `Authorization: Bearer`: an **API key** (the studio's backend), an **access token** (a game client, one player) and the **admin token** " +
      "(the deployment's operator). Each operation lists the ones it accepts. Operations with `x-alias-of` serve the same action as the named operation " +
      "on another path or method (the spec's beside SCILL's): a generated client may skip them.\n\n" +
      "Every answer carries `X-Request-Id`; every error has the body `{status, message, errors?}`.",
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    contact: { name: "Open Gamification" },
  },
  servers: [{ url: "/", description: "The deployment that serves this document" }],
};

/** The OpenAPI document of `app`; the development-only paths only with `development` (DEV_CLOCK=on). */
export function openApiDocument(app: OpenAPIHono<AppEnv>, { development }: { development: boolean }): Document {
  let document = app.getOpenAPI31Document(DOCUMENT_INFO);
  if (!development) document = withoutDevelopmentPaths(document);
  document = withExplicitSecurity(withCommonAnswers(withTokenAnswers(withBodyAnswers(document))));
  return withDeclaredTags(withoutUnusedSchemas(document));
}
