import type { BackgroundMessagesOf } from "../user/messages";
import { getNow } from "../shared/clock";
import { recordEvents } from "./analytics-store";
import { recordUsage } from "./usage-store";

/** Background handler of "event" messages: analytics rows and the monthly event count. */
export async function recordEventAnalytics(messages: BackgroundMessagesOf<"event">, env: Env): Promise<void> {
  await recordEvents(env.DB, messages.map((m) => ({ id: m.id, event: m.body.event })));
}

/** Background handler of "usage" messages (unlocked challenges, sent by the challenges area). */
export async function recordUsageCounts(messages: BackgroundMessagesOf<"usage">, env: Env): Promise<void> {
  const records = messages.map(({ id, body }) => ({ id, appId: body.appId, metric: body.metric, month: body.month, count: body.count }));
  await recordUsage(env.DB, records, await getNow(env));
}
