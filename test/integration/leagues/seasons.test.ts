import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, call, captureSends, createTestApp, sendEvent } from "../helpers";
import { cohortsOf, createLeague, endSeason, joinInOrder, resultsOf, runCron } from "./support";

const webhooksOf = (appId: string) => {
  const sent = captureSends(env.WEBHOOKS, (m: { webhookType: string; body: string }) => ({
    type: m.webhookType,
    payload: JSON.parse(m.body),
  }));
  return () => sent.filter((w) => w.payload.app_id === appId);
};

async function addWebhook(appId: string, webhookType: string) {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/webhooks`, {
    token: ADMIN,
    body: { webhook_type: webhookType, url: "http://127.0.0.1:9/hook", secret_key: "test-secret-1234" },
  });
  if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`);
}

describe("leagues: season ends", () => {
  it("7 players in cohorts of 3, 3 and 1: the first of each full cohort is promoted, the lone player stays, nobody demoted from the lowest tier; one webhook per cohort", async () => {
    const app = await createTestApp("Leagues seven");
    const league = await createLeague(app.appId);
    await addWebhook(app.appId, "league-season-ended");
    await addWebhook(app.appId, "league-standings-changed");
    const sent = webhooksOf(app.appId);
    const players = ["s1", "s2", "s3", "s4", "s5", "s6", "s7"];
    // Scores 10..16: the last of each full cohort scores highest.
    await joinInOrder(app.apiKey, league.league_id, players, (i) => 10 + i);
    // One standings change per arrival, for the arrival's cohort.
    const standings = sent().filter((w) => w.type === "league-standings-changed");
    expect(standings.map((w) => w.payload.members.map((m: { member_id: string }) => m.member_id))).toEqual([
      ["s1"],
      ["s2", "s1"],
      ["s3", "s2", "s1"],
      ["s4"],
      ["s5", "s4"],
      ["s6", "s5", "s4"],
      ["s7"],
    ]);
    const season = await endSeason(league.league_id, app.apiKey, "s1");
    expect(await resultsOf(league.league_id, season)).toEqual([
      [
        ["s3", "bronze", 1, "promoted", "silver"],
        ["s2", "bronze", 2, "stayed", "bronze"],
        ["s1", "bronze", 3, "stayed", "bronze"],
      ],
      [
        ["s6", "bronze", 1, "promoted", "silver"],
        ["s5", "bronze", 2, "stayed", "bronze"],
        ["s4", "bronze", 3, "stayed", "bronze"],
      ],
      [["s7", "bronze", 1, "stayed", "bronze"]],
    ]);
    const ended = sent().filter((w) => w.type === "league-season-ended");
    expect(ended.map((w) => w.payload.results.map((r: { member_id: string }) => r.member_id))).toEqual([
      ["s3", "s2", "s1"],
      ["s6", "s5", "s4"],
      ["s7"],
    ]);
    expect(ended[0].payload).toMatchObject({
      webhook_type: "league-season-ended",
      app_id: app.appId,
      league_id: league.league_id,
      season_id: new Date(season).toISOString(),
      tier: "bronze",
    });
    // Another cron run decides nothing again.
    await runCron();
    expect(sent().filter((w) => w.type === "league-season-ended")).toHaveLength(3);
    const row = await env.DB.prepare("SELECT state FROM league_seasons WHERE league_id = ? AND season_start = ?")
      .bind(Number(league.league_id), season)
      .first<{ state: string }>();
    expect(row!.state).toBe("ended");
  });

  it("9 players over two seasons of three tiers: the three promoted meet in one silver cohort, whose last is demoted and first promoted", async () => {
    const app = await createTestApp("Leagues nine");
    const league = await createLeague(app.appId);
    const players = ["n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"];
    // Within each cohort of three the first to arrive scores highest.
    await joinInOrder(app.apiKey, league.league_id, players, (i) => 30 - (i % 3) * 10);
    const first = await endSeason(league.league_id, app.apiKey, "n1");
    expect((await resultsOf(league.league_id, first)).map((c) => c!.map((r) => [r[0], r[3]]))).toEqual([
      [
        ["n1", "promoted"],
        ["n2", "stayed"],
        ["n3", "stayed"],
      ],
      [
        ["n4", "promoted"],
        ["n5", "stayed"],
        ["n6", "stayed"],
      ],
      [
        ["n7", "promoted"],
        ["n8", "stayed"],
        ["n9", "stayed"],
      ],
    ]);

    // Second season: the promoted arrive first (n7, n4, n1), then two of the others.
    const secondPlayers = ["n7", "n4", "n1", "n2", "n5"];
    const current = await call("GET", `/api/v1/leagues/${app.appId}/${league.league_id}?user_id=n1`, {
      token: app.apiKey,
    });
    expect(current.body.tier).toEqual({ key: "silver", name: "Silver", index: 1 });
    const start = Date.parse(current.body.season.starts_at);
    await joinInOrder(app.apiKey, league.league_id, secondPlayers, (i) => [5, 50, 20, 9, 8][i], start);
    const season2 = (await cohortsOf(league.league_id)).slice(3);
    expect(season2).toEqual([
      { tier: 0, cohort_no: 1, members: 2, closed: 0, users: ["n2", "n5"] },
      { tier: 1, cohort_no: 1, members: 3, closed: 1, users: ["n7", "n4", "n1"] },
    ]);
    const second = await endSeason(league.league_id, app.apiKey, "n1");
    expect(await resultsOf(league.league_id, second)).toEqual([
      [
        ["n2", "bronze", 1, "promoted", "silver"],
        ["n5", "bronze", 2, "stayed", "bronze"],
      ],
      [
        ["n4", "silver", 1, "promoted", "gold"],
        ["n1", "silver", 2, "stayed", "silver"],
        ["n7", "silver", 3, "demoted", "bronze"],
      ],
    ]);
  });

  it("a player who does not return has a result and claims it once the next week, with its points", async () => {
    const app = await createTestApp("Leagues claim");
    const coins = await call("POST", `/api/v1/admin/apps/${app.appId}/points-systems`, {
      token: ADMIN,
      body: { key: "coins", name: "Coins", spendable: true },
    });
    expect(coins.status).toBe(201);
    const league = await createLeague(app.appId, {
      rewards: [
        {
          tier: "bronze",
          rank_min: 1,
          rank_max: 1,
          points_rewards: [{ system: "coins", amount: 100 }],
          reward: "chest",
        },
        { tier: null, rank_min: 2, rank_max: 3, points_rewards: [{ system: "coins", amount: 10 }] },
      ],
    });
    await joinInOrder(app.apiKey, league.league_id, ["c1", "c2", "c3"], (i) => 10 - i);
    let token = await app.tokenFor("c1");
    const path = `/api/v1/leagues/${app.appId}/${league.league_id}`;
    const before = await call("GET", path, { token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      league_id: league.league_id,
      name: "Weekly league",
      tier: { key: "bronze", name: "Bronze", index: 0 },
      cohort: {
        size: 3,
        promote: 1,
        demote: 0,
        members: [
          {
            member_id: "c1",
            rank: 1,
            score: 10,
            zone: "promotion",
            additional_info: { username: null, avatarImage: null },
          },
          { member_id: "c2", rank: 2, score: 9, zone: "safe" },
          { member_id: "c3", rank: 3, score: 8, zone: "safe" },
        ],
      },
      last_result: null,
    });
    expect((await call("POST", `${path}/claim`, { token })).status).toBe(404);

    const season = await endSeason(league.league_id, app.apiKey, "c1");
    // c1 never returns in the new season; a week later they look and claim.
    await sendEvent(app.apiKey, "c2", "earn-xp", { xp: 1 });
    token = await app.tokenFor("c1");
    const after = await call("GET", path, { token });
    expect(after.body).toMatchObject({
      tier: { key: "silver", index: 1 },
      cohort: null,
      last_result: {
        member_id: "c1",
        season_id: new Date(season).toISOString(),
        tier: "bronze",
        rank: 1,
        score: 10,
        outcome: "promoted",
        next_tier: "silver",
        rewards: { points_rewards: [{ system: "coins", amount: 100 }], reward: "chest" },
        claimed: false,
      },
    });
    const claim = await call("POST", `${path}/claim`, { token });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ outcome: "promoted", claimed: true });
    const again = await call("POST", `${path}/claim`, { token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`The result of season ${new Date(season).toISOString()} is already claimed`);
    const balance = await call("GET", `/api/v1/points/${app.appId}?user_id=c1`, { token: app.apiKey });
    expect(balance.body.systems).toMatchObject([{ key: "coins", balance: 100 }]);
    expect((await call("GET", path, { token })).body.last_result.claimed).toBe(true);
    // With an API key, the user_id names the player.
    const c2 = await call("POST", `${path}/claim?user_id=c2`, { token: app.apiKey });
    expect(c2.body).toMatchObject({
      rank: 2,
      rewards: { points_rewards: [{ system: "coins", amount: 10 }], reward: null },
    });
    // c3 lets the next season end too: the result can no longer be claimed.
    const next = await endSeason(league.league_id, app.apiKey, "c3");
    const late = await call("POST", `${path}/claim?user_id=c3`, { token: app.apiKey });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(
      `The result of season ${new Date(season).toISOString()} could be claimed until ${new Date(next + 7 * 86_400_000).toISOString()}`,
    );
  });
});
