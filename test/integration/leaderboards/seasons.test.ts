import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../../src/cron";
import { getNow } from "../../../src/shared/clock";
import { advanceClock, createTestApp } from "../helpers";
import { admin, createBoard, deliver, get, score, triples } from "./support";

const rowsOf = async (boardId: string) => {
  const scores = await env.DB.prepare("SELECT COUNT(*) AS n FROM leaderboard_scores WHERE leaderboard_id = ?")
    .bind(Number(boardId))
    .first<{ n: number }>();
  const counts = await env.DB.prepare("SELECT COUNT(*) AS n FROM leaderboard_rank_counts WHERE leaderboard_id = ?")
    .bind(Number(boardId))
    .first<{ n: number }>();
  return { scores: scores!.n, counts: counts!.n };
};

describe("scheduled seasons", () => {
  it("starts an empty season at the reset time, counts late events in their own season, and cron removes the old rows", async () => {
    const app = await createTestApp("Daily");
    const board = await createBoard(app.appId, {
      period_range: "d",
      period_range_reset_at_time: "06:30:00",
      period_range_time_zone: "Europe/Berlin",
    });
    const boardId = board.leaderboard_id;
    const firstReset = Date.parse(board.nextReset!);
    // 06:30 in Berlin is 04:30 or 05:30 UTC, depending on daylight saving time.
    expect(new Date(firstReset).getUTCHours() * 60 + new Date(firstReset).getUTCMinutes()).toBeOneOf([270, 330]);
    expect(firstReset).toBeGreaterThan(await getNow(env));

    await deliver(app.appId, [score("ann", 5), score("bob", 3)]);
    const read = await get(app.apiKey, `/api/v1/leaderboards/${boardId}`);
    expect(read.body).toMatchObject({ nextReset: board.nextReset, num_users: 2 });

    await advanceClock(Math.ceil((firstReset - (await getNow(env))) / 1000) + 1);
    const after = await get(app.apiKey, `/api/v1/leaderboards/${boardId}`);
    expect(after.body).toMatchObject({ grouped_by_users: [], num_users: 0 });
    const secondReset = Date.parse(after.body.nextReset);
    expect(secondReset - firstReset).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(secondReset - firstReset).toBeLessThanOrEqual(25 * 3600_000);
    expect((await get(app.apiKey, `/api/v1/leaderboards-members/user/ann/${boardId}`)).body.member).toMatchObject({
      score: 0,
      rank: -1,
    });

    // Received before the reset, applied after it: counts in the season it was received in.
    await deliver(app.appId, [score("ann", 100, { at: firstReset - 1 }), score("cid", 7)]);
    expect(triples((await get(app.apiKey, `/api/v1/leaderboards/${boardId}`)).body.grouped_by_users)).toEqual([
      ["cid", 7, 1],
    ]);

    expect(await rowsOf(boardId)).toMatchObject({ scores: 3 });
    await runScheduled(env, await getNow(env));
    const left = await rowsOf(boardId);
    expect(left.scores).toBe(1);
    expect(left.counts).toBe(7); // one node per level for the one member left
    expect(triples((await get(app.apiKey, `/api/v1/leaderboards/${boardId}`)).body.grouped_by_users)).toEqual([
      ["cid", 7, 1],
    ]);
  });

  it("weekly boards reset on Monday and monthly boards on the 1st", async () => {
    const app = await createTestApp("Weekly");
    const weekly = await createBoard(app.appId, { period_range: "w", period_range_time_zone: "UTC" });
    const monthly = await createBoard(app.appId, { period_range: "m", period_range_reset_at_time: "12:00:00" });
    expect(new Date(weekly.nextReset!).getUTCDay()).toBe(1);
    expect(weekly.nextReset!.slice(10)).toBe("T00:00:00.000Z");
    expect(monthly.nextReset!.slice(7)).toBe("-01T12:00:00.000Z");
    const never = await createBoard(app.appId, { period_range: "never" });
    expect(never.nextReset).toBeNull();
    expect((await get(app.apiKey, `/api/v1/leaderboards/${never.leaderboard_id}`)).body).not.toHaveProperty(
      "nextReset",
    );
  });

  it("cron removes the rows of deleted boards", async () => {
    const app = await createTestApp("Deleted");
    const board = await createBoard(app.appId, {});
    await deliver(app.appId, [score("ann", 5), score("bob", 3, { team: "red" })]);
    expect((await rowsOf(board.leaderboard_id)).scores).toBe(3);
    expect((await admin("DELETE", `/apps/${app.appId}/leaderboards/${board.leaderboard_id}`)).status).toBe(204);
    expect((await get(app.apiKey, `/api/v1/leaderboards/${board.leaderboard_id}`)).status).toBe(404);
    await runScheduled(env, await getNow(env));
    expect(await rowsOf(board.leaderboard_id)).toEqual({ scores: 0, counts: 0 });
  });
});

describe("replay claims", () => {
  it("are forgotten by cron after 24 hours", async () => {
    const app = await createTestApp("Claims");
    await createBoard(app.appId, {});
    const [id] = await deliver(app.appId, [score("ann", 1)]);
    const claims = async () =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM leaderboard_applied_events WHERE dedup_key = ?")
        .bind(`m:${id}`)
        .first<{ n: number }>())!.n;
    expect(await claims()).toBe(1);
    await runScheduled(env, (await getNow(env)) + 23 * 3600_000);
    expect(await claims()).toBe(1);
    await runScheduled(env, (await getNow(env)) + 25 * 3600_000);
    expect(await claims()).toBe(0);
  });
});

describe("changing a board", () => {
  it("a new sort order or schedule starts a new season; other changes keep the scores", async () => {
    const app = await createTestApp("Changes");
    const created = await createBoard(app.appId, { name: "A" });
    const id = created.leaderboard_id;
    await deliver(app.appId, [score("ann", 5), score("bob", 3)]);
    const put = (body: Record<string, unknown>) =>
      admin("PUT", `/apps/${app.appId}/leaderboards/${id}`, {
        name: "A",
        event_name: "achieve-score",
        value_field: "score",
        ...body,
      });

    expect((await put({ name: "B", aggregation: "max" })).status).toBe(200);
    expect((await get(app.apiKey, `/api/v1/leaderboards/${id}`)).body).toMatchObject({ name: "B", num_users: 2 });

    await advanceClock(5);
    const flipped = await put({ sort_order_ascending: true });
    expect(Date.parse(flipped.body.season_started_at)).toBeGreaterThan(Date.parse(created.season_started_at));
    expect((await get(app.apiKey, `/api/v1/leaderboards/${id}`)).body).toMatchObject({ num_users: 0 });
    await deliver(app.appId, [score("ann", 5), score("bob", 3)]);
    expect(triples((await get(app.apiKey, `/api/v1/leaderboards/${id}`)).body.grouped_by_users)).toEqual([
      ["bob", 3, 1],
      ["ann", 5, 2],
    ]);
  });
});
