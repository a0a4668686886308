import { describe, expect, it } from "vitest";
import {
  isValidTimeZone,
  parseWallClock,
  periodStart,
  utcDateKey,
  utcMonthKey,
  zonedToInstant,
  type PeriodSchedule,
} from "../../../src/rules/schedule";

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const start = (s: PeriodSchedule, now: string) => iso(periodStart(s, ms(now)));

const BERLIN = "Europe/Berlin";
const NEW_YORK = "America/New_York";

describe("validation helpers", () => {
  it("parses HH:MM:SS", () => {
    expect(parseWallClock("00:00:00")).toEqual({ hour: 0, minute: 0, second: 0 });
    expect(parseWallClock("23:59:59")).toEqual({ hour: 23, minute: 59, second: 59 });
    for (const bad of ["24:00:00", "12:60:00", "12:00:60", "1:00:00", "12:00", "12:00:00Z", ""])
      expect(parseWallClock(bad)).toBeNull();
  });
  it("knows IANA zones", () => {
    expect(isValidTimeZone(BERLIN)).toBe(true);
    expect(isValidTimeZone(NEW_YORK)).toBe(true);
    expect(isValidTimeZone("UTC")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isValidTimeZone("")).toBe(false);
  });
  it("keys dates and months in UTC", () => {
    expect(utcDateKey(ms("2024-02-29T23:59:59Z"))).toBe("2024-02-29");
    expect(utcMonthKey(ms("2024-02-29T23:59:59Z"))).toBe("2024-02");
  });
});

describe("wall clock to instant across DST", () => {
  it("Berlin: normal winter and summer times", () => {
    expect(iso(zonedToInstant({ year: 2024, month: 1, day: 15, hour: 4, minute: 0, second: 0 }, BERLIN))).toBe(
      "2024-01-15T03:00:00.000Z",
    );
    expect(iso(zonedToInstant({ year: 2024, month: 7, day: 15, hour: 4, minute: 0, second: 0 }, BERLIN))).toBe(
      "2024-07-15T02:00:00.000Z",
    );
  });
  it("Berlin spring forward: 02:30 does not exist and becomes 03:30 CEST", () => {
    expect(iso(zonedToInstant({ year: 2024, month: 3, day: 31, hour: 2, minute: 30, second: 0 }, BERLIN))).toBe(
      "2024-03-31T01:30:00.000Z",
    );
  });
  it("Berlin fall back: 02:30 happens twice, the first one counts", () => {
    expect(iso(zonedToInstant({ year: 2024, month: 10, day: 27, hour: 2, minute: 30, second: 0 }, BERLIN))).toBe(
      "2024-10-27T00:30:00.000Z",
    );
  });
  it("New York spring forward and fall back", () => {
    expect(iso(zonedToInstant({ year: 2024, month: 3, day: 10, hour: 2, minute: 30, second: 0 }, NEW_YORK))).toBe(
      "2024-03-10T07:30:00.000Z",
    );
    expect(iso(zonedToInstant({ year: 2024, month: 11, day: 3, hour: 1, minute: 30, second: 0 }, NEW_YORK))).toBe(
      "2024-11-03T05:30:00.000Z",
    );
  });
});

