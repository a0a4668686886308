import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp } from "../helpers";
import { createBoard, deliver, get, score, triples } from "./support";

let app: Awaited<ReturnType<typeof createTestApp>>;
let token: string;
let boardId: string;
let otherBoardId: string;

beforeAll(async () => {
  app = await createTestApp("Reads");
  token = await app.tokenFor("ann");
  await call("PUT", "/api/v1/user-additional-info", { token, body: { username: "Ann", avatarImage: "ann.png" } });
  boardId = (await createBoard(app.appId, { name: { en: "Hall of Fame", de: "Ruhmeshalle" } })).leaderboard_id;
  otherBoardId = (
    await createBoard(app.appId, {
      name: "Speedrun",
      event_name: "finish-laps",
      value_field: "required_time",
      aggregation: "min",
      sort_order_ascending: true,
    })
  ).leaderboard_id;
  await deliver(app.appId, [score("ann", 30, { team: "red" }), score("bob", 20, { team: "blue" }), score("cid", 10)]);
});

const ANN = {
  member_id: "ann",
  member_type: "user",
  score: 30,
  rank: 1,
  additional_info: { username: "Ann", avatarImage: "ann.png" },
};
const NO_INFO = { username: null, avatarImage: null };

describe("one leaderboard (v1)", () => {
  it("answers the spec's Leaderboard with an access token or an API key", async () => {
    for (const credential of [token, app.apiKey]) {
      const r = await get(credential, `/api/v1/leaderboards/${boardId}?language=de`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        leaderboard_id: boardId,
        name: "Ruhmeshalle",
        grouped_by_users: [
          ANN,
          { member_id: "bob", member_type: "user", score: 20, rank: 2, additional_info: NO_INFO },
          { member_id: "cid", member_type: "user", score: 10, rank: 3, additional_info: NO_INFO },
        ],
        grouped_by_teams: [
          { member_id: "red", member_type: "team", score: 30, rank: 1, additional_info: NO_INFO },
          { member_id: "blue", member_type: "team", score: 20, rank: 2, additional_info: NO_INFO },
        ],
        num_users: 3,
        num_teams: 2,
      });
    }
    expect((await get(token, `/api/v1/leaderboards/${boardId}?language=fr`)).body.name).toBe("Hall of Fame");
  });

  it("pages from 1: page 0 and pageSize 101 are refused, a page past the end is empty", async () => {
    const page = (q: string) => get(token, `/api/v1/leaderboards/${boardId}?${q}`);
    expect(triples((await page("currentPage=2&pageSize=2")).body.grouped_by_users)).toEqual([["cid", 10, 3]]);
    expect((await page("currentPage=3&pageSize=2")).body).toMatchObject({
      grouped_by_users: [],
      grouped_by_teams: [],
      num_users: 3,
    });
    expect((await page("pageSize=100")).status).toBe(200);
    for (const q of [
      "currentPage=0",
      "pageSize=101",
      "pageSize=0",
      "currentPage=-1",
      "currentPage=abc",
      "pageSize=2.5",
    ]) {
      const r = await page(q);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        status: 400,
        errors: [expect.objectContaining({ field: expect.stringMatching(/currentPage|pageSize/) })],
      });
    }
  });

  it("answers 404 for unknown boards, boards of another app, and a credential's wrong app", async () => {
    for (const id of ["424242", "abc", "0"]) {
      expect(await get(token, `/api/v1/leaderboards/${id}`)).toMatchObject({
        status: 404,
        body: { status: 404, message: `Leaderboard ${id} not found` },
      });
    }
    const other = await createTestApp("Other reads");
    expect((await get(other.apiKey, `/api/v1/leaderboards/${boardId}`)).status).toBe(404);
    expect(await get(other.apiKey, "/api/v1/leaderboards")).toMatchObject({ status: 200, body: [] });
  });

  it("needs a credential", async () => {
    expect((await call("GET", `/api/v1/leaderboards/${boardId}`)).status).toBe(401);
    expect((await get("not-a-key", `/api/v1/leaderboards/${boardId}`)).status).toBe(401);
  });
});

