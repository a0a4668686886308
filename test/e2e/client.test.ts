import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  createAdminClient,
  createBackendClient,
  createGameClient,
  cursor,
  pages,
  verifyWebhook,
  WebhookVerificationError,
  type EventPayload,
} from "../../packages/client/src/index";
import { realtime } from "../../packages/client/src/realtime";
import { receiver } from "../support/webhook-receiver";
import { ADMIN_TOKEN, baseUrl, eventually, http } from "./support";

/** The TypeScript client (packages/client) against `wrangler dev`: each helper, and generated operations of each credential. */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

const adminClient = () => createAdminClient({ baseUrl: baseUrl(), adminToken: ADMIN_TOKEN });

/** A fetch that records each request's method and path (with query) before sending it. */
function recordingFetch() {
  const sent: string[] = [];
  const bodies: unknown[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    sent.push(`${request.method} ${url.pathname}${url.search}`);
    bodies.push(request.body ? await request.clone().json() : undefined);
    return globalThis.fetch(request);
  };
  return { sent, bodies, fetch };
}

/** A new app with an API key, through the admin client. */
async function studio(name: string) {
  const admin = adminClient();
  const app = await admin.post("/api/v1/admin/apps", { body: { name } });
  const key = await admin.post("/api/v1/admin/apps/{appId}/api-keys", {
    params: { path: { appId: app.app_id } },
    body: { name: "client" },
  });
  return { admin, appId: app.app_id, apiKey: key.key };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("the TypeScript client against wrangler dev", () => {
  it("each credential's client calls its generated operations, and only those", async () => {
    const { admin, appId, apiKey } = await studio("Client operations");
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey });
    expect(await backend.get("/api/v1/auth/check")).toEqual({ app_id: appId, credential: "api-key" });

    const minted = await backend.mintAccessToken("ann");
    expect(minted.userId).toBe("ann");
    // Tokens live ACCESS_TOKEN_TTL_SECONDS, 24 hours by default.
    expect(Math.abs(minted.expiresAt.getTime() - Date.now() - 86_400_000)).toBeLessThan(60_000);
    const game = createGameClient({ baseUrl: baseUrl(), accessToken: minted.token });
    expect(await game.get("/api/v1/auth/check")).toEqual({ app_id: appId, user_id: "ann", credential: "access-token" });
    expect(
      await game.put("/api/v1/user-additional-info", { body: { username: "Ann", avatarImage: "ann.png" } }),
    ).toEqual({ username: "Ann", avatarImage: "ann.png" });
    expect(await game.get("/api/v1/user-additional-info")).toEqual({ username: "Ann", avatarImage: "ann.png" });

    const app = await admin.get("/api/v1/admin/apps/{appId}", { params: { path: { appId } } });
    expect(app).toMatchObject({ app_id: appId, name: "Client operations", default_language: "en" });
    const raw = await admin.raw.GET("/api/v1/admin/apps/{appId}", { params: { path: { appId } } });
    expect(raw.response.status).toBe(200);
    expect(raw.data).toEqual(app);

    // A path of another credential is refused before anything is sent (the types refuse it too).
    const { sent, fetch } = recordingFetch();
    const guarded = createGameClient({ baseUrl: baseUrl(), accessToken: minted.token, fetch });
    const call = guarded.get as (path: string) => Promise<unknown>;
    await expect(call("/api/v1/admin/apps")).rejects.toThrow(
      new TypeError("GET /api/v1/admin/apps is not an operation of the game client's credential"),
    );
    await expect(
      (createBackendClient({ baseUrl: baseUrl(), apiKey, fetch }).put as (path: string) => Promise<unknown>)(
        "/api/v1/user-additional-info",
      ),
    ).rejects.toThrow(
      new TypeError("PUT /api/v1/user-additional-info is not an operation of the backend client's credential"),
    );
    expect(sent).toEqual([]);
  });

  it("throws ApiError with the status, message, field problems and request id of the answer", async () => {
    const { admin, appId } = await studio("Client errors");
    const invalid = await failure(
      admin.post("/api/v1/admin/apps/{appId}/leaderboards", {
        params: { path: { appId } },
        body: { name: "", event_name: "achieve-score", value_field: "score" },
      }),
    );
    expect(invalid).toBeInstanceOf(ApiError);
    expect([invalid.status, invalid.message, invalid.errors]).toEqual([
      400,
      "Invalid body: name must not be empty",
      [{ field: "name", problem: "must not be empty" }],
    ]);
    expect(invalid.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(invalid.retry_after_seconds).toBeUndefined();
    expect(invalid.body).toEqual({
      status: 400,
      message: "Invalid body: name must not be empty",
      errors: [{ field: "name", problem: "must not be empty" }],
    });
    expect(invalid.request.method).toBe("POST");

    const missing = await failure(
      admin.get("/api/v1/admin/apps/{appId}/leaderboards/{leaderboardId}", {
        params: { path: { appId, leaderboardId: "999999" } },
      }),
    );
    expect([missing.status, missing.message, missing.errors]).toEqual([404, "Leaderboard 999999 not found", []]);

    const stranger = createGameClient({ baseUrl: baseUrl(), accessToken: "not-a-token" });
    const refused = await failure(stranger.get("/api/v1/auth/check"));
    expect([refused.status, refused.message]).toEqual([401, "Invalid or revoked API key"]);
  });

  it("reports a 429 with retry_after_seconds, and retries after Retry-After when asked", async () => {
    const { admin, appId, apiKey } = await studio("Client rate limits");
    await admin.put("/api/v1/admin/apps/{appId}", {
      params: { path: { appId } },
      body: { name: "Client rate limits", rate_limits: { per_user_per_minute: 2 } },
    });
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey });
    const event = { user_id: "flooder", event_name: "earn-points", meta_data: { amount: 1 } };
    expect(await backend.sendEvent(event)).toEqual({ status: 200, message: "OK" });
    expect(await backend.sendEvent(event)).toEqual({ status: 200, message: "OK" });

    const limited = await failure(backend.sendEvent(event));
    expect([limited.status, limited.message.startsWith("Too many events: player flooder may send 2 a minute")]).toEqual(
      [429, true],
    );
    expect(limited.retry_after_seconds).toBeGreaterThan(0);
    expect(limited.retry_after_seconds).toBeLessThanOrEqual(60);

    // Retrying is opt-in; a wait longer than maxWaitSeconds gives up at once with the 429.
    const { sent, fetch } = recordingFetch();
    const impatient = createBackendClient({
      baseUrl: baseUrl(),
      apiKey,
      fetch,
      retry: { attempts: 5, maxWaitSeconds: 0 },
    });
    expect((await failure(impatient.sendEvent(event))).status).toBe(429);
    expect(sent).toEqual(["POST /api/v1/events"]);

    // The service clock moved on to 3 s before the window lets an event in: the retry waits out the rest.
    const remaining = (await failure(backend.sendEvent(event))).retry_after_seconds!;
    await http("POST", "/api/v1/admin/dev/clock/advance", {
      token: ADMIN_TOKEN,
      body: { advance_seconds: Math.max(0, remaining - 3) },
    });
    sent.length = 0;
    const patient = createBackendClient({ baseUrl: baseUrl(), apiKey, fetch, retry: true });
    const started = Date.now();
    expect(await patient.sendEvent(event)).toEqual({ status: 200, message: "OK" });
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent).toEqual(Array(sent.length).fill("POST /api/v1/events"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("sendEvents sends batches of 500 and reports each event's result at its index", async () => {
    const { apiKey } = await studio("Client batches");
    const { sent, bodies, fetch } = recordingFetch();
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey, fetch });
    const events: EventPayload[] = Array.from({ length: 1001 }, (_, i) => ({
      user_id: `p${i % 7}`,
      event_name: "earn-points",
      meta_data: { amount: 1 },
    }));
    events[600] = { user_id: "p1", event_name: "earn-points", meta_data: { amount: 1.5 } };
    events[1000] = { user_id: "p2", event_name: "earn-points", event_id: "once", meta_data: { amount: 2 } };

    const result = await backend.sendEvents(events);
    expect(sent).toEqual(["POST /api/v1/events/batch", "POST /api/v1/events/batch", "POST /api/v1/events/batch"]);
    expect(bodies.map((b) => (b as { events: unknown[] }).events.length)).toEqual([500, 500, 1]);
    expect([result.accepted, result.rejected, result.results.length]).toEqual([1000, 1, 1001]);
    expect(result.results.map((r) => r.index)).toEqual(events.map((_, i) => i));
    expect(result.results[600]).toMatchObject({ index: 600, status: 400 });
    expect(result.results[599]).toEqual({ index: 599, status: 200, message: "OK" });
    expect(result.results[1000]).toMatchObject({ index: 1000, status: 200, event_id: "once" });

    // A batch refused as a whole gives each of its events that answer.
    const revokedKey = createBackendClient({ baseUrl: baseUrl(), apiKey: "gk_unknown" });
    const refused = await revokedKey.sendEvents(events.slice(0, 3));
    expect(refused).toEqual({
      accepted: 0,
      rejected: 3,
      results: [0, 1, 2].map((index) => ({ index, status: 401, message: "Invalid or revoked API key" })),
    });
  });

  it("actingFor mints a player's token once, shares it, and mints again before it expires", async () => {
    const { appId, apiKey } = await studio("Client acting for");
    const { sent, fetch } = recordingFetch();
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey, fetch });
    const bob = backend.actingFor("bob");
    const checks = await Promise.all([
      bob.get("/api/v1/auth/check"),
      bob.get("/api/v1/auth/check"),
      bob.get("/api/v1/auth/check"),
    ]);
    expect(checks).toEqual(Array(3).fill({ app_id: appId, user_id: "bob", credential: "access-token" }));
    expect(await bob.sendEvent({ event_name: "earn-points", meta_data: { amount: 1 } })).toEqual({
      status: 200,
      message: "OK",
    });
    expect(sent.filter((s) => s === "POST /api/v1/auth/access-token")).toHaveLength(1);
    expect(sent).toHaveLength(5);

    // A token that is within the refresh margin of its expiry is replaced before the request.
    sent.length = 0;
    const always = backend.actingFor("cid", { refreshBeforeSeconds: 2 * 86_400 });
    await always.get("/api/v1/auth/check");
    await always.get("/api/v1/auth/check");
    expect(sent).toEqual([
      "POST /api/v1/auth/access-token",
      "GET /api/v1/auth/check",
      "POST /api/v1/auth/access-token",
      "GET /api/v1/auth/check",
    ]);
  });

  it("lists, unlocks, activates, progresses and claims a challenge, with the changes on the player's realtime topic", async () => {
    const { admin, appId, apiKey } = await studio("Client challenges");
    const category = await admin.post("/api/v1/admin/apps/{appId}/challenge-categories", {
      params: { path: { appId } },
      body: { category_slug: "daily", category_name: "Daily" },
    });
    const challenge = await admin.post("/api/v1/admin/apps/{appId}/challenges", {
      params: { path: { appId } },
      body: {
        category_id: category.category_id,
        challenge_name: "Collect 3 gems",
        challenge_goal: 3,
        event_name: "collect-item",
        challenge_reward: "gold",
      },
    });
    const cid = challenge.challenge_id;
    const game = createBackendClient({ baseUrl: baseUrl(), apiKey }).actingFor("dana");

    const listed = await game.get("/api/v1/challenges/personal/get/{appId}", { params: { path: { appId } } });
    expect(
      listed.map((c) => [c.category_id, c.category_name, c.challenges.map((x) => [x.challenge_id, x.type])]),
    ).toEqual([[category.category_id, "Daily", [[cid, "unlock"]]]]);
    const path = { params: { path: { appId, challengeId: cid } } };
    expect((await game.post("/api/v1/challenges/personal/unlock/{appId}/{challengeId}", path)).challenge?.type).toBe(
      "unlocked",
    );

    const updates = await realtime(game).challenges();
    const oneChallenge = await realtime(game).challenge(cid);
    open.push(updates, oneChallenge);
    expect((await game.put("/api/v1/challenges/personal/activate/{appId}/{challengeId}", path)).challenge?.type).toBe(
      "in-progress",
    );
    expect(await game.sendEvents([{ event_name: "collect-item", meta_data: { amount: 3, item_type: "gem" } }])).toEqual(
      { accepted: 1, rejected: 0, results: [{ index: 0, status: 200, message: "OK" }] },
    );

    const seen: [string | undefined, number | undefined][] = [];
    for await (const message of updates) {
      expect(message.webhook_type).toBe("challenge-changed");
      seen.push([message.new_challenge.type, message.new_challenge.user_challenge_current_score]);
      if (message.new_challenge.type === "unclaimed") break;
    }
    expect(seen).toEqual([
      ["in-progress", 0],
      ["unclaimed", 3],
    ]);
    // The topic of the one challenge carries the same messages.
    const iterator = oneChallenge[Symbol.asyncIterator]();
    const first = await iterator.next();
    const second = await iterator.next();
    expect([
      first.value?.new_challenge.type,
      second.value?.new_challenge.type,
      second.value?.new_challenge.challenge_id,
    ]).toEqual(["in-progress", "unclaimed", cid]);
    const claimed = await game.put("/api/v1/challenges/personal/claim/{appId}/{challengeId}", path);
    expect(claimed).toMatchObject({
      status: 200,
      message: "OK",
      challenge: { challenge_id: cid, type: "finished", is_claimed: true, challenge_reward: "gold" },
    });
  });

  it("reads a leaderboard created with the admin client, with the game and backend clients", async () => {
    const { admin, appId, apiKey } = await studio("Client leaderboards");
    const board = await admin.post("/api/v1/admin/apps/{appId}/leaderboards", {
      params: { path: { appId } },
      body: { name: "High scores", event_name: "achieve-score", value_field: "score", aggregation: "max" },
    });
    expect(board).toMatchObject({
      app_id: appId,
      name: "High scores",
      event_name: "achieve-score",
      value_field: "score",
      aggregation: "max",
    });
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey });
    await backend.sendEvents([
      { user_id: "ann", event_name: "achieve-score", meta_data: { score: 40 } },
      { user_id: "bob", event_name: "achieve-score", meta_data: { score: 70 } },
    ]);
    const read = { params: { path: { leaderboardId: board.leaderboard_id } } };
    const rows = await eventually(
      async () => {
        const page = await backend.get("/api/v2/leaderboards/{leaderboardId}", read);
        const users = page.leaderboard_results_by_member_type.user.members.map((r) => [r.member_id, r.score, r.rank]);
        return users.length === 2 ? users : undefined;
      },
      20_000,
      "two members on the board",
    );
    expect(rows).toEqual([
      ["bob", 70, 1],
      ["ann", 40, 2],
    ]);
    const ann = backend.actingFor("ann");
    expect(
      await ann.get("/api/v1/leaderboards-members/{memberType}/{memberId}/{leaderboardId}", {
        params: { path: { memberType: "user", memberId: "ann", leaderboardId: board.leaderboard_id } },
      }),
    ).toEqual({
      leaderboard_id: board.leaderboard_id,
      name: "High scores",
      member: {
        member_id: "ann",
        member_type: "user",
        score: 40,
        rank: 2,
        additional_info: { username: null, avatarImage: null },
      },
    });
  });

  it("pages through admin lists by currentPage and pageSize, and through the event files by cursor", async () => {
    const { admin, appId, apiKey } = await studio("Client pages");
    const category = await admin.post("/api/v1/admin/apps/{appId}/challenge-categories", {
      params: { path: { appId } },
      body: { category_slug: "all", category_name: "All" },
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await admin.post("/api/v1/admin/apps/{appId}/challenges", {
        params: { path: { appId } },
        body: {
          category_id: category.category_id,
          challenge_name: `Challenge ${i}`,
          challenge_goal: 1,
          event_name: "earn-points",
        },
      });
      ids.push(created.challenge_id);
    }
    const { sent, fetch } = recordingFetch();
    const counted = createAdminClient({ baseUrl: baseUrl(), adminToken: ADMIN_TOKEN, fetch });
    const listed: string[] = [];
    for await (const c of pages(
      (page) => counted.get("/api/v1/admin/apps/{appId}/challenges", { params: { path: { appId }, query: page } }),
      { pageSize: 2 },
    ))
      listed.push(c.challenge_id);
    expect(listed).toEqual(ids);
    expect(sent).toEqual(
      [1, 2, 3].map((p) => `GET /api/v1/admin/apps/${appId}/challenges?currentPage=${p}&pageSize=2`),
    );

    // Two queue batches: at least two archived files of the app's events.
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey });
    const day = new Date().toISOString().slice(0, 10);
    const query = { from: day, to: day };
    const all = async () =>
      (
        await admin.get("/api/v1/admin/apps/{appId}/analytics/event-files", {
          params: { path: { appId }, query: { ...query, limit: 100 } },
        })
      ).files;
    await backend.sendEvent({ user_id: "ann", event_name: "earn-points", meta_data: { amount: 1 } });
    await eventually(async () => ((await all()).length >= 1 ? true : undefined), 30_000, "the first archived file");
    await backend.sendEvent({ user_id: "bob", event_name: "earn-points", meta_data: { amount: 1 } });
    const files = await eventually(
      async () => {
        const list = await all();
        return list.length >= 2 ? list : undefined;
      },
      30_000,
      "the second archived file",
    );
    sent.length = 0;
    const paged: string[] = [];
    for await (const file of cursor(async (after) => {
      const page = await counted.get("/api/v1/admin/apps/{appId}/analytics/event-files", {
        params: { path: { appId }, query: { ...query, limit: 1, after } },
      });
      return { items: page.files, next: page.next_after };
    })) {
      paged.push(file.path);
    }
    expect(paged).toEqual(files.map((f) => f.path));
    // One request a page; the last page's next_after is null.
    expect(sent).toHaveLength(files.length);
  });

  it("verifies the Standard Webhooks signature of a real challenge-changed call and types its body", async () => {
    const { admin, appId, apiKey } = await studio("Client webhooks");
    const rx = receiver(() => 200);
    open.push(rx);
    const port = await rx.listen();
    const hook = await admin.post("/api/v1/admin/apps/{appId}/webhooks", {
      params: { path: { appId } },
      body: { webhook_type: "challenge-changed", url: `http://127.0.0.1:${port}/hooks` },
    });
    const category = await admin.post("/api/v1/admin/apps/{appId}/challenge-categories", {
      params: { path: { appId } },
      body: { category_slug: "c", category_name: "C" },
    });
    await admin.post("/api/v1/admin/apps/{appId}/challenges", {
      params: { path: { appId } },
      body: {
        category_id: category.category_id,
        challenge_name: "Win once",
        challenge_goal: 1,
        event_name: "win-match",
        is_auto_activated: true,
      },
    });
    const backend = createBackendClient({ baseUrl: baseUrl(), apiKey });
    await backend.actingFor("erin").get("/api/v1/challenges/personal/get/{appId}", { params: { path: { appId } } });
    await backend.sendEvent({ user_id: "erin", event_name: "win-match", meta_data: { amount: 1 } });
    const call = await eventually(
      async () => rx.calls.find((c) => c.body.includes('"finished"')),
      30_000,
      "the webhook call",
    );

    const headers = call.headers as Record<string, string>;
    const payload = await verifyWebhook(hook.secret_key, headers, call.body);
    if (payload.webhook_type !== "challenge-changed") throw new Error(`unexpected ${payload.webhook_type}`);
    expect([
      payload.new_challenge.type,
      payload.new_challenge.user_challenge_current_score,
      payload.new_challenge.user_id,
    ]).toEqual(["finished", 1, "erin"]);
    expect(payload).toEqual(JSON.parse(call.body));
    // The same with a Headers object, as a Worker or Deno receives them.
    expect(await verifyWebhook(hook.secret_key, new Headers(headers), call.body)).toEqual(payload);

    await expect(verifyWebhook(hook.secret_key, headers, call.body.replace('"erin"', '"mallory"'))).rejects.toThrow(
      new WebhookVerificationError("no webhook-signature matches"),
    );
    await expect(verifyWebhook("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", headers, call.body)).rejects.toThrow(
      new WebhookVerificationError("no webhook-signature matches"),
    );
    const later = new Date((Number(headers["webhook-timestamp"]) + 301) * 1000);
    await expect(verifyWebhook(hook.secret_key, headers, call.body, { now: later })).rejects.toThrow(
      new WebhookVerificationError("webhook-timestamp is too far from now"),
    );
    await expect(verifyWebhook(hook.secret_key, { ...headers, "webhook-signature": "" }, call.body)).rejects.toThrow(
      new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature"),
    );
  });
});