describe("daily resets", () => {
  const berlinMidnight: PeriodSchedule = { period: "d", resetAtTime: "00:00:00", timeZone: BERLIN };
  it("is the same day after the reset time, the day before otherwise", () => {
    expect(start(berlinMidnight, "2024-01-15T12:00:00Z")).toBe("2024-01-14T23:00:00.000Z");
    expect(start(berlinMidnight, "2024-01-14T22:59:59Z")).toBe("2024-01-13T23:00:00.000Z");
    expect(start(berlinMidnight, "2024-01-14T23:00:00Z")).toBe("2024-01-14T23:00:00.000Z");
  });
  it("Berlin: the spring-forward day is 23 hours long", () => {
    expect(start(berlinMidnight, "2024-03-31T12:00:00Z")).toBe("2024-03-30T23:00:00.000Z");
    expect(start(berlinMidnight, "2024-04-01T00:00:00Z")).toBe("2024-03-31T22:00:00.000Z");
  });
  it("Berlin: the fall-back day is 25 hours long", () => {
    expect(start(berlinMidnight, "2024-10-27T12:00:00Z")).toBe("2024-10-26T22:00:00.000Z");
    expect(start(berlinMidnight, "2024-10-27T22:59:59Z")).toBe("2024-10-26T22:00:00.000Z");
    expect(start(berlinMidnight, "2024-10-27T23:00:00Z")).toBe("2024-10-27T23:00:00.000Z");
  });
  it("Berlin: a reset inside the skipped hour happens at 03:30 CEST that day", () => {
    const s: PeriodSchedule = { period: "d", resetAtTime: "02:30:00", timeZone: BERLIN };
    expect(start(s, "2024-03-31T01:00:00Z")).toBe("2024-03-30T01:30:00.000Z");
    expect(start(s, "2024-03-31T01:30:00Z")).toBe("2024-03-31T01:30:00.000Z");
    expect(start(s, "2024-04-01T00:29:59Z")).toBe("2024-03-31T01:30:00.000Z");
    expect(start(s, "2024-04-01T00:30:00Z")).toBe("2024-04-01T00:30:00.000Z");
  });
  it("Berlin: a reset inside the repeated hour happens once, at its first occurrence", () => {
    const s: PeriodSchedule = { period: "d", resetAtTime: "02:30:00", timeZone: BERLIN };
    expect(start(s, "2024-10-27T00:30:00Z")).toBe("2024-10-27T00:30:00.000Z");
    expect(start(s, "2024-10-27T01:45:00Z")).toBe("2024-10-27T00:30:00.000Z");
    expect(start(s, "2024-10-28T01:29:59Z")).toBe("2024-10-27T00:30:00.000Z");
    expect(start(s, "2024-10-28T01:30:00Z")).toBe("2024-10-28T01:30:00.000Z");
  });
  it("New York across both switches", () => {
    const s: PeriodSchedule = { period: "d", resetAtTime: "06:00:00", timeZone: NEW_YORK };
    expect(start(s, "2024-03-09T12:00:00Z")).toBe("2024-03-09T11:00:00.000Z");
    expect(start(s, "2024-03-10T09:59:59Z")).toBe("2024-03-09T11:00:00.000Z");
    expect(start(s, "2024-03-10T10:00:00Z")).toBe("2024-03-10T10:00:00.000Z");
    expect(start(s, "2024-11-03T10:59:59Z")).toBe("2024-11-02T10:00:00.000Z");
    expect(start(s, "2024-11-03T11:00:00Z")).toBe("2024-11-03T11:00:00.000Z");
  });
  it("New York: 01:30 on the fall-back day counts at its first occurrence (EDT)", () => {
    const s: PeriodSchedule = { period: "d", resetAtTime: "01:30:00", timeZone: NEW_YORK };
    expect(start(s, "2024-11-03T06:00:00Z")).toBe("2024-11-03T05:30:00.000Z");
    expect(start(s, "2024-11-03T06:30:00Z")).toBe("2024-11-03T05:30:00.000Z");
  });
  it("New York: 02:30 on the spring-forward day becomes 03:30 EDT", () => {
    const s: PeriodSchedule = { period: "d", resetAtTime: "02:30:00", timeZone: NEW_YORK };
    expect(start(s, "2024-03-10T07:29:59Z")).toBe("2024-03-09T07:30:00.000Z");
    expect(start(s, "2024-03-10T07:30:00Z")).toBe("2024-03-10T07:30:00.000Z");
  });
  it("crosses from the 31st into the next month and from 29 February into March", () => {
    const utc: PeriodSchedule = { period: "d", resetAtTime: "00:00:00", timeZone: "UTC" };
    expect(start(utc, "2024-01-31T23:59:59Z")).toBe("2024-01-31T00:00:00.000Z");
    expect(start(utc, "2024-02-01T00:00:00Z")).toBe("2024-02-01T00:00:00.000Z");
    expect(start(utc, "2024-02-29T12:00:00Z")).toBe("2024-02-29T00:00:00.000Z");
    expect(start(utc, "2024-03-01T00:00:01Z")).toBe("2024-03-01T00:00:00.000Z");
    // Before the reset time on 1 March: the period began on 29 February.
    const late: PeriodSchedule = { period: "d", resetAtTime: "18:00:00", timeZone: "UTC" };
    expect(start(late, "2024-03-01T10:00:00Z")).toBe("2024-02-29T18:00:00.000Z");
    expect(start(late, "2023-03-01T10:00:00Z")).toBe("2023-02-28T18:00:00.000Z");
  });
});

