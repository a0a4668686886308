import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ADMIN, advanceClock, call, captureSends, createTestApp, sendEvent, serviceNow } from "../helpers";
import { erase } from "./support";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

/** The list once its total is `total` (reports reach the registry through the background queue). */
async function listOnce(appId: string, query: string, total: number) {
  let page: any;
  await vi.waitFor(
    async () => {
      page = (await admin("GET", `/apps/${appId}/users${query}`)).body;
      if (page.total !== total) throw new Error(`total ${page.total}, waiting for ${total}`);
    },
    { timeout: 15_000, interval: 100 },
  );
  return page;
}

const ids = (page: any) => page.items.map((p: any) => p.user_id);

describe("the registry of an app's players", () => {
  it("lists 30 players created through events by last activity, pages through them, finds an id prefix, forgets an erased one", async () => {
    const app = await createTestApp("Players registry");
    const players = Array.from({ length: 30 }, (_, i) => `player-${String(i).padStart(2, "0")}`);
    const sentAt = new Map<string, number>();
    for (const userId of players) {
      await advanceClock(1);
      sentAt.set(userId, await serviceNow());
      await sendEvent(app.apiKey, userId, "level-up");
    }
    const newestFirst = [...players].reverse();
    const first = await listOnce(app.appId, "?pageSize=12", 30);
    expect(first).toMatchObject({ currentPage: 1, pageSize: 12, total: 30 });
    expect(ids(first)).toEqual(newestFirst.slice(0, 12));
    expect(first.items[0]).toEqual({
      user_id: "player-29",
      username: null,
      first_seen_at: first.items[0].last_seen_at,
      last_seen_at: expect.any(String),
      events: 1,
      banned: false,
    });
    // The event's time as the object received it: after the clock read before it was sent, within the second that
    // followed.
    const seen = Date.parse(first.items[0].last_seen_at);
    expect(seen).toBeGreaterThanOrEqual(sentAt.get("player-29")!);
    expect(seen).toBeLessThan(sentAt.get("player-29")! + 1000);
    expect(ids((await admin("GET", `/apps/${app.appId}/users?pageSize=12&currentPage=2`)).body)).toEqual(
      newestFirst.slice(12, 24),
    );
    expect(ids((await admin("GET", `/apps/${app.appId}/users?pageSize=12&currentPage=3`)).body)).toEqual(
      newestFirst.slice(24),
    );
    expect(ids((await admin("GET", `/apps/${app.appId}/users?sort=first_seen&pageSize=3`)).body)).toEqual([
      "player-29",
      "player-28",
      "player-27",
    ]);
    expect(ids((await admin("GET", `/apps/${app.appId}/users?sort=id&pageSize=3`)).body)).toEqual([
      "player-00",
      "player-01",
      "player-02",
    ]);

    const prefix = (await admin("GET", `/apps/${app.appId}/users?search=player-1&sort=id`)).body;
    expect(prefix).toEqual({ items: expect.any(Array), currentPage: 1, pageSize: 25, total: 10 });
    expect(ids(prefix)).toEqual(players.slice(10, 20));
    expect((await admin("GET", `/apps/${app.appId}/users?search=PLAYER-1`)).body.total).toBe(0);
    expect((await admin("GET", `/apps/${app.appId}/users?search=layer`)).body.total).toBe(0);

    // A ban shows at once (joined at read); erasure takes the player out of the registry.
    await admin("POST", `/apps/${app.appId}/users/player-05/ban`, { reason: "cheating" });
    const banned = (await admin("GET", `/apps/${app.appId}/users?search=player-05`)).body;
    expect(banned.items).toEqual([expect.objectContaining({ user_id: "player-05", banned: true })]);
    await erase(app.appId, "player-07");
    const after = await listOnce(app.appId, "?sort=id&pageSize=100", 29);
    expect(ids(after)).toEqual(players.filter((p) => p !== "player-07"));
    expect((await admin("GET", `/apps/${app.appId}/users?search=player-07`)).body).toEqual({
      items: [],
      currentPage: 1,
      pageSize: 25,
      total: 0,
    });
  }, 60_000);

  it("adds a player at their first access token and at their stored user info, found by a part of the username", async () => {
    const app = await createTestApp("Players by token");
    const token = await app.tokenFor("token-only");
    const minted = await serviceNow();
    const list = await listOnce(app.appId, "", 1);
    expect(list.items).toEqual([
      {
        user_id: "token-only",
        username: null,
        first_seen_at: expect.any(String),
        last_seen_at: expect.any(String),
        events: 0,
        banned: false,
      },
    ]);
    expect(Date.parse(list.items[0].first_seen_at)).toBeLessThanOrEqual(minted);
    const put = await call("PUT", "/api/v1/user-additional-info", {
      token,
      body: { username: "Zed the Great", avatarImage: "zed.png" },
    });
    expect(put.status).toBe(200);
    await vi.waitFor(async () => {
      const found = (await admin("GET", `/apps/${app.appId}/users?search=THE%20gr`)).body;
      expect(found).toEqual({
        items: [expect.objectContaining({ user_id: "token-only", username: "Zed the Great" })],
        currentPage: 1,
        pageSize: 25,
        total: 1,
      });
    });
    expect((await admin("GET", `/apps/${app.appId}/users?search=tok`)).body.total).toBe(1);
  });

  it("is reported by a player's object at their first event, then at most once an hour, with the events it applied", async () => {
    const app = await createTestApp("Players hourly");
    const sent = captureSends<any>(env.BACKGROUND);
    // The report rides on the event's message: the player's first event, then the first one an hour later.
    const seen = () =>
      sent
        .filter((m) => m.kind === "event" && m.event.appId === app.appId && m.seen !== undefined)
        .map((m) => ({ ...m.seen, at: m.event.receivedAt }));
    const events = () => sent.filter((m) => m.kind === "event" && m.event.appId === app.appId);
    await sendEvent(app.apiKey, "ann", "level-up");
    const firstAt = await serviceNow();
    await sendEvent(app.apiKey, "ann", "level-up");
    await sendEvent(app.apiKey, "ann", "level-up");
    expect(events()).toHaveLength(3);
    const firstEventAt = events()[0].event.receivedAt;
    expect(firstEventAt).toBeLessThanOrEqual(firstAt);
    expect(seen()).toEqual([{ firstSeenAt: firstEventAt, events: 1, at: firstEventAt }]);
    await advanceClock(3600);
    await sendEvent(app.apiKey, "ann", "level-up");
    expect(events()).toHaveLength(4);
    expect(seen()).toEqual([
      { firstSeenAt: firstEventAt, events: 1, at: firstEventAt },
      { firstSeenAt: firstEventAt, events: 4, at: events()[3].event.receivedAt },
    ]);
    expect(events()[3].event.receivedAt - firstEventAt).toBeGreaterThanOrEqual(3600_000);
  });

  it("refuses a wrong sort and a page size over 100, and an unknown app", async () => {
    const app = await createTestApp("Players validation");
    const wrong = await admin("GET", `/apps/${app.appId}/users?sort=name`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: "sort", problem: expect.any(String) }]);
    expect((await admin("GET", `/apps/${app.appId}/users?pageSize=101`)).status).toBe(400);
    expect((await admin("GET", "/apps/999999/users")).status).toBe(404);
    expect((await admin("GET", `/apps/${app.appId}/users`)).body).toEqual({
      items: [],
      currentPage: 1,
      pageSize: 25,
      total: 0,
    });
  });
});
