import type { LeaderboardAudience, TopicRef, WebhookType } from "../changes/types";
import { watchedTopics } from "../realtime/channel";
import { topicName } from "../realtime/channel";
import { deliveryTargets } from "../webhooks/channel";
import { appEndpoints } from "../webhooks/channel";

/**
 * The leaderboards of an app whose changes somebody receives: every board when the app has an
 * endpoint for leaderboard webhooks, else the boards whose topic D1 lists as watched (the topic's
 * hub lists it before its first subscriber's SUBACK). One D1 read at most, from the cache when the
 * app has such an endpoint.
 */
export function leaderboardAudience(env: Env): LeaderboardAudience {
  return async (appId, boardIds) => {
    if (deliveryTargets(await appEndpoints(env.DB, appId), "leaderoard-updated").length > 0) return new Set(boardIds);
    const topics = await Promise.all(
      boardIds.map(
        async (id) => [id, await topicName(env, { kind: "leaderboard", appId, leaderboardId: id })] as const,
      ),
    );
    const watched = await watchedTopics(
      env.DB,
      topics.map(([, topic]) => topic),
    );
    return new Set(topics.filter(([, topic]) => watched.has(topic)).map(([id]) => id));
  };
}

/**
 * Per topic of no one user (a league cohort's): whether anyone receives its changes, every one when
 * the app has an endpoint for the webhook type, else those D1 lists as watched. One D1 read at most.
 */
export function topicAudience(env: Env) {
  return async (appId: string, webhookType: WebhookType, refs: TopicRef[]): Promise<boolean[]> => {
    if (refs.length === 0) return [];
    if (deliveryTargets(await appEndpoints(env.DB, appId), webhookType).length > 0) return refs.map(() => true);
    const topics = await Promise.all(refs.map((ref) => topicName(env, ref)));
    const watched = await watchedTopics(env.DB, topics);
    return topics.map((topic) => watched.has(topic));
  };
}
