import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp } from "../helpers";
import { createBoard, deliver, get, score, triples } from "./support";

/**
 * What SCILL's Unity SDK sends for leaderboards (sdk-clients.md, "Paths the SDKs call"):
 * `/api/v1/leaderboards-reset/...` with ApiVersion v1, and every board listed with
 * `currentPosition` equal to `pageSize` (csharp-sdk/src/SCILL/Api/LeaderboardsApi.cs:585).
 */

let app: Awaited<ReturnType<typeof createTestApp>>;
let boardId: string;

beforeAll(async () => {
  app = await createTestApp("Unity boards");
  boardId = (await createBoard(app.appId, {})).leaderboard_id;
  await deliver(app.appId, [score("ann", 50), score("bob", 40), score("cid", 30), score("dan", 20), score("eve", 10)]);
});

const users = (body: any[]) =>
  body.map((board) => board.leaderboard_results_by_member_type.user.members.map((m: any) => m.member_id));

describe("Unity's list of every board", () => {
  it("starts at rank 1 when currentPosition equals pageSize alongside currentPage", async () => {
    const r = await get(app.apiKey, "/api/v2/leaderboards?currentPage=1&pageSize=2&currentPosition=2");
    expect(r.status).toBe(200);
    expect(users(r.body)).toEqual([["ann", "bob"]]);
    expect(
      users((await get(app.apiKey, "/api/v2/leaderboards?currentPage=2&pageSize=2&currentPosition=2")).body),
    ).toEqual([["cid", "dan"]]);
  });

  it("keeps a position that is asked for: alone, or different from the page size", async () => {
    expect(users((await get(app.apiKey, "/api/v2/leaderboards?pageSize=2&currentPosition=2")).body)).toEqual([
      ["bob", "cid"],
    ]);
    expect(
      users((await get(app.apiKey, "/api/v2/leaderboards?currentPage=1&pageSize=2&currentPosition=3")).body),
    ).toEqual([["cid", "dan"]]);
    // One board: Unity sends the caller's own position there (LeaderboardsApi.cs:532).
    const one = await get(app.apiKey, `/api/v2/leaderboards/${boardId}?currentPage=1&pageSize=2&currentPosition=2`);
    expect(one.body.leaderboard_results_by_member_type.user.members.map((m: any) => m.member_id)).toEqual([
      "bob",
      "cid",
    ]);
  });
});

describe("Unity's reset with ApiVersion v1", () => {
  it("resets at /api/v1/leaderboards-reset as at the v2 path", async () => {
    const local = await createTestApp("Unity reset");
    const board = (await createBoard(local.appId, {})).leaderboard_id;
    await deliver(local.appId, [score("ann", 5)]);
    expect(
      (await call("DELETE", `/api/v1/leaderboards-reset/${local.appId}/999999`, { token: local.apiKey })).status,
    ).toBe(404);
    const r = await call("DELETE", `/api/v1/leaderboards-reset/${local.appId}/${board}`, {
      token: local.apiKey,
      headers: { "Content-Type": "application/json" },
    });
    expect(r).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    expect(triples((await get(local.apiKey, `/api/v1/leaderboards/${board}`)).body.grouped_by_users)).toEqual([]);
    expect(
      (
        await call("DELETE", `/api/v1/leaderboards-reset/${local.appId}/${board}`, {
          token: await local.tokenFor("ann"),
        })
      ).status,
    ).toBe(401);
  });
});
