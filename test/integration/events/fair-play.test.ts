import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, advanceClock, call, captureSends, createTestApp } from "../helpers";
import type { BackgroundMessage } from "../../../src/user/messages";

/** An app with these fair-play settings (PUT replaces the app's settings). */
async function appWith(settings: Record<string, unknown>) {
  const app = await createTestApp("Fair play intake");
  const r = await call("PUT", `/api/v1/admin/apps/${app.appId}`, {
    token: ADMIN,
    body: { name: "Fair play intake", ...settings },
  });
  if (r.status !== 200) throw new Error(`settings: ${JSON.stringify(r.body)}`);
  return app;
}

const event = (extra: Record<string, unknown> = {}) => ({
  event_name: "earn-points",
  meta_data: { amount: 1 },
  ...extra,
});
const send = (token: string, body: unknown) => call("POST", "/api/v1/events", { token, body });
const sendBatch = (token: string, events: unknown[]) =>
  call("POST", "/api/v1/events/batch", { token, body: { events } });

/** The fields of a 429 a client backs off by. */
function refusal(r: Awaited<ReturnType<typeof call>>) {
  return {
    status: r.status,
    body: r.body,
    retryAfter: r.headers.get("Retry-After"),
    policy: r.headers.get("RateLimit-Policy"),
    limit: r.headers.get("RateLimit"),
  };
}

describe("the per-player rate limit", () => {
  it("accepts exactly 20 of 40 events sent at once against 20 a minute, and answers the other 20 with 429 and the headers", async () => {
    const app = await appWith({ rate_limits: { per_user_per_minute: 20 } });
    const token = await app.tokenFor("flooder");
    const sent = captureSends<BackgroundMessage>(env.BACKGROUND);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(token, event())));
    // The first counted event leaves the window a minute after it was counted: at most the time all
    // 40 took before a refusal was answered (a busy machine takes seconds).
    const soonest = Math.floor(60 - (Date.now() - started) / 1000);

    expect(answers.filter((r) => r.status === 200)).toHaveLength(20);
    const refused = answers.filter((r) => r.status === 429).map(refusal);
    expect(refused).toHaveLength(20);
    for (const r of refused) {
      const seconds = Number(r.retryAfter);
      expect(seconds).toBeGreaterThanOrEqual(soonest);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(r).toEqual({
        status: 429,
        body: {
          status: 429,
          message: `Too many events: player flooder may send 20 a minute (rate_limits.per_user_per_minute); try again in ${seconds} s`,
          retry_after_seconds: seconds,
        },
        retryAfter: String(seconds),
        policy: '"per-user";q=20;w=60',
        limit: `"per-user";r=0;t=${seconds}`,
      });
    }
    // Only the accepted events went on (analytics, leaderboards).
    expect(sent.filter((m) => m.kind === "event")).toHaveLength(20);
  });

  it("slides: the window frees one minute after the events it counted, not at the clock's minute", async () => {
    const app = await appWith({ rate_limits: { per_user_per_minute: 2 } });
    const player = { user_id: "slider" };
    expect((await send(app.apiKey, event(player))).status).toBe(200);
    await advanceClock(30);
    expect((await send(app.apiKey, event(player))).status).toBe(200);
    const third = await send(app.apiKey, event(player));
    expect(third.status).toBe(429);
    // The first event leaves the window 60 s after it was counted: 30 s from now.
    expect(third.body.retry_after_seconds).toBeGreaterThanOrEqual(29);
    expect(third.body.retry_after_seconds).toBeLessThanOrEqual(30);
    await advanceClock(31);
    expect((await send(app.apiKey, event(player))).status).toBe(200);
    expect((await send(app.apiKey, event(player))).status).toBe(429);
  });

  it("counts every event of a batch: 25 events of one player against 20 a minute give 20 OK and 5 results of 429", async () => {
    const app = await appWith({ rate_limits: { per_user_per_minute: 20 } });
    const r = await sendBatch(
      app.apiKey,
      Array.from({ length: 25 }, () => event({ user_id: "batcher" })),
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("5 of 25 events rejected");
    expect(r.body.results.slice(0, 20).every((x: { status: number }) => x.status === 200)).toBe(true);
    expect(r.body.results.slice(20)).toEqual(
      Array.from({ length: 5 }, (_, i) => ({
        index: 20 + i,
        status: 429,
        message: expect.stringMatching(
          /^Too many events: player batcher may send 20 a minute \(rate_limits\.per_user_per_minute\); try again in \d+ s$/,
        ),
        retry_after_seconds: expect.any(Number),
      })),
    );
    // Another player of the same app is not held back.
    expect((await send(app.apiKey, event({ user_id: "bystander" }))).status).toBe(200);
  });

  it("refuses a flooding client's whole batch before reading it once it is known to be past the limit", async () => {
    const app = await appWith({ rate_limits: { per_user_per_minute: 3 } });
    const token = await app.tokenFor("batch-flooder");
    const first = await sendBatch(
      token,
      Array.from({ length: 5 }, () => event()),
    );
    expect(first.body.results.map((x: { status: number }) => x.status)).toEqual([200, 200, 200, 429, 429]);
    const second = await call("POST", "/api/v1/events/batch", { token, rawBody: "not even JSON" });
    expect(refusal(second)).toMatchObject({
      status: 429,
      policy: '"per-user";q=3;w=60',
      body: { status: 429, retry_after_seconds: expect.any(Number) },
    });
  });
});

