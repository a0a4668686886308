import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import { ADMIN, createTestApp } from "../helpers";
import { admin, createEndpoint, deliveryLog, stubReceiver, until } from "./support";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("emitting changes in development", () => {
  it("sends them through the change hook to the endpoints of their type", async () => {
    const { appId } = await createTestApp();
    const endpoint = await createEndpoint(appId, {
      webhook_type: "leaderoard-updated",
      url: "https://a.example/lb",
      secret_key: "lb-secret-1",
    });
    await createEndpoint(appId, {
      webhook_type: "battlepass-level-reward-claimed",
      url: "https://a.example/reward",
      secret_key: "reward-secret",
    });
    const calls = stubReceiver(
      () => new Response("ok"),
      (url) => url.host === "a.example" || url.pathname === "/level-7",
    );
    const payload = { webhook_type: "leaderoard-updated", leaderboard_data: { leaderboard_id: "4" } };
    const r = await admin("POST", `/dev/apps/${appId}/changes`, {
      changes: [
        { webhook_type: "leaderboard-updated", payload },
        { webhook_type: "battlepass-expired", payload: { webhook_type: "battlepass-expired" } },
        {
          webhook_type: "battlepass-level-reward-claimed",
          payload: { webhook_type: "battlepass-level-reward-claimed" },
          webhook_url: "http://127.0.0.1:9/level-7",
        },
      ],
    });
    expect(r).toMatchObject({ status: 202, body: { dispatched: 3 } });

    await until(
      () => deliveryLog(appId, "&status=succeeded"),
      (log) => log.total === 2,
    );
    expect(calls.map((c) => c.url.toString()).sort()).toEqual([
      "http://127.0.0.1:9/level-7?secret_key=reward-secret",
      "https://a.example/lb?secret_key=lb-secret-1",
    ]);
    const lb = calls.find((c) => c.url.pathname === "/lb")!;
    expect(lb.body).toBe(JSON.stringify(payload));
    expect((await deliveryLog(appId, `&webhook_id=${endpoint.webhook_id}`)).items).toMatchObject([
      { webhook_type: "leaderoard-updated" },
    ]);
  });

  it("validates the changes", async () => {
    const { appId } = await createTestApp();
    const post = (body: unknown) => admin("POST", `/dev/apps/${appId}/changes`, body);
    expect((await post({ changes: [] })).status).toBe(400);
    expect((await post({ changes: [{ webhook_type: "nope", payload: {} }] })).status).toBe(400);
    expect(
      await post({
        changes: [{ webhook_type: "challenge-changed", payload: {}, webhook_url: "http://example.com/x" }],
      }),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ field: "changes.0.webhook_url" }] },
    });
    expect((await post({ changes: [{ webhook_type: "challenge-changed", payload: {} }] })).status).toBe(202);
    expect(
      (
        await admin("POST", "/dev/apps/999999/changes", {
          changes: [{ webhook_type: "challenge-changed", payload: {} }],
        })
      ).status,
    ).toBe(404);
  });

  it("does not exist when development switches are off", async () => {
    const { appId } = await createTestApp();
    const request = new Request(`https://gamification.test/api/v1/admin/dev/apps/${appId}/changes`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ changes: [{ webhook_type: "challenge-changed", payload: {} }] }),
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      { ...env, DEV_CLOCK: "off" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(404);
  });
});
