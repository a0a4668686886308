import { describe, expect, it } from "vitest";
import { addDays, playerDayRange, playersPerDay, retentionTable } from "../../../src/players/core/player-analytics";

describe("the days of a players query", () => {
  const today = "2025-03-31";

  it("defaults to the 30 days up to today, or up to `to`", () => {
    expect(playerDayRange(undefined, undefined, today)).toEqual({ ok: true, from: "2025-03-02", to: "2025-03-31" });
    expect(playerDayRange(undefined, "2025-01-30", today)).toEqual({ ok: true, from: "2025-01-01", to: "2025-01-30" });
    expect(playerDayRange("2025-03-31", "", today)).toEqual({ ok: true, from: "2025-03-31", to: "2025-03-31" });
  });

  it("takes at most 90 days, both included, none after today", () => {
    expect(playerDayRange("2025-01-01", "2025-03-31", today)).toEqual({
      ok: true,
      from: "2025-01-01",
      to: "2025-03-31",
    });
    expect(playerDayRange("2024-12-31", "2025-03-31", today)).toEqual({
      ok: false,
      errors: [{ field: "from", problem: "must be at most 90 days before to, both included" }],
    });
    expect(playerDayRange("2025-03-01", "2025-04-01", today)).toEqual({
      ok: false,
      errors: [{ field: "to", problem: "must not be after today (2025-03-31)" }],
    });
  });

  it("refuses what is not a calendar day as YYYY-MM-DD, and a reversed range", () => {
    const wrong = "must be a UTC day as YYYY-MM-DD (2025-01-31)";
    expect(playerDayRange("2025-02-29", "2025-03-30", today)).toEqual({
      ok: false,
      errors: [{ field: "from", problem: wrong }],
    });
    expect(playerDayRange("2025-3-1", "2025-03-01T00:00:00Z", today)).toEqual({
      ok: false,
      errors: [
        { field: "from", problem: wrong },
        { field: "to", problem: wrong },
      ],
    });
    expect(playerDayRange("2025-03-02", "2025-03-01", today)).toEqual({
      ok: false,
      errors: [{ field: "from", problem: "must not be after to" }],
    });
  });

  it("adds days across months and years", () => {
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });
});

describe("players per day and retention", () => {
  const days = playersPerDay("2025-03-01", "2025-03-03", [
    { day: "2025-03-01", active: 5, new: 5 },
    { day: "2025-03-03", active: 4, new: 1 },
  ]);

  it("lists every day of the range, returning players being the active ones who are not new", () => {
    expect(days).toEqual([
      { day: "2025-03-01", active: 5, new: 5, returning: 0 },
      { day: "2025-03-02", active: 0, new: 0, returning: 0 },
      { day: "2025-03-03", active: 4, new: 1, returning: 3 },
    ]);
  });

  it("gives each day with new players the share active again 1, 7 and 30 days later, newest first; null until that day comes", () => {
    const cells = [
      { first_day: "2025-03-01", active_day: "2025-03-02", players: 2 },
      { first_day: "2025-03-01", active_day: "2025-03-03", players: 3 },
      { first_day: "2025-03-01", active_day: "2025-03-08", players: 1 },
    ];
    expect(retentionTable(days, cells, "2025-03-08")).toEqual([
      {
        first_day: "2025-03-03",
        new_players: 1,
        day_1: { players: 0, share: 0 },
        day_7: null,
        day_30: null,
      },
      {
        first_day: "2025-03-01",
        new_players: 5,
        day_1: { players: 2, share: 0.4 },
        day_7: { players: 1, share: 0.2 },
        day_30: null,
      },
    ]);
  });
});
