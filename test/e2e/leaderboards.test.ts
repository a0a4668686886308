import { EventsApi, LeaderboardsApi } from "@scillgame/scill-js";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, eventually, http, newStudioApp, sdkConfiguration } from "./support";

/** As a studio points the SCILL SDK at this service: the SDK's set-up with our base URL. */
const leaderboardsApi = (credential: string) => new LeaderboardsApi(sdkConfiguration(credential));
const eventsApi = (credential: string) => new EventsApi(sdkConfiguration(credential));

const rows = (list: { member_id?: string; score?: number; rank?: number }[] | undefined) =>
  (list ?? []).map((r) => [r.member_id, r.score, r.rank]);

describe("leaderboards, as a studio uses them", () => {
  it("events sent through the SDK move members on the board read with the SDK", async () => {
    const studio = await newStudioApp("Leaderboard studio");
    const created = await http("POST", `/api/v1/admin/apps/${studio.appId}/leaderboards`, {
      token: ADMIN_TOKEN,
      body: {
        name: { en: "Top scores", de: "Bestenliste" },
        event_name: "achieve-score",
        value_field: "score",
        aggregation: "sum",
      },
    });
    expect(created.status).toBe(201);
    const boardId: string = created.body.leaderboard_id;

    const annToken = await studio.tokenFor("ann");
    expect(
      await http("PUT", "/api/v1/user-additional-info", {
        token: annToken,
        body: { username: "Ann", avatarImage: "ann.png" },
      }),
    ).toMatchObject({ status: 200 });
    const backend = eventsApi(studio.apiKey);
    const score = (user_id: string, value: number, team_id?: string) =>
      backend.sendEvent({
        user_id,
        team_id,
        session_id: "match-1",
        event_name: "achieve-score",
        event_type: "single",
        meta_data: { score: value },
      });
    await score("bob", 30, "blue");
    await score("ann", 20, "red");
    await score("cid", 10, "red");

    const api = leaderboardsApi(annToken);
    const first = await eventually(
      async () => {
        const board = await api.getLeaderboard(boardId, 1, 25, "de");
        return board.grouped_by_users?.length === 3 ? board : undefined;
      },
      20_000,
      "three members on the board",
    );
    expect(first).toMatchObject({ leaderboard_id: boardId, name: "Bestenliste", num_users: 3, num_teams: 2 });
    expect(rows(first.grouped_by_users)).toEqual([
      ["bob", 30, 1],
      ["ann", 20, 2],
      ["cid", 10, 3],
    ]);
    expect(first.grouped_by_users![1].additional_info).toEqual({ username: "Ann", avatarImage: "ann.png" });
    // A tie: both teams share rank 1, listed by team id.
    expect(rows(first.grouped_by_teams)).toEqual([
      ["blue", 30, 1],
      ["red", 30, 1],
    ]);

    // Ann's own events (with her access token) move her past Bob.
    await eventsApi(annToken).sendEvent({
      session_id: "match-2",
      event_name: "achieve-score",
      meta_data: { score: 15 },
    });
    const moved = await eventually(
      async () => {
        const ranking = await api.getLeaderboardRanking("user", "ann", boardId);
        return ranking.member?.score === 35 ? ranking : undefined;
      },
      20_000,
      "ann's new score",
    );
    expect(moved).toEqual({
      leaderboard_id: boardId,
      name: "Top scores",
      member: {
        member_id: "ann",
        member_type: "user",
        score: 35,
        rank: 1,
        additional_info: { username: "Ann", avatarImage: "ann.png" },
      },
    });
    expect(rows((await api.getLeaderboard(boardId, 2, 2)).grouped_by_users)).toEqual([["cid", 10, 3]]);

    const rankings = await leaderboardsApi(studio.apiKey).getLeaderboardRankings("user", "bob");
    expect(rankings).toEqual([
      expect.objectContaining({
        leaderboard_id: boardId,
        member: expect.objectContaining({ member_id: "bob", score: 30, rank: 2 }),
      }),
    ]);
    const nobody = await api.getLeaderboardRanking("user", "zed", boardId);
    expect(nobody.member).toMatchObject({ member_id: "zed", score: 0, rank: -1 });
    const all = await api.getLeaderboards(1, 1);
    expect(all).toEqual([
      expect.objectContaining({
        leaderboard_id: boardId,
        grouped_by_users: [expect.objectContaining({ member_id: "ann", rank: 1 })],
      }),
    ]);
  });

  it("refuses bad pages and unknown boards the way the SDK reports failures", async () => {
    const studio = await newStudioApp("Leaderboard errors");
    const api = leaderboardsApi(studio.apiKey);
    await expect(api.getLeaderboard("999999")).rejects.toMatchObject({ status: 404 });
    const created = await http("POST", `/api/v1/admin/apps/${studio.appId}/leaderboards`, {
      token: ADMIN_TOKEN,
      body: { name: "B", event_name: "achieve-score" },
    });
    await expect(api.getLeaderboard(created.body.leaderboard_id, 0)).rejects.toMatchObject({ status: 400 });
    await expect(api.getLeaderboard(created.body.leaderboard_id, 1, 101)).rejects.toMatchObject({ status: 400 });
    expect(await api.getLeaderboard(created.body.leaderboard_id, 5)).toMatchObject({
      grouped_by_users: [],
      grouped_by_teams: [],
    });
  });
});