describe("all leaderboards and member rankings", () => {
  it("lists every board of the app with the same page of rows", async () => {
    const r = await get(app.apiKey, "/api/v1/leaderboards?pageSize=1");
    expect(r.body.map((b: { leaderboard_id: string }) => b.leaderboard_id)).toEqual([boardId, otherBoardId]);
    expect(triples(r.body[0].grouped_by_users)).toEqual([["ann", 30, 1]]);
    expect(r.body[1]).toMatchObject({ name: "Speedrun", grouped_by_users: [], num_users: 0 });
  });

  it("answers a member's ranking on each board; without a score: score 0 and rank -1", async () => {
    const all = await get(token, "/api/v1/leaderboards-members/user/ann");
    expect(all.body).toEqual([
      { leaderboard_id: boardId, name: "Hall of Fame", member: ANN },
      { leaderboard_id: otherBoardId, name: "Speedrun", member: { ...ANN, score: 0, rank: -1 } },
    ]);
    const one = await get(token, `/api/v1/leaderboards-members/team/blue/${boardId}`);
    expect(one.body).toEqual({
      leaderboard_id: boardId,
      name: "Hall of Fame",
      member: { member_id: "blue", member_type: "team", score: 20, rank: 2, additional_info: NO_INFO },
    });
    // Without a score on the board, a user still has their info.
    const unscored = await get(token, `/api/v1/leaderboards-members/user/ann/${otherBoardId}`);
    expect(unscored.body).toEqual({
      leaderboard_id: otherBoardId,
      name: "Speedrun",
      member: { ...ANN, score: 0, rank: -1 },
    });
    const nobody = await get(token, `/api/v1/leaderboards-members/user/zed/${boardId}`);
    expect(nobody).toMatchObject({
      status: 200,
      body: { member: { member_id: "zed", member_type: "user", score: 0, rank: -1, additional_info: NO_INFO } },
    });
  });

  it("refuses an unknown member type and answers 404 for an unknown board", async () => {
    expect(await get(token, `/api/v1/leaderboards-members/clan/ann/${boardId}`)).toMatchObject({
      status: 400,
      body: { errors: [{ field: "memberType" }] },
    });
    expect((await get(token, "/api/v1/leaderboards-members/user/ann/999999")).status).toBe(404);
  });
});

describe("SCILL v2 shapes", () => {
  it("serves LeaderboardV2Results, with currentPosition overriding currentPage", async () => {
    const r = await get(
      token,
      `/api/v2/leaderboards/${boardId}?pageSize=2&currentPage=5&currentPosition=2&aggregate=BEST&startDate=2020-01-01T00:00:00Z`,
    );
    expect(r.body).toEqual({
      leaderboard_id: boardId,
      leaderboard_name: "Hall of Fame",
      leaderboard_sort_order_ascending: false,
      leaderboard_results_by_member_type: {
        user: {
          count: 3,
          members: [
            {
              member_id: "bob",
              member_type: "user",
              score: 20,
              rank: 2,
              metadata_results: [],
              additional_info: NO_INFO,
            },
            {
              member_id: "cid",
              member_type: "user",
              score: 10,
              rank: 3,
              metadata_results: [],
              additional_info: NO_INFO,
            },
          ],
        },
        team: {
          count: 2,
          members: [
            {
              member_id: "blue",
              member_type: "team",
              score: 20,
              rank: 2,
              metadata_results: [],
              additional_info: NO_INFO,
            },
          ],
        },
      },
    });
    expect((await get(token, `/api/v2/leaderboards/${boardId}?currentPosition=0`)).status).toBe(400);
    const all = await get(token, "/api/v2/leaderboards");
    expect(all.body).toHaveLength(2);
  });

  it("serves LeaderboardV2MemberRanking", async () => {
    const one = await get(token, `/api/v2/leaderboards-members/user/ann/${boardId}`);
    expect(one.body).toEqual({
      leaderboard_id: boardId,
      leaderboard_name: "Hall of Fame",
      leaderboard_sort_order_ascending: false,
      leaderboard_member: { ...ANN, metadata_results: [] },
    });
    const all = await get(token, "/api/v2/leaderboards-members/user/ann");
    expect(all.body[1]).toMatchObject({
      leaderboard_id: otherBoardId,
      leaderboard_sort_order_ascending: true,
      leaderboard_member: { score: 0, rank: -1 },
    });
  });
});

