import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SECRET_VALUES } from "../../../src/shared/secrets";
import { callWith, createTestApp } from "../helpers";
import { PRODUCTION, SAFE_SECRETS } from "./support";

const DEV_KEYS = JSON.stringify([{ kid: "dev-1", secret: DEVELOPMENT_SECRET_VALUES.JWT_SIGNING_SECRET }]);
const how = (name: string) =>
  `Set it with \`wrangler secret put ${name}\` (or run \`npm run deploy\`, which generates the missing secrets).`;

/** A 503 that names the secret and how to set it, with the request id in body and header. */
function expectNotConfigured(r: Awaited<ReturnType<typeof callWith>>, name: string, problem: string) {
  expect(r.status).toBe(503);
  expect(r.body).toEqual({
    status: 503,
    message: `Service not configured: ${name} ${problem}. ${how(name)}`,
    request_id: r.headers.get("X-Request-Id"),
  });
}

describe("the admin API in production", () => {
  const cases: [string, Partial<Env>, string, string][] = [
    ["a missing admin token", { ADMIN_TOKEN: "" }, "ADMIN_TOKEN", "is not set"],
    ["a short admin token", { ADMIN_TOKEN: "x".repeat(31) }, "ADMIN_TOKEN", "is shorter than 32 characters"],
    [
      "the development admin token",
      { ADMIN_TOKEN: DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN },
      "ADMIN_TOKEN",
      "is the development value",
    ],
    ["missing signing keys", { JWT_SIGNING_KEYS: "" }, "JWT_SIGNING_KEYS", "is not set"],
    [
      "a short signing secret",
      { JWT_SIGNING_KEYS: JSON.stringify([{ kid: "k", secret: "short" }]) },
      "JWT_SIGNING_KEYS",
      "must be a JSON array of {kid, secret}, each secret at least 32 characters",
    ],
    [
      "the development signing key",
      { JWT_SIGNING_KEYS: DEV_KEYS },
      "JWT_SIGNING_KEYS",
      "holds the development signing secret",
    ],
  ];

  for (const [what, override, name, problem] of cases) {
    it(`answers 503 naming ${name} with ${what}, whatever the credential`, async () => {
      const settings = { ...PRODUCTION, ...override };
      expectNotConfigured(
        await callWith(settings, "GET", "/api/v1/admin/apps", { token: settings.ADMIN_TOKEN }),
        name,
        problem,
      );
      expectNotConfigured(
        await callWith(settings, "GET", "/api/v1/admin/apps", { token: "b".repeat(40) }),
        name,
        problem,
      );
      expectNotConfigured(await callWith(settings, "GET", "/api/v1/admin/status"), name, problem);
    });
  }

  it("opens with safe secrets, to the admin token only", async () => {
    expect((await callWith(PRODUCTION, "GET", "/api/v1/admin/apps", { token: SAFE_SECRETS.ADMIN_TOKEN })).status).toBe(
      200,
    );
    expect((await callWith(PRODUCTION, "GET", "/api/v1/admin/apps", { token: "b".repeat(40) })).status).toBe(401);
  });

  it("treats a deployment without ENVIRONMENT as production", async () => {
    const r = await callWith(
      { ...PRODUCTION, ENVIRONMENT: undefined, ADMIN_TOKEN: DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN },
      "GET",
      "/api/v1/admin/apps",
      {
        token: DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN,
      },
    );
    expectNotConfigured(r, "ADMIN_TOKEN", "is the development value");
  });
});

describe("development", () => {
  it("accepts the development values", async () => {
    const dev = {
      ENVIRONMENT: "development",
      ADMIN_TOKEN: DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN,
      JWT_SIGNING_KEYS: DEV_KEYS,
    };
    expect(
      (await callWith(dev, "GET", "/api/v1/admin/apps", { token: DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN })).status,
    ).toBe(200);
  });

  it("still refuses a missing admin token (503, never open)", async () => {
    expectNotConfigured(
      await callWith({ ADMIN_TOKEN: "" }, "GET", "/api/v1/admin/apps", { token: "anything" }),
      "ADMIN_TOKEN",
      "is not set",
    );
  });
});

