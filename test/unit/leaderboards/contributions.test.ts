import { describe, expect, it } from "vitest";
import { toDef, type LeaderboardRow } from "../../../src/leaderboards/catalog";
import {
  byEventJson,
  contributionsOf,
  dedupKey,
  holdReason,
  playerClaimPrefix,
} from "../../../src/leaderboards/core/contributions";
import type { UserEvent } from "../../../src/user/event";

const ORIGIN = Date.parse("2025-05-01T00:00:00Z");

const board = (over: Partial<LeaderboardRow> = {}) =>
  toDef({
    leaderboard_id: 7,
    app_id: 1,
    key: "leaderboard-7",
    name: "B",
    event_name: "kill-enemy",
    value_field: null,
    filters: "[]",
    aggregation: "sum",
    sort_order_ascending: 0,
    period_range: null,
    period_range_reset_at_time: null,
    period_range_time_zone: null,
    season_origin: ORIGIN,
    authoritative: 0,
    min_value: null,
    max_value: null,
    max_events_per_minute: null,
    points_system: null,
    created_at: "",
    updated_at: "",
    ...over,
  });

const event = (over: Partial<UserEvent> = {}): UserEvent => ({
  appId: "1",
  userId: "ann",
  teamId: null,
  eventName: "kill-enemy",
  eventType: "single",
  sessionId: "persistent",
  metaData: { amount: 3 },
  eventId: null,
  receivedAt: ORIGIN + 1000,
  credential: "api_key",
  ...over,
});

const queued = (e: UserEvent, messageId = "m1") => ({ messageId, event: e });
/** Stands for the HMAC of (app, user): any text naming the player. */
const subject = (e: UserEvent) => `subject-of-${e.appId}-${e.userId}`;

describe("contributionsOf", () => {
  it("gives the user's row and, with a team, the team's row", () => {
    const out = contributionsOf([queued(event({ teamId: "red" }))], () => [board()], subject);
    // The user's row carries the player's erasure subject; the team's names no one.
    expect(out).toEqual([
      {
        k: "m:m1",
        p: 1,
        b: 7,
        s: ORIGIN,
        t: "user",
        i: "ann",
        v: 3,
        a: ORIGIN + 1000,
        q: 0,
        g: "sum",
        o: 0,
        e: "subject-of-1-ann",
      },
      { k: "m:m1", p: 1, b: 7, s: ORIGIN, t: "team", i: "red", v: 3, a: ORIGIN + 1000, q: 0, g: "sum", o: 0, e: null },
    ]);
  });

  it("skips other event names, failing filters, a missing value field and events before the season", () => {
    const filtered = board({
      value_field: "damage",
      filters: JSON.stringify([{ field: "weapon_used", op: "eq", value: "bow" }]),
    });
    const events = [
      event({ eventName: "match-start" }),
      event({ metaData: { damage: 5, weapon_used: "axe" } }),
      event({ metaData: { weapon_used: "bow" } }),
      event({ metaData: { damage: 5, weapon_used: "bow" }, receivedAt: ORIGIN - 1 }),
      event({ metaData: { damage: 5, weapon_used: "bow" } }),
    ];
    const out = contributionsOf(
      events.map((e, i) => queued(e, `m${i}`)),
      () => [filtered],
      subject,
    );
    expect(out.map((c) => [c.k, c.v])).toEqual([["m:m4", 5]]);
  });

  it("counts an event_id once per batch and keys it by app, the player's subject (never their id) and event id", () => {
    const e = event({ eventId: "e-1" });
    expect(dedupKey(queued(e), subject(e))).toBe("e:1:subject-of-1-ann:e-1");
    expect(playerClaimPrefix("1", subject(e))).toBe("e:1:subject-of-1-ann:");
    expect(contributionsOf([queued(e, "a"), queued(e, "b")], () => [board()], subject)).toHaveLength(1);
  });

  it("places an event in the season it was received in and marks ascending boards", () => {
    const daily = board({
      period_range: "d",
      period_range_reset_at_time: "00:00:00",
      period_range_time_zone: "UTC",
      sort_order_ascending: 1,
      aggregation: "min",
    });
    const out = contributionsOf(
      [queued(event({ receivedAt: Date.parse("2025-05-03T10:00:00Z") }))],
      () => [daily],
      subject,
    );
    expect(out[0]).toMatchObject({ s: Date.parse("2025-05-03T00:00:00Z"), o: 1, g: "min" });
  });

  it("leaves a game client's event out of an authoritative board only", () => {
    const boards = () => [board({ authoritative: 1 }), board({ leaderboard_id: 8 })];
    const fromClient = contributionsOf([queued(event({ credential: "access_token" }))], boards, subject);
    expect(fromClient.map((c) => c.b)).toEqual([8]);
    const fromBackend = contributionsOf([queued(event())], boards, subject);
    expect(fromBackend.map((c) => c.b)).toEqual([7, 8]);
  });

  it("holds a value outside the board's bounds, checked against the event's value, with its reason and event name", () => {
    const bounded = () => [board({ min_value: 1, max_value: 10 })];
    const values = [0, 1, 10, 11];
    const out = contributionsOf(
      values.map((amount, i) => queued(event({ metaData: { amount } }), `m${i}`)),
      bounded,
      subject,
    );
    expect(out.map((c) => [c.v, c.h, c.n])).toEqual([
      [0, "below_min_value", "kill-enemy"],
      [1, undefined, undefined],
      [10, undefined, undefined],
      [11, "above_max_value", "kill-enemy"],
    ]);
  });

  it("holds an event past the player's pace on that board only, user and team rows alike", () => {
    const boards = () => [board(), board({ leaderboard_id: 8 })];
    const out = contributionsOf([{ ...queued(event({ teamId: "red" })), paceExceeded: ["8"] }], boards, subject);
    expect(out.map((c) => [c.b, c.t, c.h ?? null])).toEqual([
      [7, "user", null],
      [7, "team", null],
      [8, "user", "over_max_events_per_minute"],
      [8, "team", "over_max_events_per_minute"],
    ]);
  });
});

