import { describe, expect, it } from "vitest";
import { currentSeason, nextReset, seasonAt } from "../../../src/leaderboards/core/season";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("seasons", () => {
  const origin = at("2025-03-20T10:00:00Z");
  const daily = { origin, schedule: { period: "d" as const, resetAtTime: "02:30:00", timeZone: "Europe/Berlin" } };

  it("a board without a schedule has one season, from its origin", () => {
    const policy = { origin, schedule: null };
    expect(seasonAt(policy, origin)).toBe(origin);
    expect(seasonAt(policy, at("2030-01-01T00:00:00Z"))).toBe(origin);
    expect(seasonAt(policy, origin - 1)).toBeNull();
    expect(currentSeason(policy, origin - 1)).toBe(origin);
    expect(nextReset(policy, origin)).toBeNull();
  });

  it("the first season runs from the origin to the first reset, then each period is a season", () => {
    expect(seasonAt(daily, origin + 1000)).toBe(origin);
    expect(iso(nextReset(daily, origin))).toBe("2025-03-21T01:30:00.000Z");
    expect(iso(seasonAt(daily, at("2025-03-21T01:30:00Z")))).toBe("2025-03-21T01:30:00.000Z");
    expect(seasonAt(daily, at("2025-03-21T01:29:59Z"))).toBe(origin);
  });

  it("follows the wall clock across daylight saving time, a skipped reset time included", () => {
    // Berlin springs forward on 2025-03-30 at 02:00: 02:30 does not exist that day; the reset moves by the gap, to
    // 03:30 CEST.
    expect(iso(nextReset(daily, at("2025-03-29T12:00:00Z")))).toBe("2025-03-30T01:30:00.000Z");
    expect(iso(nextReset(daily, at("2025-03-30T01:30:00Z")))).toBe("2025-03-31T00:30:00.000Z");
    // Falls back on 2025-10-26 at 03:00: 02:30 happens twice; the reset is at the first.
    expect(iso(nextReset(daily, at("2025-10-25T12:00:00Z")))).toBe("2025-10-26T00:30:00.000Z");
    expect(iso(nextReset(daily, at("2025-10-26T00:30:00Z")))).toBe("2025-10-27T01:30:00.000Z");
  });

  it("weekly seasons start on Monday, monthly ones on the 1st", () => {
    const weekly = { origin, schedule: { period: "w" as const, resetAtTime: "00:00:00", timeZone: "UTC" } };
    expect(iso(nextReset(weekly, at("2025-03-20T10:00:00Z")))).toBe("2025-03-24T00:00:00.000Z");
    expect(iso(nextReset(weekly, at("2025-03-24T00:00:00Z")))).toBe("2025-03-31T00:00:00.000Z");
    const monthly = {
      origin,
      schedule: { period: "m" as const, resetAtTime: "00:00:00", timeZone: "America/New_York" },
    };
    expect(iso(nextReset(monthly, at("2025-03-20T10:00:00Z")))).toBe("2025-04-01T04:00:00.000Z");
    expect(iso(seasonAt(monthly, at("2025-04-15T00:00:00Z")))).toBe("2025-04-01T04:00:00.000Z");
    expect(iso(nextReset(monthly, at("2025-12-31T12:00:00Z")))).toBe("2026-01-01T05:00:00.000Z");
  });
});
