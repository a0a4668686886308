import { describe, expect, it } from "vitest";
import { analyticsRange, countsPerDay, dayOf, monthOf } from "../../../src/events/core/periods";

const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

describe("monthOf and dayOf", () => {
  it("use UTC", () => {
    expect(monthOf(at("2025-01-31T23:59:59.999Z"))).toBe("2025-01");
    expect(monthOf(at("2025-02-01T00:00:00Z"))).toBe("2025-02");
    expect(dayOf(at("2025-03-30T01:30:00+02:00"))).toBe("2025-03-29");
  });
});

describe("analyticsRange", () => {
  const now = at("2025-06-15T12:00:00Z");

  it("defaults to the 30 days before now", () => {
    expect(analyticsRange(undefined, undefined, now)).toEqual({ ok: true, from: now - 30 * DAY, to: now });
  });

  it("includes the whole day of a date `to`, and not the instant of a date-time `to`", () => {
    expect(analyticsRange("2025-01-01", "2025-01-31", now)).toEqual({
      ok: true,
      from: at("2025-01-01T00:00:00Z"),
      to: at("2025-02-01T00:00:00Z"),
    });
    expect(analyticsRange("2025-01-01T06:00:00+01:00", "2025-01-02T00:00:00Z", now)).toEqual({
      ok: true,
      from: at("2025-01-01T05:00:00Z"),
      to: at("2025-01-02T00:00:00Z"),
    });
  });

  it("starts 30 days before a given end", () => {
    expect(analyticsRange(undefined, "2025-01-31", now)).toEqual({
      ok: true,
      from: at("2025-01-02T00:00:00Z"),
      to: at("2025-02-01T00:00:00Z"),
    });
  });

  it("refuses dates that are not ISO, or not on the calendar", () => {
    const problem = "must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)";
    for (const bad of ["2025-02-30", "2025-13-01", "01/02/2025", "2025-01-01T10:00", "yesterday"]) {
      expect(analyticsRange(bad, undefined, now)).toEqual({ ok: false, errors: [{ field: "from", problem }] });
    }
    expect(analyticsRange(undefined, "2024-02-29", now)).toMatchObject({ ok: true });
  });

  it("refuses an empty, reversed or too long range", () => {
    expect(analyticsRange("2025-01-02T00:00:00Z", "2025-01-02T00:00:00Z", now)).toEqual({
      ok: false,
      errors: [{ field: "to", problem: "must be after from" }],
    });
    expect(analyticsRange("2024-01-01", "2025-01-01", now)).toEqual({
      ok: false,
      errors: [{ field: "from", problem: "must be at most 366 days before to" }],
    });
    expect(analyticsRange("2024-01-02", "2025-01-01", now)).toMatchObject({ ok: true });
  });
});

describe("countsPerDay", () => {
  it("lists every day the range touches, zeros included", () => {
    const counts = new Map([["2025-01-02", 4]]);
    expect(countsPerDay(at("2025-01-01T12:00:00Z"), at("2025-01-03T00:00:01Z"), counts)).toEqual([
      { day: "2025-01-01", count: 0 },
      { day: "2025-01-02", count: 4 },
      { day: "2025-01-03", count: 0 },
    ]);
  });
});
