import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { seedBoard, seededScore } from "../../support/seed-board";
import { createTestApp } from "../helpers";
import { createBoard, deliver, get, score, triples } from "./support";

/**
 * A board of 20 000 members seeded straight into D1 (ties included: 20 000 members share 5 003
 * scores), read through the API and checked row by row against a ranking computed here.
 */
const COUNT = 20_000;
const formula = { multiplier: 7919, modulus: 5003 };

interface Ref {
  id: string;
  score: number;
  rank: number;
}

/** Board order (better score first, then member id) with competition ranks. */
function reference(scores: Map<string, number>, ascending: boolean): Ref[] {
  const rows = [...scores].map(([id, score]) => ({ id, score, rank: 0 }));
  rows.sort((a, b) =>
    a.score !== b.score ? (ascending ? a.score - b.score : b.score - a.score) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  rows.forEach((row, i) => {
    row.rank = i > 0 && rows[i - 1].score === row.score ? rows[i - 1].rank : i + 1;
  });
  return rows;
}

const seededScores = () => new Map(Array.from({ length: COUNT }, (_, k) => [`m${k + 1}`, seededScore(k + 1, formula)]));
const expectedRows = (ref: Ref[], from: number, size: number) =>
  ref.slice(from, from + size).map((r) => [r.id, r.score, r.rank]);

describe.each([
  { ascending: false, label: "descending" },
  { ascending: true, label: "ascending" },
])("a seeded board of 20 000 members ($label)", ({ ascending }) => {
  let app: Awaited<ReturnType<typeof createTestApp>>;
  let boardId: string;
  let scores: Map<string, number>;
  let ref: Ref[];

  beforeAll(async () => {
    app = await createTestApp(`Large ${ascending}`);
    const board = await createBoard(app.appId, { aggregation: "sum", sort_order_ascending: ascending });
    boardId = board.leaderboard_id;
    await seedBoard(env.DB, {
      boardId,
      season: Date.parse(board.season_started_at),
      ascending,
      count: COUNT,
      ...formula,
      chunk: 5000,
    });
    scores = seededScores();
    ref = reference(scores, ascending);
  });

  it("ranks chosen members exactly, ties sharing a rank", async () => {
    const chosen = [ref[0], ref[1], ref[2], ref[4999], ref[5000], ref[12345], ref[COUNT - 2], ref[COUNT - 1]];
    for (const member of chosen) {
      const r = await get(app.apiKey, `/api/v1/leaderboards-members/user/${member.id}/${boardId}`);
      expect(r.body.member).toMatchObject({ member_id: member.id, score: member.score, rank: member.rank });
    }
    // Members of one tie group share its rank.
    const tie = ref.filter((r) => r.score === ref[7000].score);
    expect(tie.length).toBeGreaterThan(1);
    const ranks = await Promise.all(
      tie.map(
        async (m) => (await get(app.apiKey, `/api/v1/leaderboards-members/user/${m.id}/${boardId}`)).body.member.rank,
      ),
    );
    expect(new Set(ranks)).toEqual(new Set([tie[0].rank]));
  });

  it("serves the first, middle and last pages exactly, and nothing past the end", async () => {
    const page = async (currentPage: number, pageSize: number) =>
      triples(
        (await get(app.apiKey, `/api/v1/leaderboards/${boardId}?currentPage=${currentPage}&pageSize=${pageSize}`)).body
          .grouped_by_users,
      );
    expect(await page(1, 25)).toEqual(expectedRows(ref, 0, 25));
    expect(await page(2, 100)).toEqual(expectedRows(ref, 100, 100));
    expect(await page(137, 73)).toEqual(expectedRows(ref, 136 * 73, 73));
    expect(await page(200, 100)).toEqual(expectedRows(ref, 19_900, 100));
    expect(await page(274, 73)).toEqual(expectedRows(ref, 273 * 73, 73)); // the partial last page
    expect(await page(201, 100)).toEqual([]);
    const whole = await get(app.apiKey, `/api/v1/leaderboards/${boardId}?pageSize=1`);
    expect(whole.body).toMatchObject({ num_users: COUNT, num_teams: 0, grouped_by_teams: [] });
  });

  it("starts v2 pages at any position, also inside a group of equal scores", async () => {
    for (const position of [1, 2, 3, 4, 5, 999, 10_001, 19_999, 20_000]) {
      const r = await get(app.apiKey, `/api/v2/leaderboards/${boardId}?currentPosition=${position}&pageSize=7`);
      expect(triples(r.body.leaderboard_results_by_member_type.user.members)).toEqual(
        expectedRows(ref, position - 1, 7),
      );
    }
  });

  it("shows a member's neighbourhood", async () => {
    const me = ref[10_000];
    const r = await get(app.apiKey, `/api/v1/leaderboards/${boardId}/around/user/${me.id}?range=3`);
    expect(r.body.member).toMatchObject({ member_id: me.id, score: me.score, rank: me.rank });
    expect(triples(r.body.members)).toEqual(expectedRows(ref, 9_997, 7));
    const first = await get(app.apiKey, `/api/v1/leaderboards/${boardId}/around/user/${ref[1].id}?range=3`);
    expect(triples(first.body.members)).toEqual(expectedRows(ref, 0, 5));
  });

  it("keeps exact ranks while events move members across the board", async () => {
    const moves = [
      score("m17", 2_500),
      score("m4242", 6_000), // past the best seeded score
      score("m999", -6_000), // past the worst
      score("newcomer", 1_234),
      score("m17", 1),
    ];
    await deliver(app.appId, moves);
    for (const { user, meta } of moves) scores.set(user, (scores.get(user) ?? 0) + Number(meta!.score));
    ref = reference(scores, ascending);
    for (const id of ["m17", "m4242", "m999", "newcomer", ref[0].id, ref[COUNT].id]) {
      const expected = ref.find((r) => r.id === id)!;
      const r = await get(app.apiKey, `/api/v1/leaderboards-members/user/${id}/${boardId}`);
      expect(r.body.member).toMatchObject({ member_id: id, score: expected.score, rank: expected.rank });
    }
    const pages = await get(app.apiKey, `/api/v1/leaderboards/${boardId}?currentPage=81&pageSize=100`);
    expect(triples(pages.body.grouped_by_users)).toEqual(expectedRows(ref, 8_000, 100));
    expect(pages.body.num_users).toBe(COUNT + 1);
  });
});
