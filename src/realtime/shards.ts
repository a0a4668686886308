/**
 * The broker's Durable Objects. A client's socket lives in one of them, chosen at random when it
 * connects (the SCILL SDK connects to a fixed URL and names its topic only later, so nothing
 * better is known then). Publishes never go to every shard: the owner of each topic (the user's
 * object, or the topic's hub for a leaderboard: see owners.ts) knows the shards where it has
 * subscribers, and only those get a call.
 *
 * MQTT_BROKER_SHARDS sets how many objects connections spread over. Changing it is safe at any
 * time: sockets stay where they are, and owners address shards by their object ids.
 */

/**
 * Sized for growth (docs/capacity.md): one object takes about 1,000 requests a second, and a
 * client with a 60 s keep-alive sends one PINGREQ a minute, so at half that load a shard carries
 * about 30,000 clients and 32 shards about a million, before any connect or message.
 */
export const DEFAULT_BROKER_SHARDS = 32;

/** MQTT_BROKER_SHARDS, or the default when it is unset or not a positive integer. */
export function brokerShards(value: string | undefined): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n >= 1 ? n : DEFAULT_BROKER_SHARDS;
}

export function brokerShard(env: Pick<Env, "BROKER">, shard: number) {
  return env.BROKER.get(env.BROKER.idFromName(`mqtt-broker-${shard}`));
}

/** Every shard: for the rare news that every broker must hear (a player banned or unbanned). */
export const allShards = (env: Pick<Env, "BROKER"> & { MQTT_BROKER_SHARDS?: string }) =>
  Array.from({ length: brokerShards(env.MQTT_BROKER_SHARDS) }, (_, i) => brokerShard(env, i));

export const randomShard = (env: { MQTT_BROKER_SHARDS?: string }) =>
  Math.floor(Math.random() * brokerShards(env.MQTT_BROKER_SHARDS));