describe("weekly resets on Monday", () => {
  it("Berlin: Monday 00:00 local, and the week before before that", () => {
    const s: PeriodSchedule = { period: "w", resetAtTime: "00:00:00", timeZone: BERLIN };
    // 2024-01-17 is a Wednesday; Monday 2024-01-15 00:00 CET.
    expect(start(s, "2024-01-17T12:00:00Z")).toBe("2024-01-14T23:00:00.000Z");
    // Sunday 23:30 local is still the previous week.
    expect(start(s, "2024-01-14T22:30:00Z")).toBe("2024-01-07T23:00:00.000Z");
  });
  it("Berlin: the week containing the spring-forward Sunday", () => {
    const s: PeriodSchedule = { period: "w", resetAtTime: "00:00:00", timeZone: BERLIN };
    expect(start(s, "2024-03-31T12:00:00Z")).toBe("2024-03-24T23:00:00.000Z");
    expect(start(s, "2024-04-01T00:00:00Z")).toBe("2024-03-31T22:00:00.000Z");
  });
  it("Berlin: the week containing the fall-back Sunday", () => {
    const s: PeriodSchedule = { period: "w", resetAtTime: "00:00:00", timeZone: BERLIN };
    expect(start(s, "2024-10-27T12:00:00Z")).toBe("2024-10-20T22:00:00.000Z");
    expect(start(s, "2024-10-27T23:00:00Z")).toBe("2024-10-27T23:00:00.000Z");
  });
  it("New York: Monday 09:00 local across both switches", () => {
    const s: PeriodSchedule = { period: "w", resetAtTime: "09:00:00", timeZone: NEW_YORK };
    expect(start(s, "2024-03-10T20:00:00Z")).toBe("2024-03-04T14:00:00.000Z");
    expect(start(s, "2024-03-11T13:00:00Z")).toBe("2024-03-11T13:00:00.000Z");
    expect(start(s, "2024-11-04T13:59:59Z")).toBe("2024-10-28T13:00:00.000Z");
    expect(start(s, "2024-11-04T14:00:00Z")).toBe("2024-11-04T14:00:00.000Z");
  });
  it("a week that spans a month and a year end", () => {
    const s: PeriodSchedule = { period: "w", resetAtTime: "00:00:00", timeZone: "UTC" };
    // Wednesday 2025-01-01: the week began on Monday 2024-12-30.
    expect(start(s, "2025-01-01T00:00:00Z")).toBe("2024-12-30T00:00:00.000Z");
    // Friday 2024-03-01: Monday 2024-02-26.
    expect(start(s, "2024-03-01T00:00:00Z")).toBe("2024-02-26T00:00:00.000Z");
  });
});

describe("monthly resets on the 1st", () => {
  it("the 31st belongs to its own month; the 1st after the reset time starts the next", () => {
    const s: PeriodSchedule = { period: "m", resetAtTime: "00:00:00", timeZone: BERLIN };
    expect(start(s, "2024-01-31T22:00:00Z")).toBe("2023-12-31T23:00:00.000Z");
    expect(start(s, "2024-01-31T23:00:00Z")).toBe("2024-01-31T23:00:00.000Z");
  });
  it("29 February stays in February; March begins on the 1st", () => {
    const s: PeriodSchedule = { period: "m", resetAtTime: "00:00:00", timeZone: "UTC" };
    expect(start(s, "2024-02-29T23:59:59Z")).toBe("2024-02-01T00:00:00.000Z");
    expect(start(s, "2024-03-01T00:00:00Z")).toBe("2024-03-01T00:00:00.000Z");
  });
  it("before the reset time on the 1st, the period is the previous month (also across a year)", () => {
    const s: PeriodSchedule = { period: "m", resetAtTime: "12:00:00", timeZone: "UTC" };
    expect(start(s, "2024-03-01T11:59:59Z")).toBe("2024-02-01T12:00:00.000Z");
    expect(start(s, "2024-01-01T11:00:00Z")).toBe("2023-12-01T12:00:00.000Z");
  });
  it("New York: the local month, not the UTC one, and DST between the two resets", () => {
    const s: PeriodSchedule = { period: "m", resetAtTime: "00:00:00", timeZone: NEW_YORK };
    // 2024-03-31 23:30 EDT is 2024-04-01T03:30Z: still March locally.
    expect(start(s, "2024-04-01T03:30:00Z")).toBe("2024-03-01T05:00:00.000Z");
    expect(start(s, "2024-04-01T04:00:00Z")).toBe("2024-04-01T04:00:00.000Z");
    expect(start(s, "2024-11-15T12:00:00Z")).toBe("2024-11-01T04:00:00.000Z");
    expect(start(s, "2024-12-01T05:00:00Z")).toBe("2024-12-01T05:00:00.000Z");
  });
  it("never has no period", () => {
    expect(
      periodStart({ period: "never", resetAtTime: "00:00:00", timeZone: "UTC" }, ms("2024-01-01T00:00:00Z")),
    ).toBeNull();
  });
});
