import { AuthApi, EventsApi, LeaderboardsApi } from "@scillgame/scill-js";
import mqtt from "mqtt";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, baseUrl, eventually, http, newStudioApp, sdkConfiguration, sdkFailure } from "./support";

const eventsApi = (credential: string) => new EventsApi(sdkConfiguration(credential));
const admin = (method: string, path: string, body?: unknown) =>
  http(method, `/api/v1/admin/apps${path}`, { token: ADMIN_TOKEN, body });
const rows = (list: { member_id?: string; score?: number; rank?: number }[] | undefined) =>
  (list ?? []).map((r) => [r.member_id, r.score, r.rank]);

describe("fair play, as a studio and its players meet it", () => {
  it("a browser game past its player's limit reads the 429, Retry-After and RateLimit headers across origins", async () => {
    const studio = await newStudioApp("Rate-limited studio");
    expect(
      (await admin("PUT", `/${studio.appId}`, { name: "Rate-limited studio", rate_limits: { per_user_per_minute: 5 } }))
        .status,
    ).toBe(200);
    const token = await studio.tokenFor("flooder");
    const client = eventsApi(token);
    const event = { session_id: "match-1", event_name: "earn-points", meta_data: { amount: 1 } };
    for (let i = 0; i < 5; i++) expect(await client.sendEvent(event)).toEqual({ status: 200, message: "OK" });

    const refused = await sdkFailure(client.sendEvent(event));
    expect(refused).toEqual({
      status: 429,
      body: {
        status: 429,
        message: expect.stringMatching(/^Too many events: player flooder may send 5 a minute/),
        retry_after_seconds: expect.any(Number),
      },
    });
    const browser = await fetch(`${baseUrl()}/api/v1/events?auth=access_token`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Origin: "https://game.example" },
      body: JSON.stringify(event),
    });
    expect(browser.status).toBe(429);
    const seconds = Number(browser.headers.get("Retry-After"));
    expect(seconds).toBeGreaterThan(0);
    expect(browser.headers.get("RateLimit-Policy")).toBe('"per-user";q=5;w=60');
    expect(browser.headers.get("RateLimit")).toBe(`"per-user";r=0;t=${seconds}`);
    expect(browser.headers.get("Access-Control-Expose-Headers")?.split(",")).toEqual([
      "X-Request-Id",
      "Retry-After",
      "RateLimit",
      "RateLimit-Policy",
    ]);
  });

  it("a client's score does not reach an authoritative board; an out-of-range backend score waits in the review queue until accepted", async () => {
    const studio = await newStudioApp("Authoritative studio");
    const created = await admin("POST", `/${studio.appId}/leaderboards`, {
      name: "Ranked",
      event_name: "achieve-score",
      value_field: "score",
      aggregation: "max",
      authoritative: true,
      max_value: 10_000,
    });
    const boardId: string = created.body.leaderboard_id;
    const score = (value: number) => ({ session_id: "m", event_name: "achieve-score", meta_data: { score: value } });
    expect(await eventsApi(await studio.tokenFor("cheater")).sendEvent(score(9_999))).toEqual({
      status: 200,
      message: "OK",
    });
    const backend = eventsApi(studio.apiKey);
    await backend.sendEvent({ ...score(4_200), user_id: "ann" });
    await backend.sendEvent({ ...score(50_000), user_id: "bob" });

    const flag = await eventually(
      async () => {
        const queue = await admin("GET", `/${studio.appId}/leaderboards/${boardId}/flagged`);
        return queue.body.total === 1 ? queue.body.items[0] : undefined;
      },
      20_000,
      "the held score in the review queue",
    );
    expect(flag).toMatchObject({ member_id: "bob", value: 50_000, reason: "above_max_value" });
    const board = new LeaderboardsApi(sdkConfiguration(studio.apiKey));
    expect(rows((await board.getLeaderboard(boardId)).grouped_by_users)).toEqual([["ann", 4_200, 1]]);

    expect(
      (await admin("POST", `/${studio.appId}/leaderboards/${boardId}/flagged/${flag.flag_id}/accept`)).body.member,
    ).toEqual({ score: 50_000, rank: 1 });
    expect(rows((await board.getLeaderboard(boardId)).grouped_by_users)).toEqual([
      ["bob", 50_000, 1],
      ["ann", 4_200, 2],
    ]);
  });

  it("a banned player's SDK token, token minting and MQTT topic are refused, and work again once the ban is lifted", async () => {
    const studio = await newStudioApp("Ban studio");
    const token = await studio.tokenFor("cheater");
    const { topic } = await new AuthApi(sdkConfiguration(token)).getUserChallengesNotificationTopic();
    const listener = await mqtt.connectAsync(`${baseUrl().replace(/^http/, "ws")}/mqtt`, {
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    try {
      expect((await listener.subscribeAsync(topic!))[0].qos).toBe(0);
      expect((await admin("POST", `/${studio.appId}/users/cheater/ban`, { reason: "aimbot" })).status).toBe(200);

      const refused = await sdkFailure(new AuthApi(sdkConfiguration(token)).getUserChallengesNotificationTopic());
      expect(refused).toEqual({
        status: 403,
        body: { status: 403, message: "Player cheater is banned until the ban is lifted: aimbot" },
      });
      expect(
        (await http("POST", "/api/v1/auth/access-token", { token: studio.apiKey, body: { user_id: "cheater" } }))
          .status,
      ).toBe(403);
      // The topic the client kept is refused to any session (SUBACK 0x80, which mqtt.js throws).
      const late = await mqtt.connectAsync(`${baseUrl().replace(/^http/, "ws")}/mqtt`, {
        protocolVersion: 4,
        reconnectPeriod: 0,
      });
      try {
        await expect(late.subscribeAsync(topic!)).rejects.toThrow("Subscribe error");
      } finally {
        await late.endAsync(true);
      }

      expect((await admin("DELETE", `/${studio.appId}/users/cheater/ban`)).status).toBe(204);
      expect((await new AuthApi(sdkConfiguration(token)).getUserChallengesNotificationTopic()).topic).toBe(topic);
      expect((await listener.subscribeAsync(topic!))[0].qos).toBe(0);
    } finally {
      await listener.endAsync(true);
    }
  });
});
