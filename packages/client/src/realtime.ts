import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import type { GameClient } from "./game.js";
import type { components } from "./generated/schema.js";

type Schemas = components["schemas"];

/** What a topic's messages are: the webhook body of the change; leaderboard topics name it `leaderboard-ranking-changed`. */
export interface TopicMessages {
  challenges: Schemas["ChallengeChangedPayload"];
  challenge: Schemas["ChallengeChangedPayload"];
  battlePass:
    | Schemas["BattlePassChallengeChangedPayload"]
    | Schemas["BattlePassLevelRewardClaimedPayload"]
    | Schemas["BattlePassExpiredPayload"];
  leaderboard: Omit<Schemas["LeaderboardUpdatedPayload"], "webhook_type"> & {
    webhook_type: "leaderboard-ranking-changed";
  };
}

/** A subscription to one topic: iterate it for the messages; `close()` ends the iteration and the connection. */
export interface Subscription<T> extends AsyncIterable<T> {
  readonly topic: string;
  readonly client: MqttClient;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** The service's URL; the broker is at `<ws(s)>://<host>/mqtt`. */
  baseUrl: string;
  /** The topic, as a topic link answered it. */
  topic: string;
  /** The player's access token, sent as the CONNECT password (never in the URL); without it the connection is anonymous. */
  accessToken?: string;
  /** More options for `mqtt.connectAsync`. */
  mqtt?: IClientOptions;
}

/** The broker's WebSocket URL for a service URL. */
export const brokerUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, "").replace(/^http/, "ws")}/mqtt`;

/** Connects to the broker and subscribes to `topic`; resolves once the subscription is acknowledged. */
export async function subscribe<T = unknown>(options: SubscribeOptions): Promise<Subscription<T>> {
  const client = await mqtt.connectAsync(brokerUrl(options.baseUrl), {
    protocolVersion: 5,
    // mqtt.js sends a password only with a user name; the service reads the token, not the name.
    ...(options.accessToken === undefined ? {} : { username: "access-token", password: options.accessToken }),
    ...options.mqtt,
  });
  const queue: T[] = [];
  const waiting: ((result: IteratorResult<T, undefined>) => void)[] = [];
  let done = false;
  const finish = () => {
    done = true;
    for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
  };
  client.on("message", (topic, payload) => {
    if (topic !== options.topic) return;
    const message = JSON.parse(new TextDecoder().decode(payload)) as T;
    const resolve = waiting.shift();
    if (resolve) resolve({ value: message, done: false });
    else queue.push(message);
  });
  client.on("close", () => {
    if (!client.reconnecting) finish();
  });
  client.on("end", finish);
  try {
    const granted = await client.subscribeAsync(options.topic, { qos: 0 });
    if (granted.some((g) => g.qos >= 0x80)) throw new Error(`the broker refused the topic ${options.topic}`);
  } catch (error) {
    await client.endAsync(true);
    throw error;
  }
  return {
    topic: options.topic,
    client,
    close: async () => {
      await client.endAsync();
      finish();
    },
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const value = queue.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T, undefined>>((resolve) => waiting.push(resolve));
      },
      return: async () => {
        await client.endAsync();
        finish();
        return { value: undefined, done: true };
      },
    }),
  };
}

/** The topics of a game client's player, each fetched from its topic link and subscribed with the player's token. */
export function realtime(game: GameClient, mqttOptions?: IClientOptions) {
  const open = async <K extends keyof TopicMessages>(
    topic: Promise<{ topic: string }>,
  ): Promise<Subscription<TopicMessages[K]>> =>
    subscribe<TopicMessages[K]>({
      baseUrl: game.baseUrl,
      topic: (await topic).topic,
      accessToken: await game.accessToken(),
      mqtt: mqttOptions,
    });
  return {
    /** Every change of the player's challenges. */
    challenges: () => open<"challenges">(game.get("/api/v1/auth/user-challenges-topic-link")),
    /** The changes of one of the player's challenges. */
    challenge: (challengeId: string) =>
      open<"challenge">(
        game.get("/api/v1/auth/user-challenge-topic-link", { params: { query: { challenge_id: challengeId } } }),
      ),
    /** The changes of the player's state in one battle pass. */
    battlePass: (battlePassId: string) =>
      open<"battlePass">(
        game.get("/api/v1/auth/user-battle-pass-topic-link", { params: { query: { battle_pass_id: battlePassId } } }),
      ),
    /** The rank and score changes of one leaderboard. */
    leaderboard: (leaderboardId: string) =>
      open<"leaderboard">(
        game.get("/api/v1/auth/leaderboard-topic-link", { params: { query: { leaderboard_id: leaderboardId } } }),
      ),
  };
}
