import type { TopicBatch } from "./broker-do";
import { topicOwner } from "./topics";

/** What the object that owns a topic answers: the user's object (user-do.ts) or a topic hub (topic-hub-do.ts). */
export interface TopicOwner {
  watchTopics(broker: string, topics: string[], watching: boolean): Promise<void>;
  publishTopics(batches: TopicBatch[]): Promise<void>;
}

export type OwnersEnv = Pick<Env, "USER" | "TOPIC_HUB">;

/**
 * The owner of an issued topic, which knows the broker shards where it has subscribers: the user's
 * object named in a user's topic, else the topic's own hub. `key` is the same for topics of one owner.
 */
export function ownerOfTopic(env: OwnersEnv, topic: string): { key: string; owner: TopicOwner } {
  const user = topicOwner(topic);
  if (user !== null) return { key: user, owner: env.USER.get(env.USER.idFromString(user)) };
  return { key: `hub:${topic}`, owner: env.TOPIC_HUB.get(env.TOPIC_HUB.idFromName(topic)) };
}

/** Topics (or batches of a topic) grouped by owner, each group in the order given. */
export function groupByOwner<T>(
  env: OwnersEnv,
  items: T[],
  topicOf: (item: T) => string,
): { owner: TopicOwner; items: T[] }[] {
  const groups = new Map<string, { owner: TopicOwner; items: T[] }>();
  for (const item of items) {
    const { key, owner } = ownerOfTopic(env, topicOf(item));
    const group = groups.get(key);
    if (group) group.items.push(item);
    else groups.set(key, { owner, items: [item] });
  }
  return [...groups.values()];
}
