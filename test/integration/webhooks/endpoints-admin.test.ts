import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createTestApp } from "../helpers";
import { admin, createEndpoint } from "./support";

const catalogVersion = async (appId: string) =>
  (await env.DB.prepare("SELECT catalog_version AS v FROM apps WHERE app_id = ?")
    .bind(Number(appId))
    .first<{ v: number }>())!.v;

describe("webhook endpoints admin", () => {
  it("are created, read, listed, replaced and deleted, each write bumping the catalog version", async () => {
    const { appId } = await createTestApp();
    const v0 = await catalogVersion(appId);
    const created = await admin("POST", `/apps/${appId}/webhooks`, {
      webhook_type: "challenge-changed",
      url: "https://game.example.com/hook",
      secret_key: "my-shared-secret",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      webhook_id: expect.stringMatching(/^\d+$/),
      app_id: appId,
      key: `webhook-${created.body.webhook_id}`,
      webhook_type: "challenge-changed",
      url: "https://game.example.com/hook",
      secret_key: "my-shared-secret",
      enabled: true,
      disabled_at: null,
      disabled_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await catalogVersion(appId)).toBe(v0 + 1);
    const id = created.body.webhook_id;

    expect(await admin("GET", `/apps/${appId}/webhooks/${id}`)).toMatchObject({ status: 200, body: created.body });

    const replaced = await admin("PUT", `/apps/${appId}/webhooks/${id}`, {
      webhook_type: "battlepass-expired",
      url: "https://game.example.com/expired",
      secret_key: "another-secret",
    });
    expect(replaced).toMatchObject({
      status: 200,
      body: { webhook_id: id, webhook_type: "battlepass-expired", secret_key: "another-secret" },
    });
    expect(await catalogVersion(appId)).toBe(v0 + 2);

    const list = await admin("GET", `/apps/${appId}/webhooks`);
    expect(list.body).toMatchObject({ currentPage: 1, pageSize: 25, total: 1, items: [{ webhook_id: id }] });

    expect((await admin("DELETE", `/apps/${appId}/webhooks/${id}`)).status).toBe(204);
    expect(await catalogVersion(appId)).toBe(v0 + 3);
    expect(await admin("GET", `/apps/${appId}/webhooks/${id}`)).toMatchObject({
      status: 404,
      body: { status: 404, message: `Webhook ${id} not found` },
    });
  });

  it("store the spec's spelling when the leaderboard type is spelled correctly", async () => {
    const { appId } = await createTestApp();
    const created = await createEndpoint(appId, {
      webhook_type: "leaderboard-updated",
      url: "https://a.example/lb",
      secret_key: "secret-123",
    });
    expect(created.webhook_type).toBe("leaderoard-updated");
    const filtered = await admin("GET", `/apps/${appId}/webhooks?webhook_type=leaderboard-updated`);
    expect(filtered.body.items.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([created.webhook_id]);
    expect((await admin("GET", `/apps/${appId}/webhooks?webhook_type=challenge-changed`)).body.total).toBe(0);
  });

  it("generate a Standard Webhooks secret when none is given", async () => {
    const { appId } = await createTestApp();
    const created = await createEndpoint(appId, { webhook_type: "battlepass-expired", url: "https://a.example/x" });
    expect(created.secret_key).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  });

  it("accept every type of the spec", async () => {
    const { appId } = await createTestApp();
    for (const type of [
      "challenge-changed",
      "battlepass-challenge-changed",
      "battlepass-level-reward-claimed",
      "battlepass-expired",
      "leaderoard-updated",
    ]) {
      expect(
        (await admin("POST", `/apps/${appId}/webhooks`, { webhook_type: type, url: "https://a.example/x" })).status,
      ).toBe(201);
    }
    expect((await admin("GET", `/apps/${appId}/webhooks?pageSize=2&currentPage=3`)).body).toMatchObject({
      total: 5,
      items: [{}],
    });
  });

  it("refuse bad input field by field", async () => {
    const { appId } = await createTestApp();
    const post = (body: unknown) => admin("POST", `/apps/${appId}/webhooks`, body);

    const wrongType = await post({ webhook_type: "user-changed", url: "https://a.example/x" });
    expect(wrongType).toMatchObject({ status: 400, body: { status: 400, errors: [{ field: "webhook_type" }] } });

    expect(await post({ webhook_type: "challenge-changed", url: "http://game.example.com/hook" })).toMatchObject({
      status: 400,
      body: {
        status: 400,
        errors: [{ field: "url", problem: "must use https (plain http only to a loopback address)" }],
      },
    });
    expect(await post({ webhook_type: "challenge-changed", url: "game.example.com/hook" })).toMatchObject({
      status: 400,
      body: { errors: [{ field: "url", problem: "must be an absolute URL" }] },
    });
    expect(
      await post({ webhook_type: "challenge-changed", url: "https://a.example/x", secret_key: "short" }),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ field: "secret_key", problem: "must be 8 to 256 characters" }] },
    });
    expect(
      await post({ webhook_type: "challenge-changed", url: "https://a.example/x", secret_key: "whsec_!!!!!!!!" }),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ field: "secret_key" }] },
    });
    expect((await post({ webhook_type: "challenge-changed" })).status).toBe(400);
  });

  it("accept plain http to loopback addresses in local development", async () => {
    const { appId } = await createTestApp();
    for (const url of ["http://127.0.0.1:9000/hook", "http://localhost:3000/hook", "http://[::1]:3000/hook"]) {
      expect(
        (await admin("POST", `/apps/${appId}/webhooks`, { webhook_type: "challenge-changed", url })).status,
        url,
      ).toBe(201);
    }
  });

  it("answer ids of other apps and malformed ids as not found", async () => {
    const a = await createTestApp("A");
    const b = await createTestApp("B");
    const endpoint = await createEndpoint(a.appId, { webhook_type: "challenge-changed", url: "https://a.example/x" });
    expect((await admin("GET", `/apps/${b.appId}/webhooks/${endpoint.webhook_id}`)).status).toBe(404);
    expect(
      (
        await admin("PUT", `/apps/${b.appId}/webhooks/${endpoint.webhook_id}`, {
          webhook_type: "challenge-changed",
          url: "https://a.example/y",
        })
      ).status,
    ).toBe(404);
    expect((await admin("DELETE", `/apps/${b.appId}/webhooks/${endpoint.webhook_id}`)).status).toBe(404);
    expect((await admin("GET", `/apps/${a.appId}/webhooks/abc`)).status).toBe(404);
    expect((await admin("GET", `/apps/999999/webhooks`)).status).toBe(404);
  });

  it("require the admin token", async () => {
    const { appId, apiKey } = await createTestApp();
    expect((await call("GET", `/api/v1/admin/apps/${appId}/webhooks`, { token: apiKey })).status).toBe(401);
    expect((await call("GET", `/api/v1/admin/apps/${appId}/webhook-deliveries`)).status).toBe(401);
  });

  it("are described in the OpenAPI document", async () => {
    const doc = await call("GET", "/openapi.json");
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/admin/apps/{appId}/webhooks",
        "/api/v1/admin/apps/{appId}/webhooks/{webhookId}",
        "/api/v1/admin/apps/{appId}/webhooks/{webhookId}/test",
        "/api/v1/admin/apps/{appId}/webhook-deliveries",
        "/api/v1/admin/apps/{appId}/webhook-deliveries/{deliveryId}",
        "/api/v1/admin/apps/{appId}/webhook-deliveries/{deliveryId}/redeliver",
        "/api/v1/admin/dev/apps/{appId}/changes",
      ]),
    );
    expect(doc.body.components.schemas.WebhookInput.properties.webhook_type.enum).toContain("leaderboard-updated");
  });
});
