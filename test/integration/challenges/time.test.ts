import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { dailyPick } from "../../../src/challenges/core/daily";
import { userObject } from "../../../src/user/names";
import { ADMIN, advanceClock, call, createTestApp, DAY, HOUR, iso, sendEvent, serviceNow } from "../helpers";
import { createCategory, createChallenge, player } from "./support";

/** Everything that depends on the clock, driven by the development clock and the object's alarm. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let categoryId: string;
let users = 0;

/** Moves the service clock to the next UTC noon, so that no test runs across a date change. */
async function toNextNoon() {
  const now = await serviceNow();
  const noon = Math.floor(now / DAY) * DAY + DAY + 12 * HOUR;
  await advanceClock(Math.ceil((noon - now) / 1000));
  return noon;
}

beforeAll(async () => {
  app = await createTestApp("Clock");
  categoryId = (await createCategory(app.appId)).category_id;
  await toNextNoon();
});

async function newUser() {
  const userId = `t${++users}`;
  return { userId, stub: userObject(env, app.appId, userId), ...player(app.appId, await app.tokenFor(userId)) };
}

const storedState = async (userId: string) =>
  (await call("GET", `/api/v1/admin/apps/${app.appId}/users/${userId}`, { token: ADMIN })).body.challenges;

describe("time-outs", () => {
  it("the alarm marks a challenge lost although the user never comes back; a non-repeatable one is gone", async () => {
    const ch = await createChallenge(app.appId, categoryId, { challenge_duration_time: 60 });
    const u = await newUser();
    await u.unlock(ch.challenge_id);
    const activatedAt = Date.parse((await u.activate(ch.challenge_id)).body.challenge.user_challenge_activated_at);
    expect(await storedState(u.userId)).toMatchObject([{ type: "in-progress", expires_at: iso(activatedAt + 60_000) }]);

    // The alarm runs on the real clock: at the expiry minus the development clock's offset.
    const offset = (await serviceNow()) - Date.now();
    const alarm = await runInDurableObject(u.stub, (_instance, state) => state.storage.getAlarm());
    expect(Math.abs(alarm! - (activatedAt + 60_000 - offset))).toBeLessThan(5_000);

    // Advancing the development clock runs the time-out it made due: nothing is left for the alarm.
    await advanceClock(61);
    expect(await runDurableObjectAlarm(u.stub)).toBe(false);
    expect(await storedState(u.userId)).toMatchObject([{ challenge_id: ch.challenge_id, type: "gone", score: 0 }]);
    expect(await runInDurableObject(u.stub, (_instance, state) => state.storage.getAlarm())).toBeNull();
    expect(await u.find(ch.challenge_id)).toBeUndefined();
    expect((await u.unlock(ch.challenge_id)).status).toBe(404);
  });

  it("a repeatable challenge comes back as unlock", async () => {
    const ch = await createChallenge(app.appId, categoryId, { challenge_duration_time: 30, repeatable: true });
    const u = await newUser();
    await u.unlock(ch.challenge_id);
    await u.activate(ch.challenge_id);
    await sendEvent(app.apiKey, u.userId, "kill-enemy", { amount: 1 });
    await advanceClock(31);
    expect(await runDurableObjectAlarm(u.stub)).toBe(false);
    expect(await storedState(u.userId)).toEqual([]);
    expect(await u.find(ch.challenge_id)).toMatchObject({
      type: "unlock",
      user_challenge_current_score: 0,
      user_challenge_id: "0",
    });
  });

  it("is also applied lazily at the next touch, and events after the expiry do not count", async () => {
    const ch = await createChallenge(app.appId, categoryId, {
      challenge_duration_time: 20,
      repeatable: true,
      event_name: "earn-points",
    });
    const u = await newUser();
    await u.unlock(ch.challenge_id);
    await u.activate(ch.challenge_id);
    await advanceClock(21);
    await sendEvent(app.apiKey, u.userId, "earn-points", { amount: 3 });
    expect(await storedState(u.userId)).toEqual([]);
    expect(await u.find(ch.challenge_id)).toMatchObject({ type: "unlock", user_challenge_current_score: 0 });
    // Nothing left for the alarm.
    expect(await runInDurableObject(u.stub, (_instance, state) => state.storage.getAlarm())).toBeNull();
  });

  it("a completed challenge does not time out", async () => {
    const ch = await createChallenge(app.appId, categoryId, {
      challenge_duration_time: 20,
      challenge_goal: 1,
      event_name: "user-invite",
    });
    const u = await newUser();
    await u.unlock(ch.challenge_id);
    await u.activate(ch.challenge_id);
    await sendEvent(app.apiKey, u.userId, "user-invite", { amount: 1 });
    await advanceClock(21);
    expect(await u.find(ch.challenge_id)).toMatchObject({ type: "unclaimed" });
    expect((await u.claim(ch.challenge_id)).body.challenge.type).toBe("finished");
  });

  it("an automatic challenge that timed out starts again at the next touch", async () => {
    const auto = await createTestApp("Auto time-out");
    const cat = await createCategory(auto.appId);
    const ch = await createChallenge(auto.appId, cat.category_id, {
      is_auto_activated: true,
      repeatable: true,
      challenge_duration_time: 60,
    });
    const p = player(auto.appId, await auto.tokenFor("a"));
    const first = await p.find(ch.challenge_id);
    await advanceClock(61);
    expect(await runDurableObjectAlarm(userObject(env, auto.appId, "a"))).toBe(false);
    const again = await p.find(ch.challenge_id);
    expect(again).toMatchObject({ type: "in-progress", user_challenge_current_score: 0 });
    expect(again.user_challenge_id).not.toBe(first.user_challenge_id);
    expect(Date.parse(again.user_challenge_activated_at)).toBeGreaterThan(
      Date.parse(first.user_challenge_activated_at),
    );
  });
});

