import { describe, expect, it } from "vitest";
import {
  aggregate,
  cohortNumbers,
  compareMembers,
  decideCohort,
  nextTier,
  rankCohort,
  rewardsFor,
  tierAfter,
  zoneSizes,
  type CohortMember,
} from "../../../src/leagues/core/decide";
import type { SeasonRules } from "../../../src/leagues/core/model";
import { seasonAt, seasonIdOf, seasonStartOf } from "../../../src/leagues/core/season";

const tiers = (...keys: string[]) => keys.map((key) => ({ key, name: key }));
const rules = (over: Partial<SeasonRules> = {}): SeasonRules => ({
  tiers: tiers("bronze", "silver", "gold"),
  cohortSize: 3,
  promote: 1,
  demote: 1,
  rewards: [],
  ...over,
});
const member = (memberId: string, score: number, reachedAt = 0, joinedAt = 0): CohortMember => ({
  memberId,
  score,
  reachedAt,
  joinedAt,
});

describe("zone sizes", () => {
  it("a full cohort moves promote up and demote down; none up from the top tier nor down from the lowest", () => {
    const r = rules({ cohortSize: 30, promote: 5, demote: 5 });
    expect(zoneSizes(r, 30, 1, 3)).toEqual({ promote: 5, demote: 5 });
    expect(zoneSizes(r, 30, 0, 3)).toEqual({ promote: 5, demote: 0 });
    expect(zoneSizes(r, 30, 2, 3)).toEqual({ promote: 0, demote: 5 });
    expect(zoneSizes(r, 30, 0, 1)).toEqual({ promote: 0, demote: 0 });
  });

  it("a partial cohort promotes max(1, floor(promote·n/size)) when n ≥ 2 and demotes floor(demote·n/size)", () => {
    const r = rules({ cohortSize: 30, promote: 5, demote: 7 });
    expect(zoneSizes(r, 12, 1, 3)).toEqual({ promote: 2, demote: 2 }); // 60/30, 84/30
    expect(zoneSizes(r, 5, 1, 3)).toEqual({ promote: 1, demote: 1 }); // max(1, 0), floor(35/30)
    expect(zoneSizes(r, 4, 1, 3)).toEqual({ promote: 1, demote: 0 }); // max(1, 0), floor(28/30)
    expect(zoneSizes(r, 2, 1, 3)).toEqual({ promote: 1, demote: 0 });
    expect(zoneSizes(r, 1, 1, 3)).toEqual({ promote: 0, demote: 0 });
    expect(zoneSizes(rules({ cohortSize: 30, promote: 0, demote: 7 }), 12, 1, 3)).toEqual({ promote: 0, demote: 2 });
    expect(zoneSizes(r, 0, 1, 3)).toEqual({ promote: 0, demote: 0 });
  });

  it("promotion and demotion never overlap", () => {
    const r = rules({ cohortSize: 4, promote: 2, demote: 2 });
    expect(zoneSizes(r, 2, 1, 3)).toEqual({ promote: 1, demote: 1 });
    expect(zoneSizes(rules({ cohortSize: 100, promote: 1, demote: 99 }), 2, 1, 3)).toEqual({ promote: 1, demote: 1 });
    expect(zoneSizes(rules({ cohortSize: 2, promote: 1, demote: 1 }), 1, 1, 3)).toEqual({ promote: 0, demote: 0 });
  });
});

describe("cohorts and ranks", () => {
  it("7 arrivals in cohorts of 3 fill cohorts of 3, 3 and 1 in arrival order", () => {
    expect(cohortNumbers(7, 3)).toEqual([1, 1, 1, 2, 2, 2, 3]);
  });

  it("ranks are distinct: equal scores by who reached the score first, then who joined first", () => {
    const ranked = rankCohort(
      [member("late", 10, 500, 1), member("top", 20, 900, 2), member("early", 10, 100, 3), member("tie", 10, 100, 0)],
      rules({ cohortSize: 4 }),
      1,
      3,
    );
    expect(ranked.map((m) => [m.memberId, m.rank, m.zone])).toEqual([
      ["top", 1, "promotion"],
      ["tie", 2, "safe"],
      ["early", 3, "safe"],
      ["late", 4, "demotion"],
    ]);
    expect(compareMembers(member("a", 1, 5, 5), member("b", 1, 5, 5))).toBe(-1);
  });

  it("aggregates sum and max", () => {
    expect(aggregate("sum", null, 4)).toBe(4);
    expect(aggregate("sum", 4, 3)).toBe(7);
    expect(aggregate("max", 4, 3)).toBe(4);
    expect(aggregate("max", 4, 9)).toBe(9);
  });
});

