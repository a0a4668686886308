import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp } from "../helpers";
import { capturingBackground, callCapturing } from "./support";

let app: Awaited<ReturnType<typeof createTestApp>>;
let token: string;

beforeAll(async () => {
  app = await createTestApp("Batches");
  token = await app.tokenFor("batch-token-user");
});

const points = (userId: string | undefined, amount: unknown, extra: Record<string, unknown> = {}) => ({
  ...(userId === undefined ? {} : { user_id: userId }),
  event_name: "earn-points",
  meta_data: { amount },
  ...extra,
});

const eventNamesAndUsers = (sent: ReturnType<typeof capturingBackground>["sent"]) =>
  sent.map((m) => (m.kind === "event" ? [m.event.userId, m.event.metaData.amount] : null));

describe("POST /api/v1/events/batch", () => {
  it("applies the good events, names the bad one and keeps each user's order", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events/batch", {
      token: app.apiKey,
      body: {
        events: [
          points("a", 1, { event_id: "e-1" }),
          points("b", 2),
          points("a", 1.5, { event_id: "e-bad" }),
          points("a", 3, { event_type: "group" }),
        ],
      },
    });
    expect(r).toEqual({
      status: 200,
      body: {
        status: 200,
        message: "1 of 4 events rejected",
        results: [
          { index: 0, status: 200, message: "OK", event_id: "e-1" },
          { index: 1, status: 200, message: "OK" },
          {
            index: 2,
            status: 400,
            message:
              "Invalid event: meta_data.amount must be an integer, not a float (scale it to an integer, for example times 1000)",
            event_id: "e-bad",
            errors: [
              {
                field: "meta_data.amount",
                problem: "must be an integer, not a float (scale it to an integer, for example times 1000)",
              },
            ],
          },
          { index: 3, status: 200, message: "OK" },
        ],
      },
    });
    // Users are applied side by side: the order holds within each user, not across them.
    const applied = eventNamesAndUsers(sent);
    expect(applied.filter((e) => e?.[0] === "a")).toEqual([
      ["a", 1],
      ["a", 3],
    ]);
    expect(applied.filter((e) => e?.[0] !== "a")).toEqual([["b", 2]]);
  });

  it("answers OK when every event is accepted, and marks a repeated event_id as a duplicate", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events/batch", {
      token: app.apiKey,
      body: { events: [points("c", 1, { event_id: "same" }), points("c", 1, { event_id: "same" })] },
    });
    expect(r.body).toEqual({
      status: 200,
      message: "OK",
      results: [
        { index: 0, status: 200, message: "OK", event_id: "same" },
        { index: 1, status: 200, message: "OK", event_id: "same", duplicate: true },
      ],
    });
    expect(sent).toHaveLength(1);
  });

  it("takes the user from an access token and refuses a user_id in any event", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events/batch?auth=access_token", {
      token,
      body: { events: [points(undefined, 4), points("intruder", 5)] },
    });
    expect(r.body.results).toEqual([
      { index: 0, status: 200, message: "OK" },
      {
        index: 1,
        status: 400,
        message: "Invalid event: user_id must not be sent with an access token: the token names the user",
        errors: [{ field: "user_id", problem: "must not be sent with an access token: the token names the user" }],
      },
    ]);
    expect(eventNamesAndUsers(sent)).toEqual([["batch-token-user", 4]]);
  });

  it("sends the applied events of a full batch to the background queue", async () => {
    const { sent, queue } = capturingBackground();
    const events = Array.from({ length: 500 }, (_, i) => points(`user-${i % 7}`, i));
    const r = await callCapturing(queue, "POST", "/api/v1/events/batch", { token: app.apiKey, body: { events } });
    expect(r.body.message).toBe("OK");
    expect(r.body.results).toHaveLength(500);
    expect(sent).toHaveLength(500);
    // Per user, the order of the batch.
    const ofUser3 = eventNamesAndUsers(sent)
      .filter((e) => e![0] === "user-3")
      .map((e) => e![1]);
    expect(ofUser3).toEqual(
      events
        .map((e, i) => [e.user_id, i])
        .filter(([u]) => u === "user-3")
        .map(([, i]) => i),
    );
  });

  it("refuses a request that is not a list of 1 to 500 events", async () => {
    const problem = "must be an array of 1 to 500 events";
    const refused = {
      status: 400,
      body: { status: 400, message: `Invalid body: events ${problem}`, errors: [{ field: "events", problem }] },
    };
    for (const body of [
      { events: [] },
      { events: Array.from({ length: 501 }, () => points("a", 1)) },
      [points("a", 1)],
      { events: "x" },
    ]) {
      expect(await call("POST", "/api/v1/events/batch", { token: app.apiKey, body })).toMatchObject(refused);
    }
  });

  it("needs a credential like a single event", async () => {
    expect(await call("POST", "/api/v1/events/batch", { body: { events: [points("a", 1)] } })).toMatchObject({
      status: 401,
      body: { status: 401, message: "Missing Authorization header" },
    });
  });
});
