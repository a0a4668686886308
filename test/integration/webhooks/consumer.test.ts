import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { webhookSignature } from "../../../src/webhooks/core/signing";
import { createTestApp } from "../helpers";
import {
  admin,
  createEndpoint,
  deadLetter,
  deliver,
  deliveryByMessage,
  deliveryLog,
  message,
  stubReceiver,
} from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

async function appWithEndpoint(
  url = "https://receiver.example/hook?game=space%20racer",
  secret_key = "my-shared-secret",
) {
  const { appId } = await createTestApp();
  const endpoint = await createEndpoint(appId, { webhook_type: "challenge-changed", url, secret_key });
  return { appId, endpoint };
}

describe("webhook delivery", () => {
  it("POSTs the exact body with secret_key and Standard Webhooks headers, and logs the success", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    const calls = stubReceiver(() => new Response("ok"));
    const m = message(appId, endpoint.webhook_id);
    const { ids, result } = await deliver([{ body: m }]);

    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    expect(calls).toHaveLength(1);
    const [received] = calls;
    expect(received.method).toBe("POST");
    expect(received.url.toString()).toBe(
      "https://receiver.example/hook?game=space%20racer&secret_key=my-shared-secret",
    );
    expect(received.body).toBe(m.body);
    expect(received.headers.get("content-type")).toBe("application/json");
    expect(received.headers.get("webhook-id")).toBe(m.messageId);
    const timestamp = Number(received.headers.get("webhook-timestamp"));
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(600);
    expect(received.headers.get("webhook-signature")).toBe(
      await webhookSignature("my-shared-secret", m.messageId, timestamp, m.body),
    );

    const delivery = await deliveryByMessage(appId, m.messageId);
    expect(delivery).toMatchObject({
      message_id: m.messageId,
      webhook_id: endpoint.webhook_id,
      webhook_type: "challenge-changed",
      status: "succeeded",
      url: "https://receiver.example/hook?game=space%20racer",
      attempt_count: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: "2025-01-01T00:00:00.000Z",
      payload: JSON.parse(m.body),
      attempts: [
        {
          attempt_number: 1,
          status_code: 200,
          error: null,
          outcome: "succeeded",
          latency_ms: expect.any(Number),
          attempted_at: expect.any(String),
        },
      ],
    });
  });

  it("retries a failing receiver with the backoff, keeping the webhook-id, logging every attempt", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    const calls = stubReceiver((_, i) =>
      i < 3 ? new Response("nope", { status: [500, 403, 404][i] }) : new Response(null, { status: 204 }),
    );
    const m = message(appId, endpoint.webhook_id);

    for (const [attempt, delay] of [
      [1, 60],
      [2, 120],
      [3, 240],
    ]) {
      const { ids, result } = await deliver([{ body: m, attempts: attempt }]);
      expect(result.explicitAcks).toEqual([]);
      expect(result.retryMessages).toEqual([{ msgId: ids[0], delaySeconds: delay }]);
      expect((await deliveryByMessage(appId, m.messageId)).status).toBe("pending");
    }
    const { ids, result } = await deliver([{ body: m, attempts: 4 }]);
    expect(result.explicitAcks).toEqual(ids);

    expect(calls.map((c) => c.headers.get("webhook-id"))).toEqual([m.messageId, m.messageId, m.messageId, m.messageId]);
    const delivery = await deliveryByMessage(appId, m.messageId);
    expect(delivery).toMatchObject({
      status: "succeeded",
      attempt_count: 4,
      last_status_code: 204,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery.attempts.map((a: any) => [a.attempt_number, a.status_code, a.outcome, a.error])).toEqual([
      [1, 500, "failed", "HTTP 500: nope"],
      [2, 403, "failed", "HTTP 403: nope"],
      [3, 404, "failed", "HTTP 404: nope"],
      [4, 204, "succeeded", null],
    ]);
  });

  it("scales the schedule with WEBHOOK_RETRY_BASE_SECONDS and honours a longer Retry-After", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    stubReceiver((_, i) => new Response(null, { status: 503, headers: i === 1 ? { "Retry-After": "90" } : {} }));
    const m = message(appId, endpoint.webhook_id);
    const first = await deliver([{ body: m, attempts: 3 }], { WEBHOOK_RETRY_BASE_SECONDS: "2" });
    expect(first.result.retryMessages).toEqual([{ msgId: first.ids[0], delaySeconds: 8 }]);
    const second = await deliver([{ body: m, attempts: 4 }], { WEBHOOK_RETRY_BASE_SECONDS: "2" });
    expect(second.result.retryMessages).toEqual([{ msgId: second.ids[0], delaySeconds: 90 }]);
    const zero = await deliver([{ body: m, attempts: 5 }], { WEBHOOK_RETRY_BASE_SECONDS: "0" });
    expect(zero.result.retryMessages).toEqual([{ msgId: zero.ids[0], delaySeconds: 0 }]);
  });

  it("retries when no answer arrives and logs why", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    stubReceiver((_, i) => {
      if (i === 0) throw new TypeError("Network connection lost.");
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    });
    const m = message(appId, endpoint.webhook_id);
    await deliver([{ body: m, attempts: 1 }]);
    await deliver([{ body: m, attempts: 2 }]);
    const delivery = await deliveryByMessage(appId, m.messageId);
    expect(delivery.attempts.map((a: any) => [a.status_code, a.error])).toEqual([
      [null, "Request failed: Network connection lost."],
      [null, "No answer within 10 s"],
    ]);
    expect(delivery).toMatchObject({
      status: "pending",
      last_status_code: null,
      last_error: "No answer within 10 s",
      next_attempt_at: expect.any(String),
    });
  });

  it("hands the message to the dead-letter queue after the last attempt, which logs the delivery as failed", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    stubReceiver(() => new Response("wrong secret", { status: 403 }));
    const m = message(appId, endpoint.webhook_id);
    const last = await deliver([{ body: m, attempts: 21 }]);
    // Retrying past max_retries is what makes the queue dead-letter the message.
    expect(last.result.retryMessages).toEqual([{ msgId: last.ids[0], delaySeconds: 43200 }]);
    expect(await deliveryByMessage(appId, m.messageId)).toMatchObject({ status: "pending", next_attempt_at: null });

    const dlq = await deadLetter([{ body: m }]);
    expect(dlq.result.ackAll).toBe(true);
    expect(await deliveryByMessage(appId, m.messageId)).toMatchObject({
      status: "failed",
      attempt_count: 1,
      last_status_code: 403,
      last_error: "HTTP 403: wrong secret",
      next_attempt_at: null,
    });
    expect((await deliveryLog(appId, "&status=failed")).total).toBe(1);
  });

  it("logs a dead-lettered message even when no attempt was logged", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    const m = message(appId, endpoint.webhook_id);
    await deadLetter([{ body: m }]);
    expect(await deliveryByMessage(appId, m.messageId)).toMatchObject({
      status: "failed",
      attempt_count: 0,
      last_error: "Dead-lettered before any attempt was logged",
      attempts: [],
    });
  });

  it("disables the endpoint when the receiver answers 410 Gone", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    const calls = stubReceiver(() => new Response(null, { status: 410 }));
    const m = message(appId, endpoint.webhook_id);
    const { ids, result } = await deliver([{ body: m }]);
    expect(result.explicitAcks).toEqual(ids);
    expect(await deliveryByMessage(appId, m.messageId)).toMatchObject({
      status: "failed",
      last_status_code: 410,
      last_error: "HTTP 410",
    });
    expect((await admin("GET", `/apps/${appId}/webhooks/${endpoint.webhook_id}`)).body).toMatchObject({
      enabled: false,
      disabled_at: expect.any(String),
      disabled_reason: "The receiver answered 410 Gone",
    });

    // Further messages for it are not sent; a PUT enables it again.
    const next = message(appId, endpoint.webhook_id);
    await deliver([{ body: next }]);
    expect(calls).toHaveLength(1);
    expect(await deliveryByMessage(appId, next.messageId)).toMatchObject({
      status: "failed",
      attempt_count: 0,
      last_error: "Not sent: the webhook endpoint is disabled (it answered 410 Gone)",
    });
    const put = await admin("PUT", `/apps/${appId}/webhooks/${endpoint.webhook_id}`, {
      webhook_type: "challenge-changed",
      url: endpoint.url,
      secret_key: endpoint.secret_key,
    });
    expect(put.body).toMatchObject({ enabled: true, disabled_at: null });
  });

  it("calls a per-level URL with the secret of the endpoint that signs it, without disabling that endpoint on 410", async () => {
    const { appId, endpoint } = await appWithEndpoint("https://receiver.example/default", "level-secret-1");
    const calls = stubReceiver(() => new Response(null, { status: 410 }));
    const m = message(appId, endpoint.webhook_id, { overrideUrl: "https://rewards.example/level/3" });
    await deliver([{ body: m }]);
    expect(calls.map((c) => c.url.toString())).toEqual(["https://rewards.example/level/3?secret_key=level-secret-1"]);
    expect((await admin("GET", `/apps/${appId}/webhooks/${endpoint.webhook_id}`)).body.enabled).toBe(true);
    expect(await deliveryByMessage(appId, m.messageId)).toMatchObject({
      status: "failed",
      url: "https://rewards.example/level/3",
    });
  });

  it("uses the endpoint's current URL and secret on each attempt", async () => {
    const { appId, endpoint } = await appWithEndpoint("https://receiver.example/old", "old-secret-1");
    const calls = stubReceiver((_, i) => new Response(null, { status: i === 0 ? 500 : 200 }));
    const m = message(appId, endpoint.webhook_id);
    await deliver([{ body: m, attempts: 1 }]);
    await admin("PUT", `/apps/${appId}/webhooks/${endpoint.webhook_id}`, {
      webhook_type: "challenge-changed",
      url: "https://receiver.example/new",
      secret_key: "new-secret-2",
    });
    await deliver([{ body: m, attempts: 2 }]);
    expect(calls.map((c) => c.url.toString())).toEqual([
      "https://receiver.example/old?secret_key=old-secret-1",
      "https://receiver.example/new?secret_key=new-secret-2",
    ]);
  });

  it("does not send for a deleted endpoint or a URL no longer allowed", async () => {
    const { appId, endpoint } = await appWithEndpoint("http://127.0.0.1:9/hook");
    const calls = stubReceiver(() => new Response("ok"));
    const refused = message(appId, endpoint.webhook_id);
    const r1 = await deliver([{ body: refused }], { ALLOW_LOOPBACK_WEBHOOKS: "off" });
    expect(r1.result.explicitAcks).toEqual(r1.ids);
    expect(await deliveryByMessage(appId, refused.messageId)).toMatchObject({
      status: "failed",
      last_error: "Not sent: the URL must use https",
    });

    await admin("DELETE", `/apps/${appId}/webhooks/${endpoint.webhook_id}`);
    const orphan = message(appId, endpoint.webhook_id);
    await deliver([{ body: orphan }]);
    expect(await deliveryByMessage(appId, orphan.messageId)).toMatchObject({
      status: "failed",
      last_error: "Not sent: the webhook endpoint was deleted",
    });
    expect(calls).toHaveLength(0);
  });

  it("delivers a batch at once, settling each message on its own outcome", async () => {
    const { appId, endpoint } = await appWithEndpoint("https://receiver.example/hook");
    stubReceiver((c) => new Response(null, { status: JSON.parse(c.body).n % 2 === 0 ? 200 : 500 }));
    const messages = Array.from({ length: 10 }, () => message(appId, endpoint.webhook_id));
    const { ids, result } = await deliver(messages.map((body) => ({ body })));
    const even = messages.map((m, i) => [JSON.parse(m.body).n % 2 === 0, ids[i]] as const);
    expect(result.explicitAcks.sort()).toEqual(
      even
        .filter(([ok]) => ok)
        .map(([, id]) => id)
        .sort(),
    );
    expect(result.retryMessages.map((r) => r.msgId).sort()).toEqual(
      even
        .filter(([ok]) => !ok)
        .map(([, id]) => id)
        .sort(),
    );
    expect((await deliveryLog(appId, "&status=succeeded")).total).toBe(5);
    expect((await deliveryLog(appId, "&status=pending")).total).toBe(5);
  });

  it("drops messages of unknown shape", async () => {
    const calls = stubReceiver(() => new Response("ok"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { ids, result } = await deliver([{ body: { hello: "world" } }]);
    expect(result.explicitAcks).toEqual(ids);
    expect(calls).toHaveLength(0);
  });

  it("keeps a succeeded delivery succeeded when a duplicate copy fails", async () => {
    const { appId, endpoint } = await appWithEndpoint();
    stubReceiver((_, i) => new Response(null, { status: i === 0 ? 200 : 500 }));
    const m = message(appId, endpoint.webhook_id);
    await deliver([{ body: m }]);
    await deliver([{ body: m }]);
    expect(await deliveryByMessage(appId, m.messageId)).toMatchObject({ status: "succeeded", attempt_count: 2 });
  });
});

