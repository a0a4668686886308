import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  fieldLabel,
  invalidMessage,
  problemSentence,
  problemsOfIssue,
  problemsOfIssues,
} from "../../../src/shared/problems";

/** The problems of validating `input` with `schema`, as the API reports them. */
function problems(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a failure");
  return problemsOfIssues(result.error.issues, { input });
}
const sentences = (schema: z.ZodType, input: unknown) => problems(schema, input).map((p) => problemSentence(p));

describe("plain problems of zod's issues", () => {
  it("too_small: empty texts and lists, short texts, small numbers", () => {
    const s = z.object({
      name: z.string().min(1),
      code: z.string().min(3),
      list: z.array(z.string()).min(1),
      few: z.array(z.number()).min(2),
      n: z.number().min(1),
      m: z.number().min(0),
      p: z.number().gt(0),
      q: z.number().gt(5),
    });
    expect(sentences(s, { name: "", code: "ab", list: [], few: [1], n: 0, m: -1, p: 0, q: 5 })).toEqual([
      "name must not be empty",
      "code must be at least 3 characters",
      "list must not be empty",
      "few must have at least 2 items",
      "n must be at least 1",
      "m must not be negative",
      "p must be greater than 0",
      "q must be greater than 5",
    ]);
    expect(sentences(z.object({ pin: z.string().length(4) }), { pin: "1" })).toEqual([
      "pin must be exactly 4 characters",
    ]);
  });

  it("too_big: long texts and lists, large numbers, the safe-integer maximum", () => {
    const s = z.object({
      name: z.string().max(100),
      list: z.array(z.string()).max(2),
      n: z.number().max(10),
      m: z.number().lt(10),
      challenge_goal: z.number().int().min(0),
    });
    expect(sentences(s, { name: "x".repeat(101), list: ["a", "b", "c"], n: 11, m: 10, challenge_goal: 1e23 })).toEqual([
      "name must be at most 100 characters",
      "list must have at most 2 items",
      "n must be at most 10",
      "m must be less than 10",
      "challenge_goal must be at most 9007199254740991",
    ]);
  });

  it("too_big: a number past both a schema's maximum and the safe integers is told the schema's maximum only", () => {
    expect(sentences(z.object({ goal: z.number().int().max(1000) }), { goal: 1e23 })).toEqual([
      "goal must be at most 1000",
    ]);
    expect(sentences(z.object({ goal: z.number().int().min(-5) }), { goal: -1e23 })).toEqual([
      "goal must be at least -5",
    ]);
  });

  it("invalid_type: a missing value is required, a wrong one names both types", () => {
    const s = z.object({
      category_id: z.string(),
      goal: z.number().int(),
      on: z.boolean(),
      list: z.array(z.string()),
      obj: z.object({}),
      n: z.number(),
      t: z.string(),
    });
    expect(sentences(s, { goal: 1.5, on: "yes", list: "a", obj: [], n: Number.NaN, t: null })).toEqual([
      "category_id is required",
      "goal must be a whole number",
      "on must be true or false, not a string",
      "list must be an array, not a string",
      "obj must be an object, not an array",
      "n must be a finite number",
      "t must be a string, not null",
    ]);
    expect(sentences(z.object({ goal: z.number().int() }), { goal: "12" })).toEqual([
      "goal must be a number, not a string",
    ]);
  });

  it("invalid_type: without the input, zod's own message tells a missing value from a wrong one", () => {
    const s = z.object({ a: z.string(), b: z.string(), c: z.number() });
    const result = s.safeParse({ b: 3, c: [] });
    expect(problemsOfIssues(result.error!.issues)).toEqual([
      { field: "a", problem: "is required" },
      { field: "b", problem: "must be a string, not a number" },
      { field: "c", problem: "must be a number, not an array" },
    ]);
  });

  it("invalid_value: one of a list, or the one value allowed", () => {
    const s = z.object({
      webhook_type: z.enum(["challenge-changed", "battlepass-changed"]),
      version: z.literal(1),
      flag: z.literal(true),
    });
    expect(sentences(s, { webhook_type: "x", version: 2, flag: false })).toEqual([
      "webhook_type must be one of: challenge-changed, battlepass-changed",
      "version must be 1",
      "flag must be true",
    ]);
    expect(sentences(z.object({ op: z.enum(["eq", "in"]) }), {})).toEqual(["op is required"]);
  });

  it("invalid_format: dates, times, URLs, emails, prefixes and patterns", () => {
    const s = z.object({
      start_date: z.iso.datetime({ offset: true }),
      day: z.iso.date(),
      at: z.iso.time(),
      url: z.url(),
      email: z.email(),
      id: z.uuid(),
      key: z.string().regex(/^[a-z]+$/),
      topic: z.string().startsWith("a/"),
      file: z.string().endsWith(".json"),
      word: z.string().includes("x"),
    });
    expect(
      sentences(s, {
        start_date: "tomorrow",
        day: "1/2/2026",
        at: "9",
        url: "nope",
        email: "nope",
        id: "nope",
        key: "A",
        topic: "b",
        file: "c",
        word: "d",
      }),
    ).toEqual([
      "start_date must be a date-time such as 2026-01-01T00:00:00Z",
      "day must be a date such as 2026-01-01",
      "at must be a time such as 09:30:00",
      "url must be an absolute URL",
      "email must be an email address",
      "id must be a UUID",
      "key must match the pattern /^[a-z]+$/",
      'topic must start with "a/"',
      'file must end with ".json"',
      'word must contain "x"',
    ]);
  });

  it("not_multiple_of", () => {
    expect(sentences(z.object({ step: z.number().multipleOf(5) }), { step: 7 })).toEqual([
      "step must be a multiple of 5",
    ]);
  });

  it("unrecognized_keys: each unknown field by its own path", () => {
    const s = z.object({ challenges: z.array(z.object({ goal: z.number() }).strict()) }).strict();
    expect(problems(s, { challenges: [{ goal: 1, challenge_gaol: 2, colour: "red" }], extra: 1 })).toEqual([
      { field: "challenges.0.challenge_gaol", problem: "is not a known field" },
      { field: "challenges.0.colour", problem: "is not a known field" },
      { field: "extra", problem: "is not a known field" },
    ]);
  });

  it("invalid_union: the option of the value's type, or the types allowed", () => {
    const value = z.union([z.number().int(), z.string().max(3), z.array(z.string()).min(1)]);
    const s = z.object({ value });
    expect(sentences(s, { value: true })).toEqual(["value must be a number, a string or an array, not a boolean"]);
    expect(sentences(s, { value: "abcd" })).toEqual(["value must be at most 3 characters"]);
    expect(sentences(s, { value: [] })).toEqual(["value must not be empty"]);
    expect(sentences(s, {})).toEqual(["value is required"]);
    const kind = z.discriminatedUnion("kind", [z.object({ kind: z.literal("a") }), z.object({ kind: z.literal("b") })]);
    expect(sentences(z.object({ rule: kind }), { rule: { kind: "c" } })).toEqual(["rule.kind must be one of: a, b"]);
  });

  it("invalid_key: a record's key breaking its rule", () => {
    expect(sentences(z.object({ meta: z.record(z.string().max(2), z.number()) }), { meta: { long: 1 } })).toEqual([
      "meta.long is not an allowed key: keys must be at most 2 characters",
    ]);
    const languages = z.object({
      name: z.union([z.string(), z.record(z.string().regex(/^[a-z]{2}$/, "keys must be language codes"), z.string())]),
    });
    expect(sentences(languages, { name: { english: "x" } })).toEqual(["name.english: keys must be language codes"]);
  });

  it("custom: a refinement's own message is kept, zod's default is put in plain words", () => {
    const s = z
      .object({ start: z.number(), end: z.number(), x: z.string().refine((v) => v !== "x") })
      .superRefine((v, ctx) => {
        if (v.end <= v.start) ctx.addIssue({ code: "custom", message: "must be after start", path: ["end"] });
      });
    expect(sentences(s, { start: 2, end: 1, x: "x" })).toEqual(["x is not valid", "end must be after start"]);
  });

  it("keeps a message the schema gives to any check", () => {
    const s = z.object({
      key: z.string().regex(/^[a-z]+$/, "must be lower-case letters"),
      at: z.iso.datetime({ message: "must be a date-time" }),
      n: z.number().min(0, "must not be below zero"),
    });
    expect(sentences(s, { key: "A", at: "x", n: -1 })).toEqual([
      "key must be lower-case letters",
      "at must be a date-time",
      "n must not be below zero",
    ]);
  });

  it("names list items with their index, and the whole input by its target", () => {
    const s = z.object({ levels: z.array(z.object({ name: z.array(z.object({ text: z.string().min(1) })) })) });
    expect(problems(s, { levels: [{ name: [] }, { name: [{ text: "a" }, { text: "" }] }] })).toEqual([
      { field: "levels.1.name.1.text", problem: "must not be empty" },
    ]);
    expect(sentences(s, { levels: [{ name: [] }, { name: [{ text: "a" }, { text: "" }] }] })).toEqual([
      "levels[1].name[1].text must not be empty",
    ]);
    expect(problemsOfIssues(z.object({}).safeParse(3).error!.issues, { input: 3, target: "query" })).toEqual([
      { field: "query", problem: "must be an object, not a number" },
    ]);
    expect(problemsOfIssue({ code: "custom", path: [], message: "Invalid input" })).toEqual([
      { field: "body", problem: "is not valid" },
    ]);
  });
});

describe("sentences", () => {
  it("put the field first, brackets around list indexes", () => {
    expect(fieldLabel("levels.1.name")).toBe("levels[1].name");
    expect(fieldLabel("settings.backend_only_events.12")).toBe("settings.backend_only_events[12]");
    expect(fieldLabel("1.text")).toBe("[1].text");
    expect(fieldLabel("X-Actor")).toBe("X-Actor");
    expect(problemSentence({ field: "name", problem: "must not be empty" })).toBe("name must not be empty");
    expect(problemSentence({ field: "key", problem: "Challenge key 'a' is already used in this app" })).toBe(
      "Challenge key 'a' is already used in this app",
    );
    expect(
      problemSentence({ field: "challenges.2.key", problem: "'a' is the key of another challenge of this level" }),
    ).toBe("challenges[2].key: 'a' is the key of another challenge of this level");
    expect(
      invalidMessage("body", [
        { field: "name", problem: "must not be empty" },
        { field: "levels.0.key", problem: "is required" },
      ]),
    ).toBe("Invalid body: name must not be empty; levels[0].key is required");
  });
});