describe("byEventJson", () => {
  it("writes what is the same on every board once per event, and each board's row of the user and of the team", () => {
    const boards = () => [board(), board({ leaderboard_id: 8, aggregation: "max", sort_order_ascending: 1 })];
    const out = contributionsOf(
      [queued(event({ teamId: "red" }), "a"), queued(event({ userId: "bob", receivedAt: ORIGIN + 2000 }), "b")],
      boards,
      subject,
    );
    expect(JSON.parse(byEventJson(out))).toEqual([
      [
        "m:a",
        1,
        ORIGIN + 1000,
        0,
        "subject-of-1-ann",
        "ann",
        [
          [7, ORIGIN, "user", "ann", 3, "sum", 0],
          [7, ORIGIN, "team", "red", 3, "sum", 0],
          [8, ORIGIN, "user", "ann", 3, "max", 1],
          [8, ORIGIN, "team", "red", 3, "max", 1],
        ],
      ],
      [
        "m:b",
        1,
        ORIGIN + 2000,
        1,
        "subject-of-1-bob",
        "bob",
        [
          [7, ORIGIN, "user", "bob", 3, "sum", 0],
          [8, ORIGIN, "user", "bob", 3, "max", 1],
        ],
      ],
    ]);
  });

  it("names no player on an event with a team's row only (an accepted review flag)", () => {
    const [teamRow] = contributionsOf([queued(event({ teamId: "red" }), "a")], () => [board()], subject).filter(
      (c) => c.t === "team",
    );
    expect(JSON.parse(byEventJson([teamRow]))).toEqual([
      ["m:a", 1, ORIGIN + 1000, 0, null, null, [[7, ORIGIN, "team", "red", 3, "sum", 0]]],
    ]);
  });
});

describe("holdReason", () => {
  it("names the bound first, then the pace", () => {
    const bounded = board({ min_value: 0, max_value: 100 });
    expect(holdReason(bounded, -1, true)).toBe("below_min_value");
    expect(holdReason(bounded, 101, false)).toBe("above_max_value");
    expect(holdReason(bounded, 50, true)).toBe("over_max_events_per_minute");
    expect(holdReason(bounded, 50, false)).toBeNull();
    expect(holdReason(board(), Number.MAX_SAFE_INTEGER, false)).toBeNull();
  });
});
