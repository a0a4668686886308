import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, advanceClock, call, createTestApp, DAY, HOUR, iso, sendEvent, serviceNow } from "../helpers";
import { addWebhook, capturingWebhooks, createPass, runCron, threeLevelPass } from "./support";

/** This file moves the service clock: its storage (and clock) is its own. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let now: number;

beforeAll(async () => {
  app = await createTestApp("Expiry");
  await addWebhook(app.appId, "battlepass-expired");
  now = await serviceNow();
});

async function cronExpired() {
  const hooks = capturingWebhooks();
  await runCron(hooks.queue);
  return hooks.sent.filter((m) => m.webhookType === "battlepass-expired");
}

const progressOf = async (token: string, passId: string) =>
  ((await call("GET", `/api/v1/battle-pass-levels/${app.appId}/${passId}`, { token })).body as any[]).map((l) =>
    l.challenges.map((c: any) => `${c.type}:${c.user_challenge_current_score}`),
  );

describe("the end of a battle pass", () => {
  it("sends battlepass-expired exactly once per pass, from cron, with or without active users; progress stays", async () => {
    const { pass, levels } = await threeLevelPass(app.appId, {
      start_date: iso(now - HOUR),
      end_date: iso(now + HOUR),
      battle_pass_priority: 3,
    });
    const idle = await createPass(app.appId, {
      battle_pass_name: "Nobody plays",
      start_date: iso(now - HOUR),
      end_date: iso(now + 2 * DAY),
    });
    const token = await app.tokenFor("player");
    await call("POST", `/v1/battle-pass/${app.appId}/unlock/${pass.battle_pass_id}`, {
      token,
      body: { purchase_price: 0, purchase_currency: "EUR" },
    });
    await sendEvent(app.apiKey, "player", "kill-enemy", { amount: 2 });
    await sendEvent(app.apiKey, "player", "collect-item", { amount: 3, item_type: "gem" });
    await sendEvent(app.apiKey, "player", "earn-points", { amount: 1 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["unclaimed:2", "unclaimed:3"],
      ["in-progress:0"],
      ["unlock:0"],
    ]);

    expect(await cronExpired()).toEqual([]);

    await advanceClock(2 * 3600);
    const expired = await cronExpired();
    expect(expired).toEqual([
      {
        webhookType: "battlepass-expired",
        overrideUrl: null,
        payload: {
          webhook_type: "battlepass-expired",
          old_battle_pass: {
            battle_pass_id: pass.battle_pass_id,
            app_id: app.appId,
            battle_pass_priority: 3,
            start_date: pass.start_date,
            end_date: pass.end_date,
            is_active: true,
          },
          new_battle_pass: {
            battle_pass_id: pass.battle_pass_id,
            app_id: app.appId,
            battle_pass_priority: 3,
            start_date: pass.start_date,
            end_date: pass.end_date,
            is_active: false,
          },
        },
      },
    ]);
    expect(await cronExpired()).toEqual([]);
    const admin = await call("GET", `/api/v1/admin/apps/${app.appId}/battle-passes/${pass.battle_pass_id}`, {
      token: ADMIN,
    });
    expect(admin.body.expired_at).toEqual(expect.any(String));

    // After the end: events no longer count, unfinished challenges show overtime, counters stay.
    await sendEvent(app.apiKey, "player", "kill-enemy", { amount: 1 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["unclaimed:2", "unclaimed:3"],
      ["overtime:0"],
      ["unlock:0"],
    ]);
    const single = await call("GET", `/v1/battle-passes/${app.appId}/${pass.battle_pass_id}`, { token });
    expect(single.body).toMatchObject({ is_active: false, unlocked_at: expect.any(String) });
    expect((await call("GET", `/api/v1/battle-passes/${app.appId}/unlocked`, { token })).body).toHaveLength(1);
    expect(
      (await call("GET", `/api/v1/battle-passes/${app.appId}`, { token })).body.map((p: any) => p.battle_pass_id),
    ).toEqual([idle.battle_pass_id]);

    // A level completed in time can still be claimed; nothing else can move.
    expect(
      (await call("POST", `/v1/api/battle-pass-levels/${app.appId}/claim/${levels[0].level_id}`, { token })).status,
    ).toBe(200);
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["finished:2", "finished:3"],
      ["overtime:0"],
      ["unlock:0"],
    ]);
    const lateToken = await app.tokenFor("latecomer");
    const late = await call("POST", `/v1/battle-pass/${app.appId}/unlock/${pass.battle_pass_id}`, {
      token: lateToken,
      body: {},
    });
    expect(late).toMatchObject({
      status: 409,
      body: { status: 409, message: `Battle pass ${pass.battle_pass_id} has ended` },
    });

    // The pass nobody unlocked ends too, and is announced once.
    await advanceClock(2 * 86400);
    expect((await cronExpired()).map((m) => m.payload.old_battle_pass.battle_pass_id)).toEqual([idle.battle_pass_id]);
    expect(await cronExpired()).toEqual([]);
  });

  it("announces a pass again when the admin moves its end into the future and it ends again", async () => {
    const start = await serviceNow();
    const created = await createPass(app.appId, {
      battle_pass_name: "Extended",
      start_date: iso(start - DAY),
      end_date: iso(start + HOUR),
    });
    await advanceClock(2 * 3600);
    expect((await cronExpired()).map((m) => m.payload.new_battle_pass.battle_pass_id)).toEqual([
      created.battle_pass_id,
    ]);

    const later = iso(start + 5 * HOUR);
    const path = `/api/v1/admin/apps/${app.appId}/battle-passes/${created.battle_pass_id}`;
    const put = await call("PUT", path, {
      token: ADMIN,
      body: { battle_pass_name: "Extended", start_date: iso(start - DAY), end_date: later },
    });
    expect(put.body.expired_at).toBeNull();
    expect(await cronExpired()).toEqual([]);
    await advanceClock(4 * 3600);
    expect((await cronExpired()).map((m) => m.payload.new_battle_pass.end_date)).toEqual([later]);
    expect(await cronExpired()).toEqual([]);
  });
});
