import { GAME_OPERATIONS, type GamePaths } from "./generated/credentials.js";
import { type EventPayload, type SendEventsResult, sendEventsInBatches } from "./events.js";
import { type TransportOptions, type TypedApi, typedApi } from "./http.js";

export type GameClientOptions = TransportOptions &
  (
    | { /** The player's access token. */ accessToken: string; getAccessToken?: never }
    | {
        accessToken?: never /** Called before each request: answers a valid access token (it may mint or refresh one). */;
        getAccessToken: () => string | Promise<string>;
      }
  );

/** Events of a game client: the player is the token's, so `user_id` may be left out. */
export type GameEvent = Omit<EventPayload, "user_id"> & { user_id?: string };

export interface GameClient extends TypedApi<GamePaths> {
  /** The access token the next request carries (for realtime CONNECT, for instance). */
  accessToken(): Promise<string>;
  /** One event of the token's player. */
  sendEvent(event: GameEvent): Promise<{ status: number; message: string }>;
  /** Events in batches of 500, with each event's result. */
  sendEvents(events: readonly GameEvent[], options?: { batchSize?: number }): Promise<SendEventsResult>;
}

/** A game client: one player's challenges, battle passes, leaderboards, events and topics, with an access token. */
export function createGameClient(options: GameClientOptions): GameClient {
  const getToken = options.getAccessToken ?? (() => options.accessToken as string);
  const api = typedApi<GamePaths>("game", GAME_OPERATIONS, options, getToken);
  return {
    ...api,
    accessToken: async () => getToken(),
    sendEvent: (event) => api.post("/api/v1/events", { body: event as EventPayload }),
    sendEvents: (events, { batchSize } = {}) =>
      sendEventsInBatches(
        (batch) => api.post("/api/v1/events/batch", { body: { events: batch } }),
        events as EventPayload[],
        batchSize,
      ),
  };
}
