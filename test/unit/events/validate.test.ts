import { describe, expect, it } from "vitest";
import { validateEvent, invalidEventMessage, LIMITS } from "../../../src/events/core/validate";

const apiKey = { mode: "api_key" as const };
const accessToken = { mode: "access_token" as const, tokenUserId: "from-token" };

const problems = (raw: unknown, sender: Parameters<typeof validateEvent>[1] = apiKey) => {
  const result = validateEvent(raw, sender);
  return result.ok ? [] : result.errors;
};

describe("validateEvent: the envelope", () => {
  it("fills the defaults the SDKs rely on", () => {
    expect(validateEvent({ user_id: "u", event_name: "match-start" }, apiKey)).toEqual({
      ok: true,
      event: {
        userId: "u",
        teamId: null,
        eventName: "match-start",
        eventType: "single",
        sessionId: "persistent",
        metaData: {},
        eventId: null,
        credential: "api_key",
      },
    });
  });

  it("says which credential sent the event", () => {
    const sent = validateEvent({ event_name: "match-start" }, accessToken);
    expect(sent.ok && sent.event).toMatchObject({ userId: "from-token", credential: "access_token" });
  });

  it("treats null and empty team and session ids as absent", () => {
    const result = validateEvent(
      { user_id: "u", event_name: "x", team_id: "", session_id: null, event_type: null, meta_data: null },
      apiKey,
    );
    expect(result).toMatchObject({
      ok: true,
      event: { teamId: null, sessionId: "persistent", eventType: "single", metaData: {} },
    });
  });

  it("takes the user from the access token and refuses one in the body", () => {
    expect(validateEvent({ event_name: "x" }, accessToken)).toMatchObject({
      ok: true,
      event: { userId: "from-token" },
    });
    expect(validateEvent({ event_name: "x", user_id: null }, accessToken)).toMatchObject({
      ok: true,
      event: { userId: "from-token" },
    });
    expect(problems({ event_name: "x", user_id: "u" }, accessToken)).toEqual([
      { field: "user_id", problem: "must not be sent with an access token: the token names the user" },
    ]);
  });

  it("requires a user_id with an API key, as a non-empty string", () => {
    expect(problems({ event_name: "x" })).toEqual([
      { field: "user_id", problem: "is required when sending with an API key" },
    ]);
    expect(problems({ event_name: "x", user_id: "" })).toEqual([{ field: "user_id", problem: "must not be empty" }]);
    expect(problems({ event_name: "x", user_id: 42 })).toEqual([
      { field: "user_id", problem: "must be a string, not an integer" },
    ]);
  });

  it("checks names, types, lengths and event ids", () => {
    expect(problems({ user_id: "u" })).toEqual([{ field: "event_name", problem: "is required" }]);
    expect(problems({ user_id: "u", event_name: "" })).toEqual([{ field: "event_name", problem: "is required" }]);
    expect(problems({ user_id: "u", event_name: 3 })).toEqual([
      { field: "event_name", problem: "must be a string, not an integer" },
    ]);
    expect(problems({ user_id: "u", event_name: "x".repeat(LIMITS.eventNameLength + 1) })).toEqual([
      { field: "event_name", problem: "must be at most 100 characters" },
    ]);
    expect(problems({ user_id: "u", event_name: " kill" })).toEqual([
      { field: "event_name", problem: "must not start or end with a space" },
    ]);
    expect(problems({ user_id: "u", event_name: "kill\t" })).toEqual([
      { field: "event_name", problem: "must not start or end with a space" },
    ]);
    expect(problems({ user_id: "u", event_name: "kill\u0007" })).toEqual([
      { field: "event_name", problem: "must not contain control characters" },
    ]);
    expect(problems({ user_id: "u", event_name: "Kill Enemy" })).toEqual([]);
    expect(problems({ user_id: "u", event_name: "x", event_type: "SINGLE" })).toEqual([
      { field: "event_type", problem: "must be 'single' or 'group'" },
    ]);
    expect(problems({ user_id: "u", event_name: "x", event_id: "" })).toEqual([
      { field: "event_id", problem: "must not be empty" },
    ]);
    expect(problems({ user_id: "u", event_name: "x", session_id: ["a"] })).toEqual([
      { field: "session_id", problem: "must be a string, not an array" },
    ]);
  });

  it("refuses a body that is not an object", () => {
    for (const [raw, what] of [
      [null, "null"],
      [[], "an array"],
      ["text", "a string"],
      [5, "an integer"],
    ] as const) {
      expect(problems(raw)).toEqual([{ field: "body", problem: `must be a JSON object, not ${what}` }]);
    }
  });
});

