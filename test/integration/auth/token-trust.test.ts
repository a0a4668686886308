import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { ADMIN, advanceClock, call, captureSends, createTestApp, serviceNow } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";
import type { DeliveryMessage } from "../../../src/webhooks/messages";

const check = (token: string) => call("GET", "/api/v1/auth/check", { token });
const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

describe("a token of a deleted app", () => {
  it("is refused with 401 on every path, never a 500", async () => {
    const app = await createTestApp("Deleted later");
    await createCategory(app.appId);
    const token = await app.tokenFor("ann");
    expect((await check(token)).status).toBe(200);
    expect((await admin("DELETE", `/apps/${app.appId}`)).status).toBe(204);

    const refused = { status: 401, body: { status: 401, message: "Access token of an app that no longer exists" } };
    const paths: [string, string, unknown?][] = [
      ["GET", "/api/v1/auth/check"],
      ["GET", "/api/v1/user-additional-info"],
      ["PUT", "/api/v1/user-additional-info", { username: "ann" }],
      ["GET", `/api/v1/challenges/personal/all/${app.appId}`],
      ["GET", `/api/v1/battle-passes/${app.appId}`],
      ["GET", "/api/v1/leaderboards"],
      ["GET", "/api/v1/auth/user-challenges-topic-link"],
      ["POST", "/api/v1/events", { event_name: "earn-points", meta_data: { amount: 1 } }],
      ["POST", "/api/v1/events/batch", { events: [{ event_name: "earn-points" }] }],
    ];
    for (const [method, path, body] of paths) expect(await call(method, path, { token, body })).toMatchObject(refused);
  });
});

describe("tokens follow the key that minted them", () => {
  it("carry the key's id, and end when that key is revoked; tokens of another key live on", async () => {
    const app = await createTestApp("Revocation");
    const other = await admin("POST", `/apps/${app.appId}/api-keys`, { name: "second" });
    const token = await app.tokenFor("ann");
    const survivor = (
      await call("POST", "/api/v1/auth/access-token", { token: other.body.key, body: { user_id: "bob" } })
    ).body.token;
    expect(decodeJwt(token)).toMatchObject({ sub: "ann", app_id: app.appId, key_id: app.keyId });

    expect((await admin("DELETE", `/apps/${app.appId}/api-keys/${app.keyId}`)).body).toMatchObject({
      end_tokens_on_revoke: true,
      revoked_at: expect.any(String),
    });
    expect(await check(token)).toMatchObject({
      status: 401,
      body: { status: 401, message: "Access token minted by an API key that has been revoked" },
    });
    expect((await call("GET", "/api/v1/leaderboards", { token })).status).toBe(401);
    expect((await check(survivor)).status).toBe(200);
  });

  it("keep working after revocation when the key says so, until the key's setting changes", async () => {
    const app = await createTestApp("Keeps tokens");
    const created = await admin("POST", `/apps/${app.appId}/api-keys`, { name: "keeps", end_tokens_on_revoke: false });
    expect(created.body).toMatchObject({ name: "keeps", end_tokens_on_revoke: false });
    const token = (
      await call("POST", "/api/v1/auth/access-token", { token: created.body.key, body: { user_id: "ann" } })
    ).body.token;
    await admin("DELETE", `/apps/${app.appId}/api-keys/${created.body.key_id}`);
    expect((await check(token)).status).toBe(200);
    // The key itself is refused at once, whatever the setting.
    expect(
      (await call("POST", "/api/v1/auth/access-token", { token: created.body.key, body: { user_id: "ann" } })).status,
    ).toBe(401);

    const changed = await admin("PUT", `/apps/${app.appId}/api-keys/${created.body.key_id}`, {
      name: "keeps",
      end_tokens_on_revoke: true,
    });
    expect(changed.body).toMatchObject({ end_tokens_on_revoke: true, revoked_at: expect.any(String) });
    expect((await check(token)).status).toBe(401);
  });
});

describe("a banned player's tokens", () => {
  it("are refused with 403 naming the reason and the expiry, no token is minted, and the old token works again once lifted", async () => {
    const app = await createTestApp("Banned tokens");
    const token = await app.tokenFor("ann");
    const until = new Date((await serviceNow()) + 86_400_000).toISOString();
    await admin("POST", `/apps/${app.appId}/users/ann/ban`, { reason: "account sharing", expires_at: until });

    const refused = {
      status: 403,
      body: { status: 403, message: `Player ann is banned until ${until}: account sharing` },
    };
    for (const path of [
      "/api/v1/auth/check",
      "/api/v1/user-additional-info",
      `/api/v1/challenges/personal/all/${app.appId}`,
      "/api/v1/leaderboards",
      "/api/v1/auth/user-challenges-topic-link",
    ]) {
      expect(await call("GET", path, { token })).toMatchObject(refused);
    }
    expect(
      await call("POST", "/api/v1/auth/access-token", { token: app.apiKey, body: { user_id: "ann" } }),
    ).toMatchObject(refused);
    // Other players of the app are not touched.
    expect((await check(await app.tokenFor("bob"))).status).toBe(200);

    await admin("DELETE", `/apps/${app.appId}/users/ann/ban`);
    expect((await check(token)).status).toBe(200);
    expect(
      (await call("POST", "/api/v1/auth/access-token", { token: app.apiKey, body: { user_id: "ann" } })).status,
    ).toBe(200);
  });

  it("work again the moment the ban expires", async () => {
    const app = await createTestApp("Expiring ban");
    const token = await app.tokenFor("ann");
    await admin("POST", `/apps/${app.appId}/users/ann/ban`, {
      reason: "cool-down",
      expires_at: new Date((await serviceNow()) + 30_000).toISOString(),
    });
    const message = (await check(token)).body.message;
    expect(message).toMatch(/^Player ann is banned until \d{4}-\d{2}-\d{2}T[\d:.]+Z: cool-down$/);
    await advanceClock(31);
    expect((await check(token)).status).toBe(200);
  });

  it("with no expiry say so", async () => {
    const app = await createTestApp("Open-ended ban");
    const token = await app.tokenFor("ann");
    await admin("POST", `/apps/${app.appId}/users/ann/ban`, { reason: "fraud" });
    expect((await check(token)).body).toEqual({
      status: 403,
      message: "Player ann is banned until the ban is lifted: fraud",
    });
  });
});

describe("the user_token of webhook payloads", () => {
  it("follows the same rules: refused once the player is banned or the app deleted", async () => {
    const app = await createTestApp("Webhook tokens");
    const category = await createCategory(app.appId);
    const challenge = await createChallenge(app.appId, category.category_id);
    await admin("POST", `/apps/${app.appId}/webhooks`, {
      webhook_type: "challenge-changed",
      url: "https://studio.example/hook",
      secret_key: "hook-secret-value",
    });
    const sent = captureSends<DeliveryMessage>(env.WEBHOOKS);
    expect((await player(app.appId, await app.tokenFor("ann")).unlock(challenge.challenge_id)).status).toBe(200);
    const userToken: string = JSON.parse(sent[0].body).user_token;
    expect(decodeJwt(userToken)).not.toHaveProperty("key_id");
    expect((await check(userToken)).status).toBe(200);

    await admin("POST", `/apps/${app.appId}/users/ann/ban`, { reason: "botting" });
    expect((await check(userToken)).status).toBe(403);
    await admin("DELETE", `/apps/${app.appId}/users/ann/ban`);
    expect((await check(userToken)).status).toBe(200);
    await admin("DELETE", `/apps/${app.appId}`);
    expect((await check(userToken)).status).toBe(401);
  });
});
