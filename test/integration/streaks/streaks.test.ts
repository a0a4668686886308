import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, call, captureSends, createTestApp } from "../helpers";
import { readClock, setClockOffset } from "../../../src/shared/clock";
import { zonedDateTime, zonedToInstant } from "../../../src/rules/schedule";
import { userObject } from "../../../src/user/names";
import { erase, objectRowsHolding } from "../players/support";
import { applied, exportCatalog, planCatalog } from "../catalog/support";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Moves the service clock forward (never back: the workers tests share it) to the first instant
 * after now plus `afterDays` days at which `zone`'s wall clock shows `time`. Written straight to
 * D1, so that no timer runs before the test runs the object's alarm itself.
 */
async function clockTo(zone: string, time: string, afterDays = 0): Promise<number> {
  const clock = await readClock(env);
  const from = clock.now() + 60_000 + afterDays * DAY;
  const [hour, minute] = time.split(":").map(Number);
  let day = zonedDateTime(from, zone);
  let target = zonedToInstant({ ...day, hour, minute, second: 0 }, zone);
  if (target < from) {
    day = zonedDateTime(from + DAY, zone);
    target = zonedToInstant({ ...day, hour, minute, second: 0 }, zone);
  }
  await setClockOffset(env.DB, target - Date.now());
  return target;
}

const STREAK_TYPES = [
  "streak-extended",
  "streak-freeze-used",
  "streak-freeze-earned",
  "streak-lost",
  "streak-milestone",
] as const;

