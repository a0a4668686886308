import mqtt, { type MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { receiver } from "../support/webhook-receiver";
import { adminCreate, baseUrl, eventually, http, newStudioApp } from "./support";

const open: { close(): Promise<void> }[] = [];
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await Promise.all(open.splice(0).map((r) => r.close()));
});

const LEVELS = [
  { level: 1, name: "Rookie", points: 0 },
  { level: 2, name: "Apprentice", points: 10 },
];

async function kill(apiKey: string, userId: string, eventId: string) {
  const r = await http("POST", "/api/v1/events", {
    token: apiKey,
    body: { user_id: userId, event_name: "kill-enemy", event_id: eventId, meta_data: { amount: 1 } },
  });
  expect(r).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
}

describe("points against wrangler dev", () => {
  it("earns points from events, levels up, and tells the studio's webhook and the player's topic once per change", async () => {
    const studio = await newStudioApp("Points e2e");
    const rx = receiver(() => 200);
    open.push(rx);
    const port = await rx.listen();
    await adminCreate(`/api/v1/admin/apps/${studio.appId}/webhooks`, {
      webhook_type: "points-changed",
      url: `http://127.0.0.1:${port}/points`,
    });
    await adminCreate(`/api/v1/admin/apps/${studio.appId}/points-systems`, {
      key: "xp",
      name: { en: "Experience" },
      levels: LEVELS,
      triggers: [{ event_name: "kill-enemy", every: 1, points: 5 }],
    });

    const token = await studio.tokenFor("alice");
    const link = await http("GET", "/api/v1/auth/user-notifications-topic-link", { token });
    expect(link.status).toBe(200);
    const client = await mqtt.connectAsync(`${baseUrl().replace(/^http/, "ws")}/mqtt`, {
      protocolVersion: 5,
      reconnectPeriod: 0,
    });
    clients.push(client);
    const messages: Record<string, unknown>[] = [];
    client.on("message", (_topic, payload) => messages.push(JSON.parse(payload.toString("utf8"))));
    await client.subscribeAsync(link.body.topic, { qos: 1 });

    await kill(studio.apiKey, "alice", "kill-1");
    await kill(studio.apiKey, "alice", "kill-2");
    await kill(studio.apiKey, "alice", "kill-2"); // a retry counts once

    const points = await http("GET", `/api/v1/points/${studio.appId}`, { token });
    expect(points.status).toBe(200);
    expect(points.body.systems).toEqual([
      {
        key: "xp",
        name: "Experience",
        balance: 10,
        earned: 10,
        level: LEVELS[1],
        next_level: null,
      },
    ]);

    const expected = [
      { amount: 5, balance: 5, earned: 5, level: LEVELS[0], previous_level: LEVELS[0] },
      { amount: 5, balance: 10, earned: 10, level: LEVELS[1], previous_level: LEVELS[0] },
    ].map((change) => ({
      webhook_type: "points-changed",
      app_id: studio.appId,
      user_id: "alice",
      system: "xp",
      ...change,
      source: { kind: "trigger", id: "kill-enemy" },
    }));
    await eventually(async () => (messages.length >= 2 ? true : undefined), 30_000, "two MQTT messages");
    const bodies = await eventually(
      async () => (rx.calls.length >= 2 ? rx.calls.map((call) => JSON.parse(call.body)) : undefined),
      60_000,
      "two webhook calls",
    );
    expect(bodies.sort((a, b) => a.balance - b.balance)).toEqual(expected);
    // By the time the webhooks arrived, the retried event has sent nothing more.
    expect(messages).toEqual(expected);
  });

  it("grants and spends from the studio's backend only, once per idempotency key", async () => {
    const studio = await newStudioApp("Coins e2e");
    await adminCreate(`/api/v1/admin/apps/${studio.appId}/points-systems`, {
      key: "coins",
      name: { en: "Coins" },
      spendable: true,
    });
    const path = `/api/v1/points/${studio.appId}/coins`;
    const grant = { user_id: "bob", amount: 50, reason: "daily login", idempotency_key: "login-1" };

    const token = await studio.tokenFor("bob");
    expect((await http("POST", `${path}/grant`, { token, body: grant })).status).toBe(403);

    const first = await http("POST", `${path}/grant`, { token: studio.apiKey, body: grant });
    expect(first).toMatchObject({ status: 200, body: { balance: 50, earned: 50, level: null } });
    const again = await http("POST", `${path}/grant`, { token: studio.apiKey, body: grant });
    expect(again.body).toEqual(first.body);

    const short = await http("POST", `${path}/spend`, {
      token: studio.apiKey,
      body: { user_id: "bob", amount: 80, reason: "shield", idempotency_key: "order-1" },
    });
    expect(short).toMatchObject({ status: 409, body: { status: 409, balance: 50 } });
    const spent = await http("POST", `${path}/spend`, {
      token: studio.apiKey,
      body: { user_id: "bob", amount: 30, reason: "sword", idempotency_key: "order-2" },
    });
    expect(spent).toMatchObject({ status: 200, body: { balance: 20, earned: 50 } });

    const ledger = await http("GET", `${path}/ledger`, { token });
    expect(ledger.status).toBe(200);
    expect(ledger.body.items.map((e: any) => [e.amount, e.balance_after, e.source, e.reason])).toEqual([
      [-30, 20, { kind: "spend", id: "order-2" }, "sword"],
      [50, 50, { kind: "grant", id: "login-1" }, "daily login"],
    ]);
    expect(ledger.body.next_cursor).toBeNull();
  });
});
