export { createGameClient, type GameClient, type GameClientOptions, type GameEvent } from "./game.js";
export {
  createBackendClient,
  tokenExpiry,
  type BackendClient,
  type BackendClientOptions,
  type MintedToken,
} from "./backend.js";
export { createAdminClient, type AdminClient, type AdminClientOptions } from "./admin.js";
export { ApiError, type FieldProblem } from "./errors.js";
export { MAX_BATCH, type EventPayload, type EventResult, type SendEventsResult } from "./events.js";
export { pages, cursor, type Page } from "./pagination.js";
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookHeaders,
  type WebhookPayload,
  type WebhookPayloads,
  type WebhookType,
} from "./webhooks.js";
export type { Call, Data, RetryOptions, TransportOptions, TypedApi } from "./http.js";
export type { AdminPaths, BackendPaths, GamePaths } from "./generated/credentials.js";
export type { components, operations, paths, webhooks } from "./generated/schema.js";
