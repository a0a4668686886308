import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { recordHolders } from "../../../src/catalog/holders-repo";
import type { BackgroundMessage, BackgroundMessagesOf } from "../../../src/user/messages";
import { userObject } from "../../../src/user/names";
import { call, capturingQueue, createTestApp, sendEvent, serviceNow } from "../helpers";
import { challengesOf, player } from "../challenges/support";
import { applied, applyCatalog, challengeIds, demoCatalog, exportCatalog, planCatalog } from "./support";

/** The D1 holder counts of the app's challenges, as "key state users", without zeros. */
async function challengeHolders(appId: string) {
  const rows = await env.DB.prepare(
    "SELECT c.key, h.state, h.users FROM challenge_holders h JOIN challenges c USING (challenge_id) WHERE c.app_id = ? AND h.users <> 0 ORDER BY c.key, h.state",
  )
    .bind(Number(appId))
    .all<{ key: string; state: string; users: number }>();
  return rows.results.map((r) => `${r.key} ${r.state} ${r.users}`);
}

async function passHolders(appId: string) {
  const rows = await env.DB.prepare(
    "SELECT p.key, h.users FROM battle_pass_holders h JOIN battle_passes p USING (battle_pass_id) WHERE p.app_id = ?",
  )
    .bind(Number(appId))
    .all<{ key: string; users: number }>();
  return rows.results.map((r) => `${r.key} ${r.users}`);
}

/** Waits until the background queue has counted what the users' objects staged. */
const eventually = (probe: () => Promise<string[]>, expected: string[]) =>
  vi.waitFor(async () => expect(await probe()).toEqual(expected), { timeout: 15_000, interval: 100 });

function edited(change: (doc: any) => void) {
  const doc = demoCatalog();
  change(doc);
  return doc;
}
const withoutDaily = () =>
  edited((doc) => (doc.categories = doc.categories.filter((c: any) => c.category_slug !== "daily")));
const weeklyChallenge = (doc: any, key: string) => doc.categories[1].challenges.find((c: any) => c.key === key);

describe("holder counts", () => {
  it("follow the players' state changes through the background queue, each counted once", async () => {
    const { appId, apiKey, tokenFor } = await createTestApp("Counted");
    await applied(appId, demoCatalog());
    const ids = await challengeIds(appId);
    const ann = player(appId, await tokenFor("ann"));
    await ann.all(); // starts the three automatic challenges
    await player(appId, await tokenFor("bob")).all();
    expect((await ann.unlock(ids["weekly-sharpshooter"])).status).toBe(200);
    await eventually(
      () => challengeHolders(appId),
      [
        "daily-coins in-progress 2",
        "daily-matches in-progress 2",
        "weekly-raider in-progress 2",
        "weekly-sharpshooter unlocked 1",
      ],
    );

    expect((await ann.activate(ids["weekly-sharpshooter"])).status).toBe(200);
    for (let i = 0; i < 3; i++) await sendEvent(apiKey, "ann", "match-finish"); // daily-matches: finished, claimed by the service
    await sendEvent(apiKey, "ann", "kill-enemy", { amount: 25, weapon_used: "laser" }); // weekly-sharpshooter: unclaimed
    expect((await call("DELETE", `/api/v1/reset-challenges/${appId}/bob`, { token: apiKey })).status).toBe(200);
    await eventually(
      () => challengeHolders(appId),
      ["daily-coins in-progress 1", "weekly-raider in-progress 1", "weekly-sharpshooter unclaimed 1"],
    );
    expect((await ann.claim(ids["weekly-sharpshooter"])).status).toBe(200);
    await eventually(() => challengeHolders(appId), ["daily-coins in-progress 1", "weekly-raider in-progress 1"]);
  });

  it("count a replayed queue message once, and drop the counts of deleted objects", async () => {
    const { appId } = await createTestApp("Replay");
    await applied(appId, demoCatalog());
    const ids = await challengeIds(appId);
    const message = (id: string, deltas: unknown[]) => ({ id, body: { kind: "holders", appId, deltas } });
    const batch = [
      message("m1", [{ object: "challenge", id: ids["daily-coins"], state: "in-progress", delta: 1 }]),
      message("m2", [
        { object: "challenge", id: ids["daily-coins"], state: "in-progress", delta: 1 },
        { object: "challenge", id: "999999", state: "in-progress", delta: 1 },
      ]),
    ] as unknown as BackgroundMessagesOf<"holders">;
    await recordHolders(batch, env);
    await recordHolders(batch, env);
    await recordHolders([batch[1]], env);
    expect(await challengeHolders(appId)).toEqual(["daily-coins in-progress 2"]);
  });
});

