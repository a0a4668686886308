import type { Change } from "../changes/types";
import type { TopicBatch } from "./broker-do";
import { groupByOwner } from "./owners";
import { topicName, type RealtimeTopicRef, type TopicEnv } from "./topics";
import { logBackgroundFailure } from "../shared/log";

/** A challenge change also goes to the topic of that one challenge (SCILL's user-challenge-topic-link). */
function refsOf(change: Change): RealtimeTopicRef[] {
  const ref = change.topic;
  if (!ref) return [];
  if (ref.kind !== "user-challenges") return [ref];
  const challenge = (change.payload.new_challenge ?? change.payload.old_challenge) as
    | { challenge_id?: unknown }
    | undefined;
  const challengeId = challenge?.challenge_id;
  if (typeof challengeId !== "string" || challengeId === "") return [ref];
  return [ref, { kind: "user-challenge", appId: ref.appId, userId: ref.userId, challengeId }];
}

/**
 * The `webhook_type` a topic's messages carry where it differs from the webhook's. Leaderboard
 * topics are SCILL's, outside the spec, and SCILL's clients dispatch them on
 * `leaderboard-ranking-changed` (Unreal ignores any other value: ScillMqtt.cpp:75-137); the
 * leaderboard webhook keeps the spec's `leaderoard-updated`. The rest of the payload is the same.
 */
const TOPIC_WEBHOOK_TYPE: Partial<Record<RealtimeTopicRef["kind"], string>> = {
  leaderboard: "leaderboard-ranking-changed",
};

/** The MQTT message of a change on a topic of this kind. */
function topicMessage(change: Change, kind: RealtimeTopicRef["kind"]): string {
  const webhookType = TOPIC_WEBHOOK_TYPE[kind];
  return JSON.stringify(webhookType === undefined ? change.payload : { ...change.payload, webhook_type: webhookType });
}

/**
 * Groups messages by topic, keeping the order of the changes within each topic; only topics that
 * pass `wanted`, if given.
 */
export async function topicBatches(
  env: TopicEnv,
  changes: Change[],
  wanted?: (topic: string) => boolean,
): Promise<TopicBatch[]> {
  const byTopic = new Map<string, string[]>();
  for (const change of changes) {
    let payload: string | undefined;
    for (const ref of refsOf(change)) {
      const topic = await topicName(env, ref);
      if (wanted && !wanted(topic)) continue;
      // Every topic of one change gets the same message: a challenge's two topics both carry the webhook payload.
      payload ??= topicMessage(change, ref.kind);
      const list = byTopic.get(topic);
      if (list) list.push(payload);
      else byTopic.set(topic, [payload]);
    }
  }
  return [...byTopic].map(([topic, payloads]) => ({ topic, payloads }));
}

/**
 * Pushes changes to their MQTT subscribers: topics are recomputed from the refs (no lookup), and
 * each topic's owner gets one call with its messages and passes them on only to the broker shards
 * where the topic has subscribers (owners.ts). For changes of no one user (leaderboards); a user's
 * object publishes through its own watchers. Best effort, as MQTT is for a client that is offline:
 * a failure is logged and never reaches the caller, whose changes are already saved.
 */
export async function publishChanges(env: Env, changes: Change[]): Promise<void> {
  try {
    const groups = groupByOwner(env, await topicBatches(env, changes), (batch) => batch.topic);
    const results = await Promise.allSettled(groups.map(({ owner, items }) => owner.publishTopics(items)));
    for (const result of results) {
      if (result.status === "rejected") logBackgroundFailure("mqtt", "mqtt publish failed", result.reason);
    }
  } catch (err) {
    logBackgroundFailure("mqtt", "mqtt publish failed", err);
  }
}