describe("periodic resets of automatic challenges", () => {
  it("daily: a fresh in-progress challenge after the reset time, none before", async () => {
    const noon = await toNextNoon();
    const ch = await createChallenge(app.appId, categoryId, {
      is_auto_activated: true,
      repeatable: true,
      period_range: "d",
      period_range_reset_at_time: "18:00:00",
      period_range_time_zone: "UTC",
      event_name: "spawn-item",
      challenge_goal: 2,
    });
    const u = await newUser();
    const first = await u.find(ch.challenge_id);
    expect(first.type).toBe("in-progress");
    await sendEvent(app.apiKey, u.userId, "spawn-item", { amount: 2, item_type: "egg" });
    expect(await u.find(ch.challenge_id)).toMatchObject({
      type: "finished",
      user_challenge_id: first.user_challenge_id,
    });

    // 17:59 UTC: still the same period, the challenge stays finished.
    await advanceClock(Math.floor((noon + 6 * HOUR - 60_000 - (await serviceNow())) / 1000));
    expect(await u.find(ch.challenge_id)).toMatchObject({
      type: "finished",
      user_challenge_id: first.user_challenge_id,
    });
    // 18:00 UTC: reset.
    await advanceClock(120);
    const reset = await u.find(ch.challenge_id);
    expect(reset).toMatchObject({ type: "in-progress", user_challenge_current_score: 0, is_claimed: false });
    expect(reset.user_challenge_id).not.toBe(first.user_challenge_id);
    await sendEvent(app.apiKey, u.userId, "spawn-item", { amount: 1, item_type: "egg" });
    expect(await u.find(ch.challenge_id)).toMatchObject({ type: "in-progress", user_challenge_current_score: 1 });
  });

  it("weekly on Monday in the configured zone", async () => {
    const ch = await createChallenge(app.appId, categoryId, {
      is_auto_activated: true,
      repeatable: true,
      period_range: "w",
      period_range_time_zone: "Europe/Berlin",
      event_name: "play-card",
    });
    const u = await newUser();
    const first = await u.find(ch.challenge_id);
    await sendEvent(app.apiKey, u.userId, "play-card", { amount: 1, card_type: "ace" });
    // Eight days later a Monday has passed, whatever today is.
    await advanceClock(8 * 86_400);
    // Access tokens live a day: a new one for the new week.
    const later = await player(app.appId, await app.tokenFor(u.userId)).find(ch.challenge_id);
    expect(later).toMatchObject({ type: "in-progress", user_challenge_current_score: 0 });
    expect(later.user_challenge_id).not.toBe(first.user_challenge_id);
    const state = await storedState(u.userId);
    const periodStart = new Date(state.find((s: any) => s.challenge_id === ch.challenge_id).period_start);
    // Monday 00:00 in Berlin is Sunday 22:00 or 23:00 UTC.
    expect(periodStart.getUTCDay()).toBe(0);
    expect([22, 23]).toContain(periodStart.getUTCHours());
  });
});

describe("live_date", () => {
  it("a challenge is not offered before its live date, and events do not count for it", async () => {
    const now = await serviceNow();
    const ch = await createChallenge(app.appId, categoryId, {
      live_date: iso(now + HOUR),
      is_auto_activated: true,
      event_name: "win-bounty",
    });
    const u = await newUser();
    expect(await u.find(ch.challenge_id)).toBeUndefined();
    expect((await u.unlock(ch.challenge_id)).status).toBe(404);
    await sendEvent(app.apiKey, u.userId, "win-bounty", { amount: 1, bounty_name: "x" });
    expect((await storedState(u.userId)).map((s: any) => s.challenge_id)).not.toContain(ch.challenge_id);
    await advanceClock(2 * 3600);
    expect(await u.find(ch.challenge_id)).toMatchObject({ type: "in-progress", live_date: iso(now + HOUR) });
  });
});

describe("the daily category", () => {
  it("shows daily_challenge_count challenges a day, the same for every user, chosen per category and date", async () => {
    const daily = await createTestApp("Daily");
    const cat = await createCategory(daily.appId, { is_daily_category: true, daily_challenge_count: 2 });
    const pool: string[] = [];
    for (let i = 0; i < 6; i++)
      pool.push((await createChallenge(daily.appId, cat.category_id, { challenge_name: `Daily ${i}` })).challenge_id);
    const noon = await toNextNoon();
    // Challenges created without a key are keyed challenge-<id>.
    const picked = (ms: number) =>
      dailyPick(
        pool.map((id) => `challenge-${id}`),
        2,
        cat.category_slug,
        iso(ms).slice(0, 10),
      );
    const expected = (ms: number) => pool.filter((id) => picked(ms).has(`challenge-${id}`)).sort();
    const shown = async (userId: string) => {
      const r = await player(daily.appId, await daily.tokenFor(userId)).all();
      expect(r.body[0].is_daily_category).toBe(true);
      return r.body[0].challenges.map((c: any) => c.challenge_id).sort();
    };
    const today = await shown("d1");
    expect(today).toHaveLength(2);
    expect(today).toEqual(expected(noon));
    expect(await shown("d2")).toEqual(today);

    const hidden = pool.find((id) => !today.includes(id))!;
    expect((await player(daily.appId, await daily.tokenFor("d1")).unlock(hidden)).status).toBe(404);

    await advanceClock(86_400);
    expect(await shown("d1")).toEqual(expected(noon + DAY));
  });
});
