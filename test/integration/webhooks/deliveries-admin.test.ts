import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestApp } from "../helpers";
import { admin, createEndpoint, deadLetter, deliver, deliveryLog, message, stubReceiver, until } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the delivery log", () => {
  it("pages newest first and filters by status, endpoint, type and message id", async () => {
    const { appId } = await createTestApp();
    const a = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/a" });
    const b = await createEndpoint(appId, { webhook_type: "battlepass-expired", url: "https://a.example/b" });
    stubReceiver((c) => new Response(null, { status: c.url.pathname === "/a" ? 200 : 500 }));
    const ms = [
      message(appId, a.webhook_id),
      message(appId, a.webhook_id),
      message(appId, b.webhook_id, { webhookType: "battlepass-expired" }),
    ];
    for (const m of ms) await deliver([{ body: m }]);

    const page1 = await admin("GET", `/apps/${appId}/webhook-deliveries?pageSize=2`);
    expect(page1.body).toMatchObject({ currentPage: 1, pageSize: 2, total: 3 });
    expect(page1.body.items.map((d: any) => d.message_id)).toEqual([ms[2].messageId, ms[1].messageId]);
    const page2 = await admin("GET", `/apps/${appId}/webhook-deliveries?pageSize=2&currentPage=2`);
    expect(page2.body.items.map((d: any) => d.message_id)).toEqual([ms[0].messageId]);

    expect((await deliveryLog(appId, "&status=succeeded")).total).toBe(2);
    expect((await deliveryLog(appId, "&status=pending")).items.map((d) => d.message_id)).toEqual([ms[2].messageId]);
    expect((await deliveryLog(appId, "&status=failed")).total).toBe(0);
    expect((await deliveryLog(appId, `&webhook_id=${b.webhook_id}`)).total).toBe(1);
    expect((await deliveryLog(appId, "&webhook_type=challenge-changed")).total).toBe(2);
    expect((await deliveryLog(appId, `&message_id=${ms[1].messageId}`)).items).toHaveLength(1);
    expect((await admin("GET", `/apps/${appId}/webhook-deliveries?status=lost`)).status).toBe(400);
  });

  it("is per app: another app's delivery is not found", async () => {
    const a = await createTestApp("A");
    const b = await createTestApp("B");
    const endpoint = await createEndpoint(a.appId, { webhook_type: "challenge-changed", url: "https://a.example/a" });
    stubReceiver(() => new Response("ok"));
    await deliver([{ body: message(a.appId, endpoint.webhook_id) }]);
    const [delivery] = (await deliveryLog(a.appId)).items;
    expect((await deliveryLog(b.appId)).total).toBe(0);
    expect((await admin("GET", `/apps/${b.appId}/webhook-deliveries/${delivery.delivery_id}`)).status).toBe(404);
    expect((await admin("POST", `/apps/${b.appId}/webhook-deliveries/${delivery.delivery_id}/redeliver`)).status).toBe(
      404,
    );
    expect((await admin("GET", `/apps/${a.appId}/webhook-deliveries/xyz`)).status).toBe(404);
  });

  it("redelivers a failed delivery through the queue with the same webhook-id", async () => {
    const { appId } = await createTestApp();
    const endpoint = await createEndpoint(appId, {
      webhook_type: "challenge-changed",
      url: "https://a.example/redeliver",
      secret_key: "redeliver-secret",
    });
    let healthy = false;
    const calls = stubReceiver(
      () => new Response(null, { status: healthy ? 200 : 403 }),
      (url) => url.pathname === "/redeliver",
    );
    const m = message(appId, endpoint.webhook_id);
    await deliver([{ body: m, attempts: 21 }]);
    await deadLetter([{ body: m }]);
    const [failed] = (await deliveryLog(appId)).items;
    expect(failed).toMatchObject({ status: "failed", attempt_count: 1 });

    healthy = true;
    const redelivered = await admin("POST", `/apps/${appId}/webhook-deliveries/${failed.delivery_id}/redeliver`);
    expect(redelivered).toMatchObject({ status: 202, body: { delivery_id: failed.delivery_id, status: "pending" } });
    expect(await admin("POST", `/apps/${appId}/webhook-deliveries/${failed.delivery_id}/redeliver`)).toMatchObject({
      status: 409,
      body: { status: 409, message: `Webhook delivery ${failed.delivery_id} is still pending` },
    });

    const done = await until(
      () => admin("GET", `/apps/${appId}/webhook-deliveries/${failed.delivery_id}`),
      (r) => r.body.status !== "pending",
    );
    expect(done.body).toMatchObject({ status: "succeeded", attempt_count: 2, last_status_code: 200 });
    expect(done.body.attempts.map((a: any) => [a.attempt_number, a.status_code, a.outcome])).toEqual([
      [1, 403, "failed"],
      [2, 200, "succeeded"],
    ]);
    expect(calls.map((c) => c.headers.get("webhook-id"))).toEqual([m.messageId, m.messageId]);
    expect(calls[1].body).toBe(m.body);
  });

  it("refuses to redeliver when the endpoint is deleted", async () => {
    const { appId } = await createTestApp();
    const endpoint = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/a" });
    stubReceiver(() => new Response("ok"));
    await deliver([{ body: message(appId, endpoint.webhook_id) }]);
    const [delivery] = (await deliveryLog(appId)).items;
    await admin("DELETE", `/apps/${appId}/webhooks/${endpoint.webhook_id}`);
    expect(await admin("POST", `/apps/${appId}/webhook-deliveries/${delivery.delivery_id}/redeliver`)).toMatchObject({
      status: 409,
      body: { message: `The endpoint of webhook delivery ${delivery.delivery_id} was deleted` },
    });
    expect((await deliveryLog(appId)).items[0].status).toBe("succeeded");
  });
});