describe("a member's neighbourhood", () => {
  it("answers the rows around the member, and only the member's row without a score", async () => {
    const r = await get(token, `/api/v1/leaderboards/${boardId}/around/user/bob?range=1`);
    expect(r.body.member).toMatchObject({ member_id: "bob", rank: 2 });
    expect(triples(r.body.members)).toEqual([
      ["ann", 30, 1],
      ["bob", 20, 2],
      ["cid", 10, 3],
    ]);
    const v2 = await get(token, `/api/v2/leaderboards/${boardId}/around/team/red?range=5`);
    expect(v2.body).toMatchObject({
      leaderboard_member: { member_id: "red", rank: 1 },
      members: [{ member_id: "red" }, { member_id: "blue" }],
    });
    const nobody = await get(token, `/api/v1/leaderboards/${boardId}/around/user/zed`);
    expect(nobody.body).toMatchObject({ member: { score: 0, rank: -1 }, members: [] });
    expect((await get(token, `/api/v1/leaderboards/${boardId}/around/user/bob?range=51`)).status).toBe(400);
  });
});

describe("SCILL's resets", () => {
  it("resets one member on every board with an API key only", async () => {
    const local = await createTestApp("Member reset");
    const a = (await createBoard(local.appId, {})).leaderboard_id;
    const b = (await createBoard(local.appId, { aggregation: "max" })).leaderboard_id;
    await deliver(local.appId, [score("ann", 5), score("bob", 3), score("cid", 3)]);
    const userToken = await local.tokenFor("ann");
    expect(
      (await call("DELETE", `/api/v1/reset-leaderboard/user/${local.appId}/ann`, { token: userToken })).status,
    ).toBe(401);
    expect(
      (await call("DELETE", `/api/v1/reset-leaderboard/user/${app.appId}/ann`, { token: local.apiKey })).status,
    ).toBe(404);
    const r = await call("DELETE", `/api/v1/reset-leaderboard/user/${local.appId}/ann`, { token: local.apiKey });
    expect(r).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    for (const id of [a, b]) {
      expect(triples((await get(local.apiKey, `/api/v1/leaderboards/${id}`)).body.grouped_by_users)).toEqual([
        ["bob", 3, 1],
        ["cid", 3, 1],
      ]);
    }
    await deliver(local.appId, [score("ann", 1)]);
    expect((await get(local.apiKey, `/api/v1/leaderboards-members/user/ann/${a}`)).body.member).toMatchObject({
      score: 1,
      rank: 3,
    });
  });

  it("resets a whole board: a new empty season starts at once", async () => {
    const local = await createTestApp("Board reset");
    const board = (await createBoard(local.appId, {})).leaderboard_id;
    await deliver(local.appId, [score("ann", 5)]);
    expect(
      (await call("DELETE", `/api/v2/leaderboards-reset/${local.appId}/999999`, { token: local.apiKey })).status,
    ).toBe(404);
    const r = await call("DELETE", `/api/v2/leaderboards-reset/${local.appId}/${board}`, { token: local.apiKey });
    expect(r).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    expect((await get(local.apiKey, `/api/v1/leaderboards/${board}`)).body).toMatchObject({
      grouped_by_users: [],
      num_users: 0,
    });
    await deliver(local.appId, [score("bob", 2)]);
    expect(triples((await get(local.apiKey, `/api/v1/leaderboards/${board}`)).body.grouped_by_users)).toEqual([
      ["bob", 2, 1],
    ]);
  });
});

describe("the OpenAPI document", () => {
  it("lists the leaderboard paths and documents the row of a member without a score", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    for (const path of [
      "/api/v1/leaderboards/{leaderboardId}",
      "/api/v1/leaderboards",
      "/api/v1/leaderboards-members/{memberType}/{memberId}",
      "/api/v1/leaderboards-members/{memberType}/{memberId}/{leaderboardId}",
      "/api/v2/leaderboards/{leaderboardId}",
      "/api/v2/leaderboards-members/{memberType}/{memberId}/{leaderboardId}",
      "/api/v1/leaderboards/{leaderboardId}/around/{memberType}/{memberId}",
      "/api/v2/leaderboards-reset/{appId}/{leaderboardId}",
      "/api/v1/reset-leaderboard/{memberType}/{appId}/{memberId}",
      "/api/v1/admin/apps/{appId}/leaderboards/{leaderboardId}",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const description =
      doc.paths["/api/v1/leaderboards-members/{memberType}/{memberId}/{leaderboardId}"].get.description;
    expect(description).toContain("score 0 and rank -1");
    expect(doc.components.schemas.LeaderboardRanking.description).toContain("1, 1, 3");
  });
});
