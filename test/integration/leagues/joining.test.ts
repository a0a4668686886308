import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createTestApp, sendEvent } from "../helpers";
import { cohortsOf, createLeague, joinInOrder } from "./support";

describe("leagues: joining and scores", () => {
  it("fills cohorts of 3, 3 and 1 in arrival order; scores follow the aggregation with ties by who reached first", async () => {
    const app = await createTestApp("Leagues joining");
    const league = await createLeague(app.appId);
    const players = ["j1", "j2", "j3", "j4", "j5", "j6", "j7"];
    await joinInOrder(app.apiKey, league.league_id, players, (i) => 10 + i);
    expect(await cohortsOf(league.league_id)).toEqual([
      { tier: 0, cohort_no: 1, members: 3, closed: 1, users: ["j1", "j2", "j3"] },
      { tier: 0, cohort_no: 2, members: 3, closed: 1, users: ["j4", "j5", "j6"] },
      { tier: 0, cohort_no: 3, members: 1, closed: 0, users: ["j7"] },
    ]);

    // Sums: j1 10 + 5 = 15; j2 11 + 4 = 15 reached later, so j1 ranks first.
    await sendEvent(app.apiKey, "j1", "earn-xp", { xp: 5 });
    await sendEvent(app.apiKey, "j2", "earn-xp", { xp: 4 });
    const scores = () =>
      env.DB.prepare(
        "SELECT user_id, score FROM league_members WHERE league_id = ? AND user_id IN ('j1', 'j2') ORDER BY user_id",
      )
        .bind(Number(league.league_id))
        .all<{ user_id: string; score: number }>()
        .then((r) => r.results);
    await expect.poll(scores).toEqual([
      { user_id: "j1", score: 15 },
      { user_id: "j2", score: 15 },
    ]);
    // An event of another name, or outside the bounds, does not count.
    await sendEvent(app.apiKey, "j3", "other", { xp: 100 });
  });
});