describe("the test call", () => {
  it("is queued, logged before its first attempt, delivered and logged", async () => {
    const { appId } = await createTestApp();
    const endpoint = await createEndpoint(appId, {
      webhook_type: "battlepass-expired",
      url: "https://a.example/test-call",
    });
    const calls = stubReceiver(
      () => new Response("ok"),
      (url) => url.pathname === "/test-call",
    );
    const queued = await admin("POST", `/apps/${appId}/webhooks/${endpoint.webhook_id}/test`);
    expect(queued).toMatchObject({
      status: 202,
      body: {
        delivery_id: expect.stringMatching(/^\d+$/),
        message_id: expect.stringMatching(/^msg_/),
        webhook_id: endpoint.webhook_id,
        status: "pending",
        attempt_count: 0,
      },
    });
    const done = await until(
      () => admin("GET", `/apps/${appId}/webhook-deliveries/${queued.body.delivery_id}`),
      (r) => r.body.status !== "pending",
    );
    expect(done.body).toMatchObject({
      status: "succeeded",
      attempt_count: 1,
      payload: {
        webhook_type: "battlepass-expired",
        test: true,
        message: expect.any(String),
        created_at: expect.any(String),
      },
    });
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0].body)).toEqual(done.body.payload);
    expect(calls[0].headers.get("webhook-id")).toBe(queued.body.message_id);
  });

  it("is refused for a disabled endpoint and an unknown one", async () => {
    const { appId } = await createTestApp();
    const endpoint = await createEndpoint(appId, { webhook_type: "battlepass-expired", url: "https://a.example/test" });
    stubReceiver(() => new Response(null, { status: 410 }));
    await deliver([{ body: message(appId, endpoint.webhook_id, { webhookType: "battlepass-expired" }) }]);
    expect(await admin("POST", `/apps/${appId}/webhooks/${endpoint.webhook_id}/test`)).toMatchObject({
      status: 409,
      body: { status: 409, message: `Webhook ${endpoint.webhook_id} is disabled; replace it (PUT) to enable it again` },
    });
    expect((await admin("POST", `/apps/${appId}/webhooks/999999/test`)).status).toBe(404);
  });
});
