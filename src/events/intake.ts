import { userObject } from "../user/names";
import type { ApplyEventResult, UserEvent } from "../user/event";
import { logError } from "../shared/log";

/** Users whose events of one batch are applied at the same time. */
const USER_CONCURRENCY = 6;

/**
 * The event flow: the user's object applies the event (exactly once per event_id) and, unless it
 * was a duplicate, hands it on to the background queue for analytics, usage and leaderboards.
 */
export async function ingestEvent(env: Env, event: UserEvent): Promise<ApplyEventResult> {
  return userObject(env, event.appId, event.userId).applyEvent(event);
}

export type IngestOutcome = ApplyEventResult | { failed: true };

/**
 * Applies many events: each user's events one after the other in the order given (a `group`
 * event replaces what the `single` events before it added), different users concurrently.
 */
export async function ingestEvents(env: Env, events: UserEvent[]): Promise<IngestOutcome[]> {
  const outcomes: IngestOutcome[] = new Array(events.length);
  const byUser = new Map<string, number[]>();
  events.forEach((event, index) => {
    const key = `${event.appId}\u0000${event.userId}`;
    const sameUser = byUser.get(key);
    if (sameUser) sameUser.push(index);
    else byUser.set(key, [index]);
  });

  const queue = [...byUser.values()];
  const worker = async () => {
    for (let indexes = queue.shift(); indexes; indexes = queue.shift()) {
      const stub = userObject(env, events[indexes[0]].appId, events[indexes[0]].userId);
      for (const index of indexes) {
        try {
          outcomes[index] = await stub.applyEvent(events[index]);
        } catch (err) {
          logError("applying an event of a batch failed", err, { app_id: events[index].appId, event_name: events[index].eventName });
          outcomes[index] = { failed: true };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(USER_CONCURRENCY, queue.length) }, worker));
  return outcomes;
}