describe("outcomes", () => {
  it("a full cohort of the lowest tier promotes its first and demotes nobody; a lone player stays", () => {
    const r = rules();
    const full = decideCohort(r, { cohortId: "7", seasonId: "s", tier: 0 }, [
      member("a", 5, 1),
      member("b", 9, 2),
      member("c", 1, 3),
    ]);
    expect(full.map((x) => [x.member_id, x.rank, x.outcome, x.next_tier])).toEqual([
      ["b", 1, "promoted", "silver"],
      ["a", 2, "stayed", "bronze"],
      ["c", 3, "stayed", "bronze"],
    ]);
    const lone = decideCohort(r, { cohortId: "8", seasonId: "s", tier: 0 }, [member("z", 3)]);
    expect(lone).toEqual([
      {
        member_id: "z",
        season_id: "s",
        tier: "bronze",
        cohort_id: "8",
        rank: 1,
        score: 3,
        outcome: "stayed",
        next_tier: "bronze",
        rewards: null,
      },
    ]);
  });

  it("a middle tier promotes its first and demotes its last; the top tier only demotes", () => {
    const middle = decideCohort(rules(), { cohortId: "1", seasonId: "s", tier: 1 }, [
      member("a", 1),
      member("b", 2),
      member("c", 3),
    ]);
    expect(middle.map((x) => [x.member_id, x.outcome, x.next_tier])).toEqual([
      ["c", "promoted", "gold"],
      ["b", "stayed", "silver"],
      ["a", "demoted", "bronze"],
    ]);
    const top = decideCohort(rules(), { cohortId: "2", seasonId: "s", tier: 2 }, [member("a", 1), member("b", 2)]);
    // A partial cohort of 2 of size 3 demotes floor(1·2/3) = 0.
    expect(top.map((x) => [x.member_id, x.outcome])).toEqual([
      ["b", "stayed"],
      ["a", "stayed"],
    ]);
  });

  it("rewards: the first entry covering the tier and rank", () => {
    const rewards = [
      { tier: "gold", rankMin: 1, rankMax: 1, pointsRewards: [{ system: "coins", amount: 500 }], reward: "crown" },
      { tier: null, rankMin: 1, rankMax: 3, pointsRewards: [{ system: "coins", amount: 100 }], reward: null },
    ];
    expect(rewardsFor(rewards, "gold", 1)).toEqual({
      points_rewards: [{ system: "coins", amount: 500 }],
      reward: "crown",
    });
    expect(rewardsFor(rewards, "bronze", 1)).toEqual({
      points_rewards: [{ system: "coins", amount: 100 }],
      reward: null,
    });
    expect(rewardsFor(rewards, "bronze", 4)).toBeNull();
  });

  it("next tiers stay within the league", () => {
    expect(nextTier(2, "promoted", 3)).toBe(2);
    expect(nextTier(0, "demoted", 3)).toBe(0);
    expect(nextTier(1, "promoted", 3)).toBe(2);
    expect(tierAfter({ next_tier: "silver" }, ["bronze", "silver"], 0)).toBe(1);
    expect(tierAfter({ next_tier: "platinum" }, ["bronze", "silver"], 1)).toBe(0);
    expect(tierAfter(null, ["bronze", "silver"], 1)).toBe(1);
    expect(tierAfter(null, ["bronze", "silver"], 5)).toBe(1);
  });
});

describe("seasons", () => {
  it("weekly seasons start on Monday at the time in the zone, across a daylight-saving change", () => {
    const schedule = { period: "weekly" as const, resetAtTime: "06:00:00", timeZone: "Europe/Berlin" };
    // Wednesday 2026-10-21: the season from Monday 19th 06:00 CEST (04:00 UTC) to Monday 26th 06:00 CET (05:00 UTC).
    const s = seasonAt(schedule, Date.parse("2026-10-21T12:00:00Z"));
    expect(seasonIdOf(s.startsAt)).toBe("2026-10-19T04:00:00.000Z");
    expect(seasonIdOf(s.endsAt)).toBe("2026-10-26T05:00:00.000Z");
    expect(seasonAt(schedule, s.endsAt).startsAt).toBe(s.endsAt);
    expect(seasonAt(schedule, s.endsAt - 1).startsAt).toBe(s.startsAt);
  });

  it("daily seasons end at the next day's time", () => {
    const schedule = { period: "daily" as const, resetAtTime: "00:00:00", timeZone: "UTC" };
    const s = seasonAt(schedule, Date.parse("2026-11-27T17:00:00Z"));
    expect([seasonIdOf(s.startsAt), seasonIdOf(s.endsAt)]).toEqual([
      "2026-11-27T00:00:00.000Z",
      "2026-11-28T00:00:00.000Z",
    ]);
    expect(seasonStartOf("2026-11-27T00:00:00.000Z")).toBe(s.startsAt);
    expect(seasonStartOf("monday")).toBeNull();
  });
});
