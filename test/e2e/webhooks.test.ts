import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { receiver } from "../support/webhook-receiver";
import { ADMIN_TOKEN, eventually, http, newStudioApp } from "./support";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

const admin = (method: string, path: string, body?: unknown) =>
  http(method, `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });

async function endpoint(appId: string, url: string, secret_key?: string) {
  const r = await admin("POST", `/apps/${appId}/webhooks`, { webhook_type: "challenge-changed", url, secret_key });
  expect(r.status).toBe(201);
  return r.body as { webhook_id: string; secret_key: string };
}

const emit = (appId: string, payloads: Record<string, unknown>[]) =>
  admin("POST", `/dev/apps/${appId}/changes`, {
    changes: payloads.map((payload) => ({ webhook_type: "challenge-changed", payload })),
  });

async function log(appId: string, query = "") {
  const r = await admin("GET", `/apps/${appId}/webhook-deliveries?pageSize=100${query}`);
  expect(r.status).toBe(200);
  return r.body as { items: any[]; total: number };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

describe("webhooks against wrangler dev", () => {
  it("retries a failing receiver until it succeeds once, with one webhook-id and a verifiable signature", async () => {
    const studio = await newStudioApp("Webhook retries");
    const statuses = [500, 503, 429, 200];
    const rx = receiver((_, i) => statuses[Math.min(i, statuses.length - 1)]);
    open.push(rx);
    const port = await rx.listen();
    const { secret_key } = await endpoint(studio.appId, `http://127.0.0.1:${port}/hooks?game=e2e`);
    expect(secret_key).toMatch(/^whsec_/);

    const payload = {
      webhook_type: "challenge-changed",
      category_position: 0,
      user_token: "token",
      new_challenge: { challenge_id: "7", user_challenge_current_score: 3 },
    };
    expect((await emit(studio.appId, [payload])).status).toBe(202);

    const delivered = await eventually(
      async () => {
        const { items } = await log(studio.appId);
        return items[0]?.status === "succeeded" ? items[0] : undefined;
      },
      60_000,
      "the delivery to succeed",
    );
    await settle();

    expect(rx.calls.map((c) => c.answered)).toEqual([500, 503, 429, 200]);
    expect(new Set(rx.calls.map((c) => c.headers["webhook-id"]))).toEqual(new Set([delivered.message_id]));
    for (const call of rx.calls) {
      expect(call.url.pathname).toBe("/hooks");
      expect(call.url.searchParams.get("game")).toBe("e2e");
      expect(call.url.searchParams.get("secret_key")).toBe(secret_key);
      expect(call.headers["content-type"]).toBe("application/json");
      expect(call.body).toBe(JSON.stringify(payload));
      // An independent Standard Webhooks implementation accepts every attempt's signature.
      expect(new Webhook(secret_key).verify(call.body, call.headers as Record<string, string>)).toEqual(payload);
    }

    const detail = await admin("GET", `/apps/${studio.appId}/webhook-deliveries/${delivered.delivery_id}`);
    expect(detail.body).toMatchObject({ status: "succeeded", attempt_count: 4, last_status_code: 200, payload });
    expect(detail.body.attempts.map((a: any) => [a.attempt_number, a.status_code, a.outcome])).toEqual([
      [1, 500, "failed"],
      [2, 503, "failed"],
      [3, 429, "failed"],
      [4, 200, "succeeded"],
    ]);
    for (const a of detail.body.attempts)
      expect(a).toMatchObject({ attempted_at: expect.any(String), latency_ms: expect.any(Number) });
  });

  it("retries a receiver that refuses the secret with 403 until the last attempt, then logs the delivery as failed", async () => {
    const studio = await newStudioApp("Webhook wrong secret");
    const rx = receiver((call) => (call.url.searchParams.get("secret_key") === "the-right-secret" ? 200 : 403));
    open.push(rx);
    const port = await rx.listen();
    const { secret_key } = await endpoint(studio.appId, `http://127.0.0.1:${port}/hooks`, "a-wrong-secret");
    expect((await emit(studio.appId, [{ webhook_type: "challenge-changed", n: 1 }])).status).toBe(202);

    const failed = await eventually(
      async () => {
        const { items } = await log(studio.appId);
        return items[0]?.status === "failed" ? items[0] : undefined;
      },
      110_000,
      "the delivery to fail",
    );
    await settle();

    expect(rx.calls).toHaveLength(21);
    expect(rx.calls.every((c) => c.answered === 403)).toBe(true);
    expect(new Set(rx.calls.map((c) => c.headers["webhook-id"]))).toEqual(new Set([failed.message_id]));
    for (const call of rx.calls) {
      expect(
        new Webhook(secret_key, { format: "raw" }).verify(call.body, call.headers as Record<string, string>),
      ).toEqual({ webhook_type: "challenge-changed", n: 1 });
    }
    expect(failed).toMatchObject({
      attempt_count: 21,
      last_status_code: 403,
      last_error: "HTTP 403: no",
      next_attempt_at: null,
    });
    const detail = await admin("GET", `/apps/${studio.appId}/webhook-deliveries/${failed.delivery_id}`);
    expect(detail.body.attempts.map((a: any) => a.attempt_number)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));

    // Once the secret is fixed, the failed delivery can be sent again by hand.
    await admin("PUT", `/apps/${studio.appId}/webhooks/${failed.webhook_id}`, {
      webhook_type: "challenge-changed",
      url: `http://127.0.0.1:${port}/hooks`,
      secret_key: "the-right-secret",
    });
    expect(
      (await admin("POST", `/apps/${studio.appId}/webhook-deliveries/${failed.delivery_id}/redeliver`)).status,
    ).toBe(202);
    await eventually(
      async () => ((await log(studio.appId)).items[0]?.status === "succeeded" ? true : undefined),
      30_000,
      "the redelivery",
    );
    expect(rx.calls.at(-1)).toMatchObject({ answered: 200, headers: { "webhook-id": failed.message_id } });
  }, 150_000);

  it("delivers all of 1000 changes made while the receiver was down once it is back", async () => {
    const studio = await newStudioApp("Webhook outage");
    // A free port, closed again: the receiver is down.
    const probe = receiver(() => 200);
    const port = await probe.listen();
    await probe.close();
    await endpoint(studio.appId, `http://127.0.0.1:${port}/hooks`);

    const payloads = Array.from({ length: 1000 }, (_, i) => ({ webhook_type: "challenge-changed", seq: i + 1 }));
    expect(await emit(studio.appId, payloads)).toMatchObject({ status: 202, body: { dispatched: 1000 } });

    // Every change has been tried (and failed) at least once while the receiver was down.
    await eventually(
      async () => ((await log(studio.appId, "&status=pending")).total === 1000 ? true : undefined),
      120_000,
      "a first attempt of every delivery",
    );
    expect((await log(studio.appId, "&status=succeeded")).total).toBe(0);

    const rx = receiver(() => 200);
    open.push(rx);
    await rx.listen(port);
    await eventually(
      async () => ((await log(studio.appId, "&status=succeeded")).total === 1000 ? true : undefined),
      180_000,
      "all 1000 deliveries",
    );

    expect((await log(studio.appId, "&status=failed")).total).toBe(0);
    const seqs = new Set(rx.calls.filter((c) => c.answered === 200).map((c) => JSON.parse(c.body).seq));
    expect(seqs.size).toBe(1000);
    expect(new Set(rx.calls.map((c) => c.headers["webhook-id"])).size).toBe(1000);
  }, 330_000);
});
