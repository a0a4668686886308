import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createTestApp, sendEvent } from "../helpers";
import { admin, createLeague, endSeason, isMember, joinInOrder, resultsOf } from "./support";

describe("leagues: fair play and privacy", () => {
  it("authoritative leagues count the backend's events; out-of-range values are dropped and counted", async () => {
    const app = await createTestApp("Leagues bounds");
    const league = await createLeague(app.appId, { authoritative: true, min_value: 1, max_value: 100 });
    const token = await app.tokenFor("client");
    const fromClient = await call("POST", "/api/v1/events", {
      token,
      body: { user_id: "client", event_name: "earn-xp", meta_data: { xp: 5 } },
    });
    expect(fromClient.status).toBe(200);
    await sendEvent(app.apiKey, "b1", "earn-xp", { xp: 500 });
    await sendEvent(app.apiKey, "b1", "earn-xp", { xp: 0 });
    await joinInOrder(app.apiKey, league.league_id, ["b1"], () => 40);
    expect(await isMember(league.league_id, "client")).toBe(false);
    const state = await admin("GET", `/apps/${app.appId}/users/b1`);
    expect(state.body.leagues).toEqual({
      memberships: [{ league_id: league.league_id, season_id: expect.any(String), score: 40, dropped_values: 2 }],
      claims: [],
    });
  });

  it("a banned player is hidden from standings and takes no result; an erased player leaves the cohort and ranks close up", async () => {
    const app = await createTestApp("Leagues fair play");
    const league = await createLeague(app.appId);
    await joinInOrder(app.apiKey, league.league_id, ["f1", "f2", "f3"], (i) => 10 * (i + 1));
    const standings = async () => {
      const r = await call("GET", `/api/v1/leagues/${app.appId}/${league.league_id}?user_id=f1`, { token: app.apiKey });
      expect(r.status).toBe(200);
      return (r.body.cohort.members as { member_id: string; rank: number; zone: string }[]).map((m) => [
        m.member_id,
        m.rank,
        m.zone,
      ]);
    };
    expect(await standings()).toEqual([
      ["f3", 1, "promotion"],
      ["f2", 2, "safe"],
      ["f1", 3, "safe"],
    ]);
    const ban = await admin("POST", `/apps/${app.appId}/users/f3/ban`, { reason: "cheating" });
    expect(ban.status).toBe(200);
    expect(await standings()).toEqual([
      ["f2", 1, "promotion"],
      ["f1", 2, "safe"],
    ]);
    const exported = await admin("GET", `/apps/${app.appId}/users/f2/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.league_seasons).toEqual([
      {
        league_id: league.league_id,
        season_id: expect.any(String),
        cohort_id: expect.any(String),
        tier_index: 0,
        score: 20,
        result: null,
      },
    ]);

    const erased = await admin("DELETE", `/apps/${app.appId}/users/f2`);
    expect(erased.status).toBe(202);
    await expect
      .poll(async () => (await admin("GET", `/apps/${app.appId}/erasures/${erased.body.erasure_id}`)).body.status)
      .toBe("completed");
    // One visible member: nobody moves (a cohort of 1 promotes none).
    expect(await standings()).toEqual([["f1", 1, "safe"]]);
    const cohort = await env.DB.prepare("SELECT members, closed FROM league_cohorts WHERE league_id = ?")
      .bind(Number(league.league_id))
      .first();
    expect(cohort).toEqual({ members: 2, closed: 1 });

    const season = await endSeason(league.league_id, app.apiKey, "f1");
    expect(await resultsOf(league.league_id, season)).toEqual([[["f1", "bronze", 1, "stayed", "bronze"]]]);
  });
});
