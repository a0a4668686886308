/**
 * The broker's Durable Objects. A client's socket lives in one of them, chosen at random when it
 * connects (the SCILL SDK connects to a fixed URL and names its topic only later, so nothing
 * better is known then); a publish goes to every one, each delivering to its own subscribers.
 *
 * One object holds thousands of hibernating sockets, which is plenty to start. Scaling path:
 * raise BROKER_SHARDS (connections spread, publishes fan out to N objects); past a few shards,
 * add a topic registry (a DO per hash of the topic that records which shards have subscribers),
 * so that a publish reaches only the shards that need it and none when nobody listens.
 */
export const BROKER_SHARDS = 1;

export function brokerShard(env: Pick<Env, "BROKER">, shard: number) {
  return env.BROKER.get(env.BROKER.idFromName(`mqtt-broker-${shard}`));
}

export const randomShard = () => Math.floor(Math.random() * BROKER_SHARDS);

export const allShards = (env: Pick<Env, "BROKER">) => Array.from({ length: BROKER_SHARDS }, (_, i) => brokerShard(env, i));