describe("the per-app rate limit", () => {
  it("admits what fits of a batch, then refuses whole requests while the app's minute is full", async () => {
    const app = await appWith({ rate_limits: { per_app_per_minute: 5 } });
    const batch = await sendBatch(
      app.apiKey,
      Array.from({ length: 8 }, (_, i) => event({ user_id: `p${i}` })),
    );
    expect(batch.body.results.map((x: { status: number }) => x.status)).toEqual([
      200, 200, 200, 200, 200, 429, 429, 429,
    ]);
    expect(batch.body.results[5].message).toMatch(
      /^Too many events: this app may send 5 a minute \(rate_limits\.per_app_per_minute\); try again in \d+ s$/,
    );

    const single = refusal(await send(app.apiKey, event({ user_id: "p9" })));
    expect(single).toMatchObject({
      status: 429,
      policy: '"per-app";q=5;w=60',
      limit: expect.stringMatching(/^"per-app";r=0;t=\d+$/),
    });
    await advanceClock(61);
    expect((await send(app.apiKey, event({ user_id: "p9" }))).status).toBe(200);
  });

  it("counts only the events that were applied: refusals of the player's limit and duplicates give their share back", async () => {
    const app = await appWith({ rate_limits: { per_app_per_minute: 4, per_user_per_minute: 1 } });
    expect((await send(app.apiKey, event({ user_id: "a", event_id: "x" }))).status).toBe(200);
    expect((await send(app.apiKey, event({ user_id: "a", event_id: "x" }))).status).toBe(200);
    expect((await send(app.apiKey, event({ user_id: "a" }))).status).toBe(429);
    for (const user of ["b", "c", "d"]) expect((await send(app.apiKey, event({ user_id: user }))).status).toBe(200);
    expect(refusal(await send(app.apiKey, event({ user_id: "e" })))).toMatchObject({
      status: 429,
      policy: '"per-app";q=4;w=60',
    });
  });
});

describe("what only the studio's backend may send", () => {
  it("refuses a client's backend-only event with 403, per event in a batch, and takes it from an API key", async () => {
    const app = await appWith({ backend_only_events: ["purchase-completed"] });
    const token = await app.tokenFor("buyer");
    const purchase = { event_name: "purchase-completed", meta_data: { amount: 499 } };
    const message =
      "Event 'purchase-completed' may only be sent by the studio's backend with an API key: the app lists it in backend_only_events";
    expect(await send(token, purchase)).toMatchObject({ status: 403, body: { status: 403, message } });
    const batch = await sendBatch(token, [event(), purchase]);
    expect(batch.body.results).toEqual([
      { index: 0, status: 200, message: "OK" },
      { index: 1, status: 403, message },
    ]);
    expect((await send(app.apiKey, { ...purchase, user_id: "buyer" })).status).toBe(200);
  });
});

describe("a banned player's events", () => {
  it("are refused with 403 whichever credential sends them, per event in a batch, naming the reason and the expiry", async () => {
    const app = await createTestApp("Banned intake");
    const token = await app.tokenFor("cheater");
    const until = new Date(
      Date.parse((await call("GET", "/api/v1/admin/dev/clock", { token: ADMIN })).body.now) + 3_600_000,
    ).toISOString();
    const ban = await call("POST", `/api/v1/admin/apps/${app.appId}/users/cheater/ban`, {
      token: ADMIN,
      body: { reason: "speed hack", expires_at: until },
    });
    expect(ban.status).toBe(200);
    const message = `Player cheater is banned until ${until}: speed hack`;
    expect(await send(token, event())).toMatchObject({ status: 403, body: { status: 403, message } });
    expect(await send(app.apiKey, event({ user_id: "cheater" }))).toMatchObject({
      status: 403,
      body: { status: 403, message },
    });
    const batch = await sendBatch(app.apiKey, [event({ user_id: "honest" }), event({ user_id: "cheater" })]);
    expect(batch.body.results).toEqual([
      { index: 0, status: 200, message: "OK" },
      { index: 1, status: 403, message },
    ]);
  });
});
