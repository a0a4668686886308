import { describe, expect, it } from "vitest";
import { rankRun } from "../../../src/leaderboards/core/ranking";

const rows = (...scores: number[]) => scores.map((score, i) => ({ memberId: `m${i}`, score }));
const ranks = (...args: Parameters<typeof rankRun>) => rankRun(...args).map((r) => r.rank);

describe("rankRun (competition ranking)", () => {
  it("ranks the top page: equal scores share a rank, the next skips the shared places", () => {
    expect(ranks(rows(9, 9, 7, 5, 5, 5, 1), 0, 0)).toEqual([1, 1, 3, 4, 4, 4, 7]);
  });

  it("ranks a later page from the members ahead of its first row", () => {
    // Positions 10..13; the first row's score is shared with 2 rows before the page (ahead 8).
    expect(ranks(rows(4, 4, 3, 3), 10, 8)).toEqual([9, 9, 13, 13]);
    // A page that starts a new score.
    expect(ranks(rows(4, 2), 10, 10)).toEqual([11, 12]);
  });

  it("answers nothing for no rows", () => {
    expect(rankRun([], 5, 0)).toEqual([]);
  });
});