describe("changes that would break running player state", () => {
  it("answer 409 listing what is in the way, unless forced; harmless changes go through", async () => {
    const { appId, tokenFor } = await createTestApp("Guarded");
    await applied(appId, demoCatalog());
    const ids = await challengeIds(appId);
    const ann = player(appId, await tokenFor("ann"));
    await ann.all();
    await ann.unlock(ids["weekly-sharpshooter"]);
    await eventually(
      () => challengeHolders(appId),
      [
        "daily-coins in-progress 1",
        "daily-matches in-progress 1",
        "weekly-raider in-progress 1",
        "weekly-sharpshooter unlocked 1",
      ],
    );
    const before = await exportCatalog(appId);

    const pruned = await applyCatalog(appId, withoutDaily(), { prune: true });
    expect(pruned.status).toBe(409);
    expect(pruned.body.errors).toEqual([
      {
        field: "challenges/daily-matches",
        problem: "deleting it would drop running player state: 1 user holds it in progress",
      },
      {
        field: "challenges/daily-coins",
        problem: "deleting it would drop running player state: 1 user holds it in progress",
      },
    ]);
    expect(pruned.body.message).toMatch(
      /^The document would break running player state \(apply with force=true to do it anyway\): challenges\/daily-matches: /,
    );
    expect((await planCatalog(appId, withoutDaily(), { prune: true })).body.blocked).toEqual([
      {
        object: "challenge",
        ref: "challenges/daily-matches",
        problem: "deleting it would drop running player state: 1 user holds it in progress",
      },
      {
        object: "challenge",
        ref: "challenges/daily-coins",
        problem: "deleting it would drop running player state: 1 user holds it in progress",
      },
    ]);

    const newGoal = edited((doc) => (weeklyChallenge(doc, "weekly-raider").challenge_goal = 150));
    expect(await applyCatalog(appId, newGoal)).toMatchObject({
      status: 409,
      body: {
        errors: [
          {
            field: "challenges/weekly-raider",
            problem: "1 user has it in progress: changing challenge_goal would change what their counters mean",
          },
        ],
      },
    });
    const gone = edited(
      (doc) =>
        (doc.categories[1].challenges = doc.categories[1].challenges.filter(
          (c: any) => c.key !== "weekly-sharpshooter",
        )),
    );
    expect((await applyCatalog(appId, gone, { prune: true })).body.errors).toEqual([
      {
        field: "challenges/weekly-sharpshooter",
        problem: "deleting it would drop running player state: 1 user holds it unlocked",
      },
    ]);
    expect(await exportCatalog(appId)).toEqual(before);

    // A new name, or a new goal for a challenge nobody has in progress, breaks nothing.
    const harmless = edited((doc) => {
      weeklyChallenge(doc, "weekly-raider").challenge_name = "Defeat 200 raiders";
      weeklyChallenge(doc, "weekly-sharpshooter").challenge_goal = 20;
    });
    expect((await applied(appId, harmless)).summary).toEqual({
      create: 0,
      update: 2,
      delete: 0,
      unmanaged: 0,
      blocked: 0,
    });

    const forced = await applyCatalog(appId, withoutDaily(), { prune: true, force: true });
    expect(forced.status).toBe(200);
    expect(forced.body.blocked).toHaveLength(2);
    expect(forced.body.summary.delete).toBe(3);
    const list = await ann.all();
    expect(list.status).toBe(200);
    expect(list.body.map((c: any) => c.category_slug)).toEqual(["weekly"]);
  });

  it("protect a running battle pass that users unlocked: its levels and what their challenges count", async () => {
    const { appId, tokenFor } = await createTestApp("Guarded pass");
    await applied(appId, demoCatalog());
    const passId = String(
      (await env.DB.prepare("SELECT battle_pass_id FROM battle_passes WHERE app_id = ?")
        .bind(Number(appId))
        .first<{ battle_pass_id: number }>())!.battle_pass_id,
    );
    const unlock = await call("POST", `/v1/battle-pass/${appId}/unlock/${passId}`, {
      token: await tokenFor("ann"),
      body: { purchase_price: 0, purchase_currency: "EUR" },
    });
    expect(unlock.status).toBe(200);
    await eventually(() => passHolders(appId), ["founders-season 1"]);

    const withoutSilver = edited(
      (doc) => (doc.battle_passes[0].levels = doc.battle_passes[0].levels.filter((l: any) => l.key !== "silver")),
    );
    expect((await applyCatalog(appId, withoutSilver, { prune: true })).body.errors).toEqual([
      {
        field: "battle_passes/founders-season/levels/silver",
        problem:
          "1 user has unlocked battle pass founders-season, which runs until 2031-01-01T00:00:00.000Z: deleting the level would drop their progress in it",
      },
    ]);
    const newGoal = edited((doc) => (doc.battle_passes[0].levels[2].challenges[0].challenge_goal = 5000));
    expect((await applyCatalog(appId, newGoal)).body.errors).toEqual([
      {
        field: "battle_passes/founders-season/levels/gold/challenges/score-hunter",
        problem:
          "1 user has unlocked battle pass founders-season, which runs until 2031-01-01T00:00:00.000Z: changing challenge_goal would change what their counters mean",
      },
    ]);
    const renamed = edited((doc) => (doc.battle_passes[0].levels[2].challenges[0].challenge_name = "Score big"));
    expect((await applied(appId, renamed)).summary.update).toBe(1);
  });
});