describe("the delivery log's retention", () => {
  it("removes deliveries and attempts unchanged for 30 days, keeps younger ones", async () => {
    const { pruneDeliveryLog } = await import("../../../src/webhooks/deliveries-repo");
    const { appId, endpoint } = await appWithEndpoint();
    stubReceiver(() => new Response("ok"));
    const old = message(appId, endpoint.webhook_id);
    const young = message(appId, endpoint.webhook_id);
    await deliver([{ body: old }, { body: young }]);
    const day = 86_400_000;
    const now = Date.now();
    await env.DB.prepare("UPDATE webhook_deliveries SET updated_at = ? WHERE message_id = ?")
      .bind(new Date(now - 31 * day).toISOString(), old.messageId)
      .run();
    await env.DB.prepare("UPDATE webhook_deliveries SET updated_at = ? WHERE message_id = ?")
      .bind(new Date(now - 29 * day).toISOString(), young.messageId)
      .run();

    await pruneDeliveryLog(env.DB, now);
    expect((await deliveryLog(appId)).items.map((d) => d.message_id)).toEqual([young.messageId]);
    const attempts = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d USING (delivery_id) WHERE d.app_id = ?",
    )
      .bind(Number(appId))
      .first<{ n: number }>();
    const orphans = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id NOT IN (SELECT delivery_id FROM webhook_deliveries)",
    ).first<{ n: number }>();
    expect([attempts!.n, orphans!.n]).toEqual([1, 0]);
  });
});
