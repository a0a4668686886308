import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Change } from "../../../src/changes/types";
import { enqueueWebhooks } from "../../../src/webhooks/enqueue";
import type { DeliveryMessage } from "../../../src/webhooks/messages";
import { createTestApp, capturingQueue } from "../helpers";
import { admin, createEndpoint } from "./support";

const change = (appId: string, overrides: Partial<Change> = {}): Change =>
  ({
    appId,
    webhookType: "challenge-changed",
    payload: {
      webhook_type: "challenge-changed",
      user_token: "token",
      old_challenge: { challenge_id: "1" },
      new_challenge: { challenge_id: "1" },
    },
    topic: null,
    userId: null,
    ...overrides,
  }) as Change;

/** A D1 binding that counts statements reading the endpoints table. */
function countingDb() {
  const reads: string[] = [];
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => {
          if (/FROM webhooks\b/.test(sql)) reads.push(sql);
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, reads };
}

describe("enqueueWebhooks", () => {
  it("sends nothing when the app has no endpoint for the type", async () => {
    const { appId } = await createTestApp();
    await createEndpoint(appId, { webhook_type: "battlepass-expired", url: "https://a.example/x" });
    const { queue, batches } = capturingQueue<DeliveryMessage>();
    await enqueueWebhooks({ ...env, WEBHOOKS: queue }, [change(appId)]);
    expect(batches).toEqual([]);
  });

  it("sends one message per endpoint of the type, with the payload as exact JSON and distinct ids", async () => {
    const { appId } = await createTestApp();
    const a = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/1" });
    const b = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/2" });
    await createEndpoint(appId, { webhook_type: "battlepass-expired", url: "https://a.example/3" });
    const { queue, sent } = capturingQueue<DeliveryMessage>();
    const c = change(appId, { userId: "ann" });
    await enqueueWebhooks({ ...env, WEBHOOKS: queue }, [c]);
    // userId: the player the payload names, so that erasing them finds (and cancels) these deliveries.
    expect(sent).toEqual([
      {
        messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
        appId,
        webhookId: a.webhook_id,
        webhookType: "challenge-changed",
        overrideUrl: null,
        body: JSON.stringify(c.payload),
        createdAt: expect.any(Number),
        userId: "ann",
      },
      {
        messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
        appId,
        webhookId: b.webhook_id,
        webhookType: "challenge-changed",
        overrideUrl: null,
        body: JSON.stringify(c.payload),
        createdAt: expect.any(Number),
        userId: "ann",
      },
    ]);
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(2);
  });

  it("sends a level reward to the level's URL alone, signed by the app's first endpoint of the type", async () => {
    const { appId } = await createTestApp();
    const first = await createEndpoint(appId, {
      webhook_type: "battlepass-level-reward-claimed",
      url: "https://a.example/default",
    });
    await createEndpoint(appId, { webhook_type: "battlepass-level-reward-claimed", url: "https://a.example/other" });
    const { queue, sent } = capturingQueue<DeliveryMessage>();
    await enqueueWebhooks({ ...env, WEBHOOKS: queue }, [
      change(appId, {
        webhookType: "battlepass-level-reward-claimed",
        payload: { webhook_type: "battlepass-level-reward-claimed" },
        webhookUrl: "https://level.example/reward",
      }),
    ]);
    expect(sent).toMatchObject([{ webhookId: first.webhook_id, overrideUrl: "https://level.example/reward" }]);
  });

  it("skips endpoints disabled by a 410", async () => {
    const { appId } = await createTestApp();
    const gone = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/gone" });
    const live = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/live" });
    await env.DB.prepare("UPDATE webhooks SET disabled_at = '2025-01-01T00:00:00.000Z' WHERE webhook_id = ?")
      .bind(Number(gone.webhook_id))
      .run();
    await env.DB.prepare("UPDATE apps SET catalog_version = catalog_version + 1 WHERE app_id = ?")
      .bind(Number(appId))
      .run();
    const { queue, sent } = capturingQueue<DeliveryMessage>();
    await enqueueWebhooks({ ...env, WEBHOOKS: queue }, [change(appId)]);
    expect(sent.map((m) => m.webhookId)).toEqual([live.webhook_id]);
  });

  it("sends large fan-outs in sendBatch calls of at most 100 messages", async () => {
    const { appId } = await createTestApp();
    await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/1" });
    await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/2" });
    const { queue, batches, sent } = capturingQueue<DeliveryMessage>();
    await enqueueWebhooks(
      { ...env, WEBHOOKS: queue },
      Array.from({ length: 125 }, () => change(appId)),
    );
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(250);
  });

  it("serves changes from the catalog cache and sees endpoint changes at once", async () => {
    const { appId } = await createTestApp();
    await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/1" });
    const { db, reads } = countingDb();
    const { queue, sent } = capturingQueue<DeliveryMessage>();
    const target = { ...env, DB: db, WEBHOOKS: queue };

    await enqueueWebhooks(target, [change(appId)]);
    const afterFirst = reads.length;
    for (let i = 0; i < 20; i++) await enqueueWebhooks(target, [change(appId)]);
    expect(reads.length).toBe(afterFirst);
    expect(sent).toHaveLength(21);

    const second = await createEndpoint(appId, { webhook_type: "challenge-changed", url: "https://a.example/2" });
    await enqueueWebhooks(target, [change(appId)]);
    expect(sent.slice(21).map((m) => m.webhookId)).toContain(second.webhook_id);
    expect((await admin("DELETE", `/apps/${appId}/webhooks/${second.webhook_id}`)).status).toBe(204);
    await enqueueWebhooks(target, [change(appId)]);
    expect(sent.slice(23).map((m) => m.webhookId)).not.toContain(second.webhook_id);
  });
});
