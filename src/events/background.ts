import type { BackgroundMessagesOf } from "../user/messages";
import { getNow } from "../shared/clock";
import { recordEvents, uncountedEvents } from "./analytics-repo";
import { archiveEvents } from "./archive/writer";
import { recordUsage } from "./usage-repo";

/**
 * Background handler of "event" messages: the raw events into the archive (R2), then their counts
 * (D1): per hour and event name, and the players per day and retention. Archived first: if
 * counting fails, the redelivery finds the same messages uncounted and archives them again under
 * the same names, so nothing is lost and, for the same batch, nothing doubled. Messages an earlier
 * delivery counted are skipped by both; a batch of first deliveries (the usual case) has none, and
 * skips the look-up. The archive keeps every accepted event, also of an app deleted since; counts
 * exist only for apps that exist.
 */
export async function recordEventAnalytics(messages: BackgroundMessagesOf<"event">, env: Env): Promise<void> {
  const now = await getNow(env);
  const records = messages.map((m) => ({
    id: m.id,
    event: m.body.event,
    userRef: m.body.userRef ?? null,
    activeDay: m.body.activeDay ?? null,
  }));
  const firstDeliveries = messages.every((m) => m.attempts === 1);
  const fresh = firstDeliveries ? records : await uncountedEvents(env.DB, records, now);
  if (fresh.length === 0) return;
  await archiveEvents(env.EVENTS_ARCHIVE, fresh);
  await recordEvents(env.DB, fresh, now);
}

/** Background handler of "usage" messages (unlocked challenges, sent by the challenges area). */
export async function recordUsageCounts(messages: BackgroundMessagesOf<"usage">, env: Env): Promise<void> {
  const records = messages.map(({ id, body }) => ({
    id,
    appId: body.appId,
    metric: body.metric,
    month: body.month,
    count: body.count,
  }));
  await recordUsage(env.DB, records, await getNow(env));
}