describe("paths that need a signing key or the topic secret", () => {
  it("answer 503 without signing keys, in any environment", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("ann");
    for (const settings of [{ JWT_SIGNING_KEYS: "" }, { ...PRODUCTION, JWT_SIGNING_KEYS: "" }]) {
      expectNotConfigured(
        await callWith(settings, "POST", "/api/v1/auth/access-token", { token: app.apiKey, body: { user_id: "ann" } }),
        "JWT_SIGNING_KEYS",
        "is not set",
      );
      expectNotConfigured(
        await callWith(settings, "GET", "/api/v1/user-additional-info", { token }),
        "JWT_SIGNING_KEYS",
        "is not set",
      );
      expectNotConfigured(
        await callWith(settings, "GET", `/mqtt?token=${token}`, { headers: { Upgrade: "websocket" } }),
        "JWT_SIGNING_KEYS",
        "is not set",
      );
      // Sent with an API key, events and resets still notify with the user's token.
      const event = { user_id: "ann", event_name: "kill-enemy", meta_data: { amount: 1 } };
      expectNotConfigured(
        await callWith(settings, "POST", "/api/v1/events", { token: app.apiKey, body: event }),
        "JWT_SIGNING_KEYS",
        "is not set",
      );
      expectNotConfigured(
        await callWith(settings, "POST", "/api/v1/events/batch", { token: app.apiKey, body: { events: [event] } }),
        "JWT_SIGNING_KEYS",
        "is not set",
      );
      expectNotConfigured(
        await callWith(settings, "POST", `/api/v1/reset-challenges/${app.appId}/ann`, { token: app.apiKey }),
        "JWT_SIGNING_KEYS",
        "is not set",
      );
    }
    // An API key needs no signing key.
    expect((await callWith({ JWT_SIGNING_KEYS: "" }, "GET", "/api/v1/auth/check", { token: app.apiKey })).status).toBe(
      200,
    );
  });

  it("refuse the development signing key in production, for minting and checking tokens", async () => {
    const app = await createTestApp();
    const settings = { ...PRODUCTION, JWT_SIGNING_KEYS: DEV_KEYS };
    expectNotConfigured(
      await callWith(settings, "POST", "/api/v1/auth/access-token", { token: app.apiKey, body: { user_id: "ann" } }),
      "JWT_SIGNING_KEYS",
      "holds the development signing secret",
    );
    const devToken = (
      await callWith({ JWT_SIGNING_KEYS: DEV_KEYS }, "POST", "/api/v1/auth/access-token", {
        token: app.apiKey,
        body: { user_id: "ann" },
      })
    ).body.token;
    expectNotConfigured(
      await callWith(settings, "GET", "/api/v1/user-additional-info", { token: devToken }),
      "JWT_SIGNING_KEYS",
      "holds the development signing secret",
    );
  });

  it("answer 503 without the topic secret", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("ann");
    const settings = { TOPIC_SECRET: "" };
    expectNotConfigured(
      await callWith(settings, "GET", "/api/v1/auth/user-challenges-topic-link", { token }),
      "TOPIC_SECRET",
      "is not set",
    );
    expectNotConfigured(
      await callWith(settings, "GET", "/api/v1/auth/leaderboard-topic-link?leaderboard_id=1", { token: app.apiKey }),
      "TOPIC_SECRET",
      "is not set",
    );
    expectNotConfigured(
      await callWith(settings, "GET", "/mqtt", { headers: { Upgrade: "websocket" } }),
      "TOPIC_SECRET",
      "is not set",
    );
    // Events need no topic secret while nobody subscribes.
    expect(
      (
        await callWith(settings, "POST", "/api/v1/events", {
          token: app.apiKey,
          body: { user_id: "ann", event_name: "kill-enemy", meta_data: { amount: 1 } },
        })
      ).status,
    ).toBe(200);
  });
});