async function streaksApp(name: string, streak: Record<string, unknown>, pointsSystems: string[] = []) {
  const app = await createTestApp(name);
  for (const key of pointsSystems) await admin("POST", `/apps/${app.appId}/points-systems`, { key, name: key });
  for (const type of STREAK_TYPES)
    await admin("POST", `/apps/${app.appId}/webhooks`, {
      webhook_type: type,
      url: `https://hooks.example.com/${type}`,
      secret_key: "s3cret-s3cret-s3cret",
    });
  const created = await admin("POST", `/apps/${app.appId}/streaks`, {
    key: "daily",
    name: { en: "Daily practice" },
    period: "daily",
    event_name: "lesson",
    time_zone: "Europe/Berlin",
    ...streak,
  });
  if (created.status !== 201) throw new Error(`create streak: ${created.status} ${JSON.stringify(created.body)}`);
  const all = captureSends(env.WEBHOOKS, (m: { webhookType: string; body: string }) => JSON.parse(m.body));
  // Other tests' players may be decided meanwhile (the development clock runs every due timer).
  const sent = {
    map: <T>(f: (p: any) => T) => all.filter((p) => p.app_id === app.appId).map(f),
    slice: (n: number) => all.filter((p) => p.app_id === app.appId).slice(n),
    at: (i: number) => all.filter((p) => p.app_id === app.appId)[i],
  };
  const event = async (userId: string, extra: Record<string, unknown> = {}, eventName = "lesson") => {
    const r = await call("POST", "/api/v1/events", {
      token: app.apiKey,
      body: { user_id: userId, event_name: eventName, meta_data: {}, ...extra },
    });
    if (r.status !== 200) throw new Error(`event: ${r.status} ${JSON.stringify(r.body)}`);
  };
  const streaks = async (userId: string) => {
    const r = await call("GET", `/api/v1/streaks/${app.appId}?user_id=${userId}`, { token: app.apiKey });
    if (r.status !== 200) throw new Error(`streaks: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.streaks[0];
  };
  const stored = (userId: string) =>
    runInDurableObject(userObject(env, app.appId, userId), (_i, state) =>
      state.storage.sql
        .exec<{ streaks: string }>("SELECT streaks FROM st_player")
        .toArray()
        .flatMap((r) => Object.values(JSON.parse(r.streaks) as Record<string, { s: unknown }>).map((e) => e.s)),
    );
  return { app, streakId: created.body.streak_id as string, sent, event, streaks, stored };
}

describe("streaks: configuration", () => {
  it("creates with defaults, lists, replaces, deletes; refuses what is wrong with 400 and a taken key with 409", async () => {
    const app = await createTestApp("Streaks config");
    const base = `/apps/${app.appId}/streaks`;
    const created = await admin("POST", base, {
      key: "weekly",
      name: "Weekly",
      period: "weekly",
      time_zone: "America/Los_Angeles",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      app_id: app.appId,
      key: "weekly",
      name: "Weekly",
      period: "weekly",
      event_name: null,
      filters: [],
      min_count: 1,
      reset_at_time: "00:00:00",
      time_zone: "America/Los_Angeles",
      freezes: { initial: 0, earn_every: 0, max: 0 },
      milestones: [],
    });
    expect((await admin("POST", base, { key: "weekly", name: "x", period: "daily", time_zone: "UTC" })).status).toBe(
      409,
    );
    for (const wrong of [
      { key: "a", name: "x", period: "monthly", time_zone: "UTC" },
      { key: "a", name: "x", period: "daily", time_zone: "Mars/Base" },
      { key: "a", name: "x", period: "daily", time_zone: "UTC", reset_at_time: "25:00:00" },
      { key: "a", name: "x", period: "daily", time_zone: "UTC", freezes: { initial: 0, earn_every: 1, max: 101 } },
      { key: "a", name: "x", period: "daily", time_zone: "UTC", milestones: [{ length: 5 }, { length: 3 }] },
    ]) {
      const r = await admin("POST", base, wrong);
      expect(r.status).toBe(400);
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    const noSystem = await admin("POST", base, {
      key: "b",
      name: "x",
      period: "daily",
      time_zone: "UTC",
      milestones: [{ length: 3, points_rewards: [{ system: "gems", amount: 5 }] }],
    });
    expect(noSystem).toMatchObject({
      status: 400,
      body: {
        errors: [{ field: "milestones.0.points_rewards.0.system", problem: "no points system 'gems' in this app" }],
      },
    });
    const id = created.body.streak_id;
    const list = await admin("GET", base);
    expect(list.body).toMatchObject({ total: 1, items: [{ streak_id: id, key: "weekly" }] });
    const put = await admin("PUT", `${base}/${id}`, { key: "weekly", name: "W", period: "daily", time_zone: "UTC" });
    expect(put.body).toMatchObject({ name: "W", period: "daily" });
    expect((await admin("DELETE", `${base}/${id}`)).status).toBe(204);
    expect((await admin("GET", `${base}/${id}`)).status).toBe(404);
    const audit = await admin("GET", `/apps/${app.appId}/audit-log?resource=streak`);
    expect((audit.body.items as any[]).map((e) => e.action).sort()).toEqual(["create", "delete", "update"]);
  });
});

describe("streaks: catalog as code", () => {
  it("applies a document's streaks, exports them as applied, and refuses a milestone naming no points system", async () => {
    const app = await createTestApp("Streaks catalog");
    const streak = {
      key: "weekly-raid",
      name: { en: "Weekly raid" },
      period: "weekly",
      event_name: "raid",
      time_zone: "Europe/Berlin",
      freezes: { initial: 1, earn_every: 4, max: 2 },
      milestones: [{ length: 4, points_rewards: [{ system: "gems", amount: 10 }] }],
    };
    const refused = await planCatalog(app.appId, { version: 1, streaks: [streak] });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        errors: [
          { field: "streaks.0.milestones.0.points_rewards.0.system", problem: "no points system 'gems' in this app" },
        ],
      },
    });
    const answer = await applied(app.appId, {
      version: 1,
      points_systems: [{ key: "gems", name: "Gems" }],
      streaks: [streak],
    });
    expect(answer.summary).toMatchObject({ create: 2, blocked: 0 });
    expect((await exportCatalog(app.appId)).streaks).toEqual([
      {
        ...streak,
        filters: [],
        min_count: 1,
        reset_at_time: "00:00:00",
      },
    ]);
    const again = await planCatalog(app.appId, await exportCatalog(app.appId));
    expect(again.body.summary).toMatchObject({ create: 0, update: 0, delete: 0 });
  });
});

describe("streaks: a player in Europe/Berlin", () => {
  it("three days give length 3; a missed day uses the freeze; the next loses it at the alarm; restore brings back 3", async () => {
    const s = await streaksApp("Streaks Berlin", { freezes: { initial: 1, earn_every: 0, max: 1 } });
    const day1 = await clockTo("Europe/Berlin", "12:00");
    await s.event("ann");
    await clockTo("Europe/Berlin", "12:00", 0.5);
    await s.event("ann");
    await clockTo("Europe/Berlin", "12:00", 0.5);
    await s.event("ann");
    expect(s.sent.map((p) => [p.webhook_type, p.length])).toEqual([
      ["streak-extended", 1],
      ["streak-extended", 2],
      ["streak-extended", 3],
    ]);
    const start1 = zonedToInstant(
      { ...zonedDateTime(day1, "Europe/Berlin"), hour: 0, minute: 0, second: 0 },
      "Europe/Berlin",
    );
    expect(s.sent.at(0)).toEqual({
      webhook_type: "streak-extended",
      app_id: s.app.appId,
      user_id: "ann",
      streak_id: s.streakId,
      key: "daily",
      length: 1,
      longest: 1,
      freezes: 1,
      period_start: iso(start1),
    });
    const stub = userObject(env, s.app.appId, "ann");
    // The third day is kept: the alarm waits for the end of the fourth.
    const alarm = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
    const offset = (await readClock(env)).offsetMs;
    const day4End = start1 + 4 * DAY;
    expect(alarm! + offset).toBe(day4End);

    // The fourth day is missed: the alarm uses the freeze, without the player calling.
    await clockTo("Europe/Berlin", "00:30", 1);
    await runDurableObjectAlarm(stub);
    expect(s.sent.slice(3)).toEqual([
      {
        webhook_type: "streak-freeze-used",
        app_id: s.app.appId,
        user_id: "ann",
        streak_id: s.streakId,
        key: "daily",
        length: 3,
        longest: 3,
        freezes: 0,
        period_start: iso(start1 + 3 * DAY),
      },
    ]);
    expect((await s.stored("ann"))[0]).toMatchObject({ length: 3, freezes: 0 });

    // The fifth is missed too: lost.
    await clockTo("Europe/Berlin", "00:30", 0.5);
    await runDurableObjectAlarm(stub);
    expect(s.sent.slice(4).map((p) => [p.webhook_type, p.length, p.longest, p.freezes])).toEqual([
      ["streak-lost", 0, 3, 0],
    ]);
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
    expect(await s.streaks("ann")).toMatchObject({ length: 0, longest: 3, lost_length: 3, freezes: 0 });

    const restore = `/apps/${s.app.appId}/users/ann/streaks/${s.streakId}/restore`;
    expect((await admin("POST", restore, {})).status).toBe(400);
    const restored = await admin("POST", restore, { reason: "outage" });
    expect(restored).toMatchObject({
      status: 200,
      body: {
        before: { length: 0, lost_length: 3 },
        after: { length: 3, longest: 3, lost_length: 0 },
        reason: "outage",
      },
    });
    expect((await admin("POST", restore, { reason: "again" })).status).toBe(409);
    expect(await s.streaks("ann")).toMatchObject({ length: 3, kept_this_period: false });
    const audit = await admin("GET", `/apps/${s.app.appId}/audit-log?resource=player&resource_id=ann`);
    expect((audit.body.items as any[]).map((e) => e.action)).toEqual(["correct-streak-restore"]);
  });

  it("two events 30 minutes apart around Berlin midnight are two days; in Los Angeles one", async () => {
    const s = await streaksApp("Streaks midnight", {});
    const bad = await call("PUT", "/api/v1/user-time-zone?user_id=la", {
      token: s.app.apiKey,
      body: { time_zone: "Nowhere/City" },
    });
    expect(bad.status).toBe(400);
    const token = await s.app.tokenFor("la");
    expect((await call("GET", "/api/v1/user-time-zone", { token })).body).toEqual({ time_zone: null });
    const put = await call("PUT", "/api/v1/user-time-zone", { token, body: { time_zone: "America/Los_Angeles" } });
    expect(put).toMatchObject({ status: 200, body: { time_zone: "America/Los_Angeles" } });
    expect((await call("GET", "/api/v1/user-time-zone", { token })).body).toEqual({
      time_zone: "America/Los_Angeles",
    });

    await clockTo("Europe/Berlin", "23:45");
    await s.event("berlin");
    await s.event("la");
    await clockTo("Europe/Berlin", "00:15");
    await s.event("berlin");
    await s.event("la");
    expect(await s.streaks("berlin")).toMatchObject({ length: 2, count_this_period: 1 });
    expect(await s.streaks("la")).toMatchObject({ length: 1, count_this_period: 2, kept_this_period: true });
    const la = await s.streaks("la");
    // A Los Angeles day ends at local midnight: 08:00 UTC in winter, 07:00 in summer.
    expect(zonedDateTime(Date.parse(la.period_ends_at), "America/Los_Angeles")).toMatchObject({
      hour: 0,
      minute: 0,
      second: 0,
    });
  });

  it("counts an event_id once; a banned player's events keep nothing", async () => {
    const s = await streaksApp("Streaks fair play", { min_count: 2 });
    await clockTo("Europe/Berlin", "12:00");
    await s.event("eve", { event_id: "once" });
    await s.event("eve", { event_id: "once" });
    expect(await s.streaks("eve")).toMatchObject({ length: 0, count_this_period: 1 });
    await s.event("eve", {}, "other");
    expect(await s.streaks("eve")).toMatchObject({ count_this_period: 1 });
    expect((await admin("POST", `/apps/${s.app.appId}/users/bob/ban`, { reason: "cheat" })).status).toBe(200);
    const refused = await call("POST", "/api/v1/events", {
      token: s.app.apiKey,
      body: { user_id: "bob", event_name: "lesson", meta_data: {} },
    });
    expect(refused.status).toBe(403);
    expect(await s.streaks("bob")).toMatchObject({ length: 0, count_this_period: 0 });
  });

  it("earn_every 7 earns one freeze after 7 days, max caps it; a milestone credits its points once", async () => {
    const s = await streaksApp(
      "Streaks freezes",
      {
        freezes: { initial: 0, earn_every: 7, max: 1 },
        milestones: [{ length: 3, points_rewards: [{ system: "xp", amount: 50 }] }],
      },
      ["xp"],
    );
    await clockTo("Europe/Berlin", "12:00");
    for (let i = 0; i < 8; i++) {
      if (i > 0) await clockTo("Europe/Berlin", "12:00", 0.5);
      await s.event("cy");
    }
    const types = s.sent.map((p) => `${p.webhook_type}:${p.length}:${p.freezes}`);
    expect(types.filter((t) => !t.startsWith("streak-extended"))).toEqual([
      "streak-milestone:3:0",
      "streak-freeze-earned:7:1",
    ]);
    expect(await s.streaks("cy")).toMatchObject({ length: 8, freezes: 1 });
    const points = await call("GET", `/api/v1/points/${s.app.appId}?user_id=cy`, { token: s.app.apiKey });
    expect(points.body.systems[0]).toMatchObject({ key: "xp", balance: 50 });
    const grant = await admin("POST", `/apps/${s.app.appId}/users/cy/streaks/${s.streakId}/freezes`, {
      amount: 3,
      reason: "support",
    });
    expect(grant).toMatchObject({ status: 200, body: { before: { freezes: 1 }, after: { freezes: 1 } } });
    expect(
      (await admin("POST", `/apps/${s.app.appId}/users/cy/streaks/${s.streakId}/freezes`, { amount: 1 })).status,
    ).toBe(400);
    const state = await admin("GET", `/apps/${s.app.appId}/users/cy`);
    expect(state.body.streaks.streaks[0]).toMatchObject({ length: 8, freezes_max: 1 });
    expect(state.body.streaks.streaks[0].calendar.map((d: { status: string }) => d.status)).toEqual(
      Array(7).fill("kept"),
    );
    const exported = await admin("GET", `/apps/${s.app.appId}/users/cy/export`);
    expect(exported.body.streaks).toMatchObject({
      time_zone: null,
      streaks: [{ streak_id: s.streakId, key: "daily", length: 8, longest: 8, freezes: 1 }],
    });

    // Erasure takes the player's streaks with every other table of their object.
    await erase(s.app.appId, "cy");
    expect((await objectRowsHolding(s.app.appId, "cy", "cy")).rows).toEqual([]);
    expect(await s.stored("cy")).toEqual([]);
    expect(await s.streaks("cy")).toMatchObject({ length: 0, longest: 0, freezes: 0 });
  });

  it("advancing the development clock runs the alarm: streak-lost without the player calling", async () => {
    const s = await streaksApp("Streaks dev clock", {});
    await clockTo("Europe/Berlin", "12:00");
    await s.event("dan");
    const r = await admin("POST", "/dev/clock/advance", { advance_seconds: 2 * 86_400 });
    expect(r.status).toBe(200);
    expect(s.sent.map((p) => [p.webhook_type, p.user_id, p.length])).toEqual([
      ["streak-extended", "dan", 1],
      ["streak-lost", "dan", 0],
    ]);
    expect(await runInDurableObject(userObject(env, s.app.appId, "dan"), (_i, st) => st.storage.getAlarm())).toBe(null);
  });
});
