import { BACKEND_OPERATIONS, type BackendPaths } from "./generated/credentials.js";
import { type EventPayload, type SendEventsResult, sendEventsInBatches } from "./events.js";
import { type GameClient, createGameClient } from "./game.js";
import { type TransportOptions, type TypedApi, typedApi } from "./http.js";

export interface BackendClientOptions extends TransportOptions {
  /** An API key of the app. */
  apiKey: string;
}

export interface MintedToken {
  token: string;
  userId: string;
  /** When the token stops being accepted (its `exp`). */
  expiresAt: Date;
}

export interface BackendClient extends TypedApi<BackendPaths> {
  /** An access token for one player, to hand to the game client. */
  mintAccessToken(userId: string): Promise<MintedToken>;
  /**
   * A game client acting for one player: it mints the player's access token on first use and
   * mints a new one `refreshBeforeSeconds` (default 60) before the current one expires.
   */
  actingFor(userId: string, options?: { refreshBeforeSeconds?: number }): GameClient;
  /** One event; the backend names the player in `user_id`. */
  sendEvent(event: EventPayload): Promise<{ status: number; message: string }>;
  /** Events in batches of 500, with each event's result. */
  sendEvents(events: readonly EventPayload[], options?: { batchSize?: number }): Promise<SendEventsResult>;
}

/** The `exp` claim of a JWT, read without verifying it (the service verifies). */
export function tokenExpiry(token: string): Date {
  const part = token.split(".")[1];
  if (!part) throw new TypeError("not a JWT");
  const json = atob(
    part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "="),
  );
  const exp = (JSON.parse(json) as { exp?: unknown }).exp;
  if (typeof exp !== "number") throw new TypeError("the token has no exp");
  return new Date(exp * 1000);
}

/** A studio's backend: mints access tokens, sends events for any player, resets leaderboards, with an API key. */
export function createBackendClient(options: BackendClientOptions): BackendClient {
  const api = typedApi<BackendPaths>("backend", BACKEND_OPERATIONS, options, () => options.apiKey);
  const mintAccessToken = async (userId: string): Promise<MintedToken> => {
    const { token } = await api.post("/api/v1/auth/access-token", { body: { user_id: userId } });
    return { token, userId, expiresAt: tokenExpiry(token) };
  };
  return {
    ...api,
    mintAccessToken,
    actingFor(userId, { refreshBeforeSeconds = 60 } = {}) {
      let minted: MintedToken | undefined;
      let pending: Promise<MintedToken> | undefined;
      const getAccessToken = async () => {
        if (minted && minted.expiresAt.getTime() - refreshBeforeSeconds * 1000 > Date.now()) return minted.token;
        // One mint at a time: concurrent requests share it; a failed mint is tried again by the next request.
        pending ??= mintAccessToken(userId)
          .then((token) => (minted = token))
          .finally(() => {
            pending = undefined;
          });
        return (await pending).token;
      };
      const { apiKey: _key, ...transport } = options;
      return createGameClient({ ...transport, getAccessToken });
    },
    sendEvent: (event) => api.post("/api/v1/events", { body: event }),
    sendEvents: (events, { batchSize } = {}) =>
      sendEventsInBatches((batch) => api.post("/api/v1/events/batch", { body: { events: batch } }), events, batchSize),
  };
}
