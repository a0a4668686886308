import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { advanceClock, createTestApp } from "../helpers";
import { userObject } from "../../../src/user/names";
import { DEFAULT_RATE_LIMITS } from "../../../src/apps/settings";
import { capturingBackground, callCapturing } from "./support";

let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  app = await createTestApp("Idempotency");
});

const send = (queue: Queue, userId: string, eventId: string) =>
  callCapturing(queue, "POST", "/api/v1/events", {
    token: app.apiKey,
    body: { user_id: userId, event_name: "earn-points", meta_data: { amount: 10 }, event_id: eventId },
  });

const processedIds = (userId: string) =>
  runInDurableObject(userObject(env, app.appId, userId), (_instance, state) =>
    state.storage.sql
      .exec<{ event_id: string }>("SELECT event_id FROM processed_events ORDER BY event_id")
      .toArray()
      .map((r) => r.event_id),
  );

describe("event_id", () => {
  it("applies an event sent twice once, and acknowledges both", async () => {
    const { sent, queue } = capturingBackground();
    const first = await send(queue, "p1", "evt-1");
    const second = await send(queue, "p1", "evt-1");
    expect(first).toEqual({ status: 200, body: { status: 200, message: "OK" } });
    expect(second).toEqual(first);
    expect(sent).toHaveLength(1);
    expect(await processedIds("p1")).toEqual(["evt-1"]);
  });

  it("is scoped to the user: another user's event with the same id is applied", async () => {
    const { sent, queue } = capturingBackground();
    await send(queue, "p2", "evt-1");
    expect(sent).toHaveLength(1);
  });

  it("is remembered for more than 24 hours, then forgotten", async () => {
    const { sent, queue } = capturingBackground();
    await send(queue, "p3", "old");
    await advanceClock(25 * 3600);
    await send(queue, "p3", "old");
    expect(sent).toHaveLength(1);

    await advanceClock(24 * 3600);
    await send(queue, "p3", "newer"); // prunes ids older than the window
    expect(await processedIds("p3")).toEqual(["newer"]);
    await send(queue, "p3", "old");
    expect(sent).toHaveLength(3);
  });

  it("answers duplicates from the user's object without applying them", async () => {
    const event = {
      appId: app.appId,
      userId: "p4",
      teamId: null,
      eventName: "custom",
      eventType: "single" as const,
      sessionId: "persistent",
      metaData: {},
      eventId: "direct",
      receivedAt: Date.now(),
      credential: "api_key" as const,
    };
    const limit = DEFAULT_RATE_LIMITS.perUserPerMinute;
    const stub = userObject(env, app.appId, "p4");
    expect(await stub.applyEvent(event, limit)).toEqual({ duplicate: false });
    expect(await stub.applyEvent(event, limit)).toEqual({ duplicate: true });
    expect(await stub.applyEvent({ ...event, eventId: null }, limit)).toEqual({ duplicate: false });
    expect(await stub.applyEvent({ ...event, eventId: null }, limit)).toEqual({ duplicate: false });
  });
});
