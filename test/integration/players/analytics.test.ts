import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { ActiveDay, BackgroundMessage } from "../../../src/user/messages";
import { prunePlayerDays } from "../../../src/events/player-days";
import { ADMIN, DAY, HOUR, advanceClock, call, createTestApp, sendEvent, serviceNow } from "../helpers";
import { consoleFixture } from "../console/fixtures";
import { ConsoleClient } from "../console/support";
import { consume } from "../events/support";
import { seenTables } from "../../../src/players/user-seen";
import { userObject } from "../../../src/user/names";

const get = (path: string) => call("GET", `/api/v1/admin${path}`, { token: ADMIN });
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The players' analytics once `ready` holds (events reach the counts through the background queue). */
async function playersOnce(appId: string, query: string, ready: (body: any) => boolean) {
  let body: any;
  await vi.waitFor(
    async () => {
      const r = await get(`/apps/${appId}/analytics/players?${query}`);
      expect(r.status).toBe(200);
      body = r.body;
      if (!ready(body)) throw new Error(`not yet: ${JSON.stringify(body.days)}`);
    },
    { timeout: 15_000, interval: 100 },
  );
  return body;
}

/** Moves the development clock to one hour into the next UTC day: the events of a test day all fall in it. */
async function toNextDay() {
  const now = await serviceNow();
  await advanceClock(Math.ceil((Math.floor(now / DAY) * DAY + DAY + HOUR - now) / 1000));
  return serviceNow();
}