describe("validateEvent: meta data of predefined events", () => {
  const kill = (meta: unknown) => ({ user_id: "u", event_name: "kill-enemy", meta_data: meta });

  it("keeps only the event's own fields", () => {
    expect(validateEvent(kill({ amount: 1, weapon_used: "axe", wings: 2.5, color: true }), apiKey)).toMatchObject({
      ok: true,
      event: { metaData: { amount: 1, weapon_used: "axe" } },
    });
  });

  it("names every problem of a number field", () => {
    const cases: [unknown, string][] = [
      [1.5, "must be an integer, not a float (scale it to an integer, for example times 1000)"],
      ["1", "must be an integer, not a string"],
      [true, "must be an integer, not a boolean"],
      [{ n: 1 }, "must be an integer, not an object"],
      [[1], "must be an integer, not an array"],
      [2 ** 53, "must be a safe integer (between -9007199254740991 and 9007199254740991)"],
      [-(2 ** 53), "must be a safe integer (between -9007199254740991 and 9007199254740991)"],
    ];
    for (const [value, problem] of cases)
      expect(problems(kill({ amount: value }))).toEqual([{ field: "meta_data.amount", problem }]);
  });

  it("accepts negative and zero integers", () => {
    expect(validateEvent(kill({ amount: 0, required_time: -3 }), apiKey)).toMatchObject({
      ok: true,
      event: { metaData: { amount: 0, required_time: -3 } },
    });
  });

  it("names a non-string in a string field, and a string that is too long", () => {
    expect(problems(kill({ amount: 1, realm: 3 }))).toEqual([
      { field: "meta_data.realm", problem: "must be a string, not an integer" },
    ]);
    expect(problems(kill({ amount: 1, realm: "r".repeat(1001) }))).toEqual([
      { field: "meta_data.realm", problem: "must be at most 1000 characters" },
    ]);
  });

  it("requires the required fields; null counts as missing", () => {
    expect(problems(kill({ amount: null }))).toEqual([
      { field: "meta_data.amount", problem: "is required for event 'kill-enemy'" },
    ]);
    expect(problems({ user_id: "u", event_name: "kill-enemy" })).toEqual([
      { field: "meta_data.amount", problem: "is required for event 'kill-enemy'" },
    ]);
  });

  it("takes metadata as the alias and names it in problems", () => {
    expect(validateEvent({ user_id: "u", event_name: "kill-enemy", metadata: { amount: 4 } }, apiKey)).toMatchObject({
      ok: true,
      event: { metaData: { amount: 4 } },
    });
    expect(problems({ user_id: "u", event_name: "kill-enemy", metadata: { amount: "4" } })).toEqual([
      { field: "metadata.amount", problem: "must be an integer, not a string" },
    ]);
    // meta_data wins when both are sent.
    expect(
      validateEvent(
        { user_id: "u", event_name: "kill-enemy", meta_data: { amount: 1 }, metadata: { amount: 9 } },
        apiKey,
      ),
    ).toMatchObject({
      ok: true,
      event: { metaData: { amount: 1 } },
    });
  });

  it("does not take inherited object keys for event names", () => {
    expect(validateEvent({ user_id: "u", event_name: "constructor", meta_data: { a: 1 } }, apiKey)).toMatchObject({
      ok: true,
      event: { metaData: { a: 1 } },
    });
  });
});

describe("validateEvent: meta data of custom events", () => {
  const custom = (meta: unknown) => ({ user_id: "u", event_name: "open-chest", meta_data: meta });

  it("keeps integers and strings, drops nulls", () => {
    expect(validateEvent(custom({ a: 1, b: "x", c: null }), apiKey)).toMatchObject({
      ok: true,
      event: { metaData: { a: 1, b: "x" } },
    });
  });

  it("refuses floats, booleans and objects", () => {
    expect(problems(custom({ a: 0.1, b: false, c: {} }))).toEqual([
      {
        field: "meta_data.a",
        problem: "must be an integer or a string, not a float (scale it to an integer, for example times 1000)",
      },
      { field: "meta_data.b", problem: "must be an integer or a string, not a boolean" },
      { field: "meta_data.c", problem: "must be an integer or a string, not an object" },
    ]);
  });

  it("bounds the number and the names of properties", () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect(problems(custom(many))).toEqual([{ field: "meta_data", problem: "must have at most 50 properties" }]);
    expect(problems(custom({ ["k".repeat(65)]: 1 }))).toEqual([
      { field: "meta_data", problem: "property names must be at most 64 characters" },
    ]);
  });
});

describe("invalidEventMessage", () => {
  it("lists every problem after its field", () => {
    expect(
      invalidEventMessage([
        { field: "a", problem: "is required" },
        { field: "b.c", problem: "must be a string" },
      ]),
    ).toBe("Invalid event: a is required; b.c must be a string");
  });
});
