import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRecentEvents, recordRecentEvent, RECENT_EVENTS_KEPT } from "../../../src/events/recent-events";
import type { UserEvent } from "../../../src/user/event";
import { userObject } from "../../../src/user/names";
import { eventsTables } from "../../../src/events/event-tables";
import { areaTables } from "../helpers";

const event = (n: number): UserEvent => ({
  appId: "1",
  userId: "recent",
  teamId: null,
  eventName: "kill-enemy",
  eventType: "single",
  sessionId: "persistent",
  metaData: { amount: n },
  eventId: null,
  receivedAt: 1_000 + n,
  credential: "api_key",
});

describe("a player's recent events", () => {
  it("are the newest ones, newest first, and the table stays within twice their number", async () => {
    await runInDurableObject(userObject(env, "1", "recent"), (_instance, state) => {
      const sql = areaTables(state.storage, eventsTables);
      for (let n = 1; n <= 3 * RECENT_EVENTS_KEPT + 7; n++) {
        recordRecentEvent(sql, event(n));
        const rows = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM recent_events").one().n;
        expect(rows).toBeLessThan(2 * RECENT_EVENTS_KEPT);
      }
      const recent = readRecentEvents(sql, 100);
      expect(recent.map((e) => e.meta_data.amount)).toEqual(
        Array.from({ length: RECENT_EVENTS_KEPT }, (_, i) => 3 * RECENT_EVENTS_KEPT + 7 - i),
      );
    });
  });
});