describe("players per day and unused events", () => {
  it("counts 5 new players on day 1, 2 of them active and none new on day 2, day-1 retention 40%; kil-enemy is unused", async () => {
    const app = await consoleFixture("Who plays");
    const day1 = day(await toNextDay());
    const players = ["ana", "bo", "cy", "di", "ed"];
    for (const userId of players) await sendEvent(app.apiKey, userId, "kill-enemy", { amount: 1 });
    // A second event the same day adds nothing to the players per day.
    await sendEvent(app.apiKey, "ana", "kill-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "ana", "kil-enemy", { amount: 1 });
    await advanceClock(DAY / 1000);
    const day2 = day(await serviceNow());
    await sendEvent(app.apiKey, "ana", "kill-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "bo", "kil-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "bo", "kil-enemy", { amount: 1 });

    const report = await playersOnce(
      app.appId,
      `from=${day1}&to=${day2}`,
      // The players and every event counted: each reaches the counts on its own queue message.
      (b) =>
        b.days[0].active === 5 &&
        b.days[1].active === 2 &&
        b.events_by_hour.reduce((sum: number, h: any) => sum + h.count, 0) === 10,
    );
    expect(report).toMatchObject({
      app_id: app.appId,
      from: day1,
      to: day2,
      data_starts: day1,
      days: [
        { day: day1, active: 5, new: 5, returning: 0 },
        { day: day2, active: 2, new: 0, returning: 2 },
      ],
      retention: [{ first_day: day1, new_players: 5, day_1: { players: 2, share: 0.4 }, day_7: null, day_30: null }],
    });
    // The last 48 hours, the current one last: the events of day 2 fall in its first hour.
    expect(report.events_by_hour).toHaveLength(48);
    const hours = new Map(report.events_by_hour.map((h: any) => [h.hour, h.count]));
    expect(hours.get(`${day2}T01:00:00.000Z`)).toBe(3);
    expect(hours.get(`${day1}T01:00:00.000Z`)).toBe(7);
    expect(report.events_by_hour.reduce((sum: number, h: any) => sum + h.count, 0)).toBe(10);

    await vi.waitFor(
      async () => {
        const unused = await get(`/apps/${app.appId}/analytics/unused-events?from=${day1}&to=${day2}`);
        expect(unused.status).toBe(200);
        expect(unused.body).toEqual({
          app_id: app.appId,
          from: day1,
          to: day2,
          counted_event_names: ["achieve-score", "collect-item", "earn-xp", "kill-enemy"],
          every_event_counts: false,
          items: [{ event_name: "kil-enemy", count: 3, similar: ["kill-enemy"] }],
        });
      },
      { timeout: 15_000, interval: 100 },
    );
    // Day 2 alone: kil-enemy twice.
    const day2Only = await get(`/apps/${app.appId}/analytics/unused-events?from=${day2}&to=${day2}`);
    expect(day2Only.body.items).toEqual([{ event_name: "kil-enemy", count: 2, similar: ["kill-enemy"] }]);

    // The dashboard shows the same numbers: the players chart's table, its bars' hover, retention, unused events.
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    const page = await owner.get(`/console/apps/${app.appId}?days=7`);
    expect(page.status).toBe(200);
    const html = page.html.replace(/\s+/g, " ");
    const rowOf = (cells: string) => html.includes(cells);
    // Days: returning, then new players.
    expect(rowOf(`<tr><th scope="row">${day1}</th><td class="num">0</td><td class="num">5</td></tr>`)).toBe(true);
    expect(rowOf(`<tr><th scope="row">${day2}</th><td class="num">2</td><td class="num">0</td></tr>`)).toBe(true);
    expect(html).toContain(`<title>${day2}: 2 active players (0 new, 2 returning)</title>`);
    expect(html).toContain(`<title>${day1}: 5 active players (5 new, 0 returning)</title>`);
    expect(html).toContain(
      `<tr><th scope="row">${day1}</th><td class="num">5</td><td class="num">40% <span class="muted count">(2)</span></td><td class="num muted">not yet</td><td class="num muted">not yet</td></tr>`,
    );
    expect(html).toContain(
      '<tr><td><code>kil-enemy</code></td><td class="num">3</td><td><code>kill-enemy</code></td></tr>',
    );
    expect(html).toMatch(/<a href="[^"]*\?days=7" aria-current="page">7 days<\/a>/);
    const wrongRange = await owner.get(`/console/apps/${app.appId}?days=13`);
    expect(wrongRange.status).toBe(400);
    expect(wrongRange.html).toContain("The dashboard shows 7, 30 or 90 days, not “13”.");

    // The tester's check of a name as one types it.
    const check = await owner.get(`/console/apps/${app.appId}/events/name-check?event_name=kil-enemy`);
    expect(check.status).toBe(200);
    expect(check.html).toContain("counts <code>kil-enemy</code>: the event is accepted and changes nothing.");
    expect(check.html).toContain('<button type="button" class="secondary small" data-use-event-name="kill-enemy">');
    expect((await owner.get(`/console/apps/${app.appId}/events/name-check?event_name=kill-enemy`)).html).toBe("");
  }, 60_000);

  it("counts a replayed batch once, a player of unknown first day as active only, and keeps retention cells to 1..90 days", async () => {
    const app = await createTestApp("Players replayed");
    const message = (userId: string, at: string, activeDay?: ActiveDay) =>
      ({
        kind: "event",
        event: {
          appId: app.appId,
          userId,
          teamId: null,
          eventName: "level-up",
          eventType: "single",
          sessionId: "s",
          metaData: {},
          eventId: null,
          receivedAt: Date.parse(at),
          credential: "api_key",
        },
        userRef: `ref-${userId}`,
        ...(activeDay ? { activeDay } : {}),
      }) as BackgroundMessage;
    const batch = [
      message("new-1", "2025-03-01T10:00:00Z", { day: "2025-03-01", firstDay: "2025-03-01" }),
      message("new-1", "2025-03-01T11:00:00Z"),
      message("old-1", "2025-03-01T12:00:00Z", { day: "2025-03-01", firstDay: null }),
      message("back-1", "2025-03-01T13:00:00Z", { day: "2025-03-01", firstDay: "2025-02-28" }),
      message("long-1", "2025-03-01T14:00:00Z", { day: "2025-03-01", firstDay: "2024-11-01" }),
    ];
    const { ids } = await consume(batch);
    await consume(batch, ids);
    await consume([message("new-1", "2025-03-02T10:00:00Z", { day: "2025-03-02", firstDay: "2025-03-01" })]);

    const days = await env.DB.prepare("SELECT day, active, new FROM player_days WHERE app_id = ? ORDER BY day")
      .bind(Number(app.appId))
      .all();
    expect(days.results).toEqual([
      { day: "2025-03-01", active: 4, new: 1 },
      { day: "2025-03-02", active: 1, new: 0 },
    ]);
    const cells = await env.DB.prepare(
      "SELECT first_day, active_day, players FROM player_retention WHERE app_id = ? ORDER BY first_day, active_day",
    )
      .bind(Number(app.appId))
      .all();
    // long-1 came back 120 days after their first day: past the table's 90 days.
    expect(cells.results).toEqual([
      { first_day: "2025-02-28", active_day: "2025-03-01", players: 1 },
      { first_day: "2025-03-01", active_day: "2025-03-02", players: 1 },
    ]);
    const report = (await get(`/apps/${app.appId}/analytics/players?from=2025-02-28&to=2025-03-02`)).body;
    expect(report.days).toEqual([
      { day: "2025-02-28", active: 0, new: 0, returning: 0 },
      { day: "2025-03-01", active: 4, new: 1, returning: 3 },
      { day: "2025-03-02", active: 1, new: 0, returning: 1 },
    ]);
    expect(report.data_starts).toBe("2025-03-01");
    expect(report.retention).toEqual([
      {
        first_day: "2025-03-01",
        new_players: 1,
        day_1: { players: 1, share: 1 },
        day_7: { players: 0, share: 0 },
        day_30: { players: 0, share: 0 },
      },
    ]);

    // Retention: days and cells of first days before the cut go.
    await prunePlayerDays(env.DB, "2025-03-01");
    const left = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM player_days WHERE app_id = ?1) AS days, (SELECT COUNT(*) FROM player_retention WHERE app_id = ?1) AS cells",
    )
      .bind(Number(app.appId))
      .first();
    expect(left).toEqual({ days: 2, cells: 1 });
  });

  it("counts a player whose object was made before the days were kept as active from their next event, never as new", async () => {
    const app = await createTestApp("Players from before");
    const today = day(await toNextDay());
    const stub = () => userObject(env, app.appId, "veteran");
    // The seen area as it was before the days: its first version, with the player seen a week ago.
    await runInDurableObject(stub(), (_i, state) => {
      const sql = state.storage.sql;
      sql.exec(seenTables.migrations[0]);
      sql.exec("INSERT INTO schema_versions (area, version) VALUES ('seen', 1)");
      sql.exec(
        "INSERT INTO player_seen (id, first_seen_at, events, reported_at) VALUES (1, ?, 4, ?)",
        Date.now() - 7 * DAY,
        Date.now() - 7 * DAY,
      );
    });
    await runInDurableObject(stub(), (_i, state) => state.abort("restarted under this version")).catch(() => {});
    await sendEvent(app.apiKey, "veteran", "level-up");
    await sendEvent(app.apiKey, "rookie", "level-up");
    const report = await playersOnce(app.appId, `from=${today}&to=${today}`, (b) => b.days[0].active === 2);
    expect(report.days).toEqual([{ day: today, active: 2, new: 1, returning: 1 }]);
    expect(report.data_starts).toBe(today);
    expect(report.retention).toEqual([{ first_day: today, new_players: 1, day_1: null, day_7: null, day_30: null }]);
    const seen = await runInDurableObject(stub(), (_i, state) =>
      state.storage.sql.exec("SELECT events, first_day, last_day FROM player_seen").toArray(),
    );
    expect(seen).toEqual([{ events: 5, first_day: null, last_day: today }]);
  });

  it("answers 400 naming the field for a wrong day, a reversed or too long range, or a day after today", async () => {
    const app = await createTestApp("Players ranges");
    const today = day(await serviceNow());
    const cases: [string, { field: string; problem: string }][] = [
      ["from=2025-02-30&to=2025-03-02", { field: "from", problem: "must be a UTC day as YYYY-MM-DD (2025-01-31)" }],
      ["from=2025-03-01&to=3/2/2025", { field: "to", problem: "must be a UTC day as YYYY-MM-DD (2025-01-31)" }],
      ["from=2025-03-02&to=2025-03-01", { field: "from", problem: "must not be after to" }],
      ["from=2025-01-01&to=2025-04-01", { field: "from", problem: "must be at most 90 days before to, both included" }],
      ["from=2025-01-01&to=2999-01-01", { field: "to", problem: `must not be after today (${today})` }],
    ];
    for (const [query, error] of cases) {
      for (const report of ["players", "unused-events"]) {
        const r = await get(`/apps/${app.appId}/analytics/${report}?${query}`);
        expect(r.status, `${report}?${query}`).toBe(400);
        expect(r.body).toEqual({
          status: 400,
          message: `Invalid query: ${error.field} ${error.problem}`,
          errors: [error],
        });
      }
    }
    // 90 days, both included, is the most.
    expect((await get(`/apps/${app.appId}/analytics/players?from=2025-01-01&to=2025-03-31`)).body.days).toHaveLength(
      90,
    );
    expect((await get(`/apps/999999999/analytics/players`)).status).toBe(404);
  });
});
