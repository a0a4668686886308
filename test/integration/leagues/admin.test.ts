import { describe, expect, it } from "vitest";
import { createTestApp } from "../helpers";
import { applied, exportCatalog, planCatalog } from "../catalog/support";
import { admin, createLeague, leagueBody, THREE_TIERS } from "./support";

describe("leagues: configuration", () => {
  it("creates, lists, replaces and deletes a league", async () => {
    const app = await createTestApp("Leagues config");
    const created = await createLeague(app.appId, { filters: [{ field: "mode", op: "eq", value: "ranked" }] });
    expect(created).toMatchObject({
      app_id: app.appId,
      key: "weekly",
      name: { en: "Weekly league", de: "Wochenliga" },
      event_name: "earn-xp",
      filters: [{ field: "mode", op: "eq", value: "ranked" }],
      value_field: "xp",
      aggregation: "sum",
      tiers: THREE_TIERS,
      cohort_size: 3,
      promote: 1,
      demote: 1,
      schedule: { period: "weekly", reset_at_time: "00:00:00", time_zone: "UTC" },
      rewards: [],
      authoritative: false,
      min_value: null,
      max_value: null,
    });
    const list = await admin("GET", `/apps/${app.appId}/leagues`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.items.map((l: { key: string }) => l.key)).toEqual(["weekly"]);

    const replaced = await admin(
      "PUT",
      `/apps/${app.appId}/leagues/${created.league_id}`,
      leagueBody({ cohort_size: 30, promote: 5, demote: 4, aggregation: "max" }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ cohort_size: 30, promote: 5, demote: 4, aggregation: "max", filters: [] });
    expect((await admin("GET", `/apps/${app.appId}/leagues/${created.league_id}`)).body.cohort_size).toBe(30);

    const clash = await admin("POST", `/apps/${app.appId}/leagues`, leagueBody());
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual([{ field: "key", problem: "League key 'weekly' is already used in this app" }]);

    expect((await admin("DELETE", `/apps/${app.appId}/leagues/${created.league_id}`)).status).toBe(204);
    expect((await admin("GET", `/apps/${app.appId}/leagues/${created.league_id}`)).status).toBe(404);
    expect((await admin("GET", `/apps/${app.appId}/leagues/abc`)).status).toBe(404);
  });

  it("refuses what cannot work, each problem with its field", async () => {
    const app = await createTestApp("Leagues validation");
    const refused = async (fields: Record<string, unknown>) => {
      const r = await admin("POST", `/apps/${app.appId}/leagues`, leagueBody(fields));
      expect(r.status).toBe(400);
      return (r.body.errors as { field: string }[]).map((e) => e.field);
    };
    expect(await refused({ promote: 2, demote: 2 })).toEqual(["demote"]);
    expect(await refused({ cohort_size: 1, promote: 0, demote: 0 })).toEqual(["cohort_size"]);
    expect(await refused({ cohort_size: 101 })).toEqual(["cohort_size"]);
    expect(await refused({ tiers: [] })).toEqual(["tiers"]);
    expect(await refused({ tiers: Array.from({ length: 21 }, (_, i) => ({ key: `t${i}`, name: "T" })) })).toEqual([
      "tiers",
    ]);
    expect(await refused({ tiers: [THREE_TIERS[0], THREE_TIERS[0]] })).toEqual(["tiers.1.key"]);
    expect(await refused({ key: "Weekly League" })).toEqual(["key"]);
    expect(await refused({ aggregation: "min" })).toEqual(["aggregation"]);
    expect(
      await refused({ schedule: { period: "monthly", reset_at_time: "25:00:00", time_zone: "Mars/Olympus" } }),
    ).toEqual(["schedule.period", "schedule.reset_at_time", "schedule.time_zone"]);
    expect(await refused({ min_value: 10, max_value: 5 })).toEqual(["max_value"]);
    expect(await refused({ rewards: [{ tier: "platinum", rank_min: 3, rank_max: 1, points_rewards: [] }] })).toEqual([
      "rewards.0.tier",
      "rewards.0.rank_max",
    ]);
    expect(
      await refused({
        rewards: [{ tier: null, rank_min: 1, rank_max: 1, points_rewards: [{ system: "gems", amount: 5 }] }],
      }),
    ).toEqual(["rewards.0.points_rewards.0.system"]);
  });

  it("catalog as code: exports, plans and applies leagues; a reward naming a missing points system is a problem", async () => {
    const source = await createTestApp("Leagues catalog");
    await createLeague(source.appId, {
      rewards: [{ tier: "gold", rank_min: 1, rank_max: 1, points_rewards: [], reward: "crown" }],
      authoritative: true,
      min_value: 1,
      max_value: 500,
    });
    const exported = await exportCatalog(source.appId);
    expect(exported.leagues).toEqual([
      {
        key: "weekly",
        name: { en: "Weekly league", de: "Wochenliga" },
        event_name: "earn-xp",
        filters: [],
        value_field: "xp",
        aggregation: "sum",
        tiers: THREE_TIERS,
        cohort_size: 3,
        promote: 1,
        demote: 1,
        schedule: { period: "weekly", reset_at_time: "00:00:00", time_zone: "UTC" },
        rewards: [{ tier: "gold", rank_min: 1, rank_max: 1, points_rewards: [], reward: "crown" }],
        authoritative: true,
        min_value: 1,
        max_value: 500,
      },
    ]);
    const copy = await createTestApp("Leagues catalog copy");
    expect((await applied(copy.appId, exported)).summary).toMatchObject({ create: 1, delete: 0, blocked: 0 });
    expect(await exportCatalog(copy.appId)).toEqual(exported);
    expect((await applied(copy.appId, exported)).summary).toMatchObject({ create: 0, update: 0, delete: 0 });

    const withGems = {
      ...exported,
      leagues: [
        {
          ...exported.leagues[0],
          rewards: [
            { tier: null, rank_min: 1, rank_max: 3, points_rewards: [{ system: "gems", amount: 5 }], reward: null },
          ],
        },
      ],
    };
    const plan = await planCatalog(copy.appId, withGems);
    expect(plan.status).toBe(400);
    expect(plan.body.errors).toEqual([
      { field: "leagues.0.rewards.0.points_rewards.0.system", problem: "no points system 'gems' in this app" },
    ]);
  });
});