describe("a user's object from before the holder counts", () => {
  it("reports what it holds once, with its next state change", async () => {
    const { appId } = await createTestApp("Legacy object");
    await applied(appId, demoCatalog());
    const ids = await challengeIds(appId);
    const now = await serviceNow();
    const sent = (background: BackgroundMessage[]) =>
      background
        .filter((m) => m.kind === "holders")
        .map((m) => (m as Extract<BackgroundMessage, { kind: "holders" }>).deltas);
    await runInDurableObject(userObject(env, appId, "old-timer"), async (_instance, state) => {
      const first = restartedChallenges(state.storage);
      await first.challenges.list(appId, "old-timer", now, { filter: "all" });
      await first.challenges.act(appId, "old-timer", now, "unlock", ids["weekly-sharpshooter"]);
      // As objects made before migration 0010 are: their holdings were never reported.
      state.storage.sql.exec("UPDATE ch_owner SET holders_counted = 0");

      const restarted = restartedChallenges(state.storage);
      await restarted.challenges.act(appId, "old-timer", now, "activate", ids["weekly-sharpshooter"]);
      await restarted.challenges.list(appId, "old-timer", now, { filter: "all" });
      const held = (key: string, s: string, delta: number) => ({ object: "challenge", id: ids[key], state: s, delta });
      // One message: what it held (sharpshooter unlocked, +1) and the activation's move (unlocked -1, in progress +1),
      // summed.
      expect(sent(restarted.background)).toEqual([
        [
          held("daily-matches", "in-progress", 1),
          held("daily-coins", "in-progress", 1),
          held("weekly-raider", "in-progress", 1),
          held("weekly-sharpshooter", "in-progress", 1),
        ],
      ]);
    });
  });
});

/** The challenge area of a user's object, as after a restart, sending what it stages to a capturing queue. */
function restartedChallenges(storage: DurableObjectStorage) {
  const background = capturingQueue<BackgroundMessage>();
  const queues = { ...env, BACKGROUND: background.queue, WEBHOOKS: capturingQueue().queue } as Env;
  return { challenges: challengesOf(storage, queues), background: background.sent };
}
