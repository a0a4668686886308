import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  compactRows,
  editRows,
  errorsOf,
  errorsUnder,
  FormReader,
  formValuesOf,
  problemsOfIssues,
  rowsOf,
  withRows,
} from "../../../src/kit/console/core/form";

describe("form values", () => {
  it("keeps the last value of a name and ignores files", () => {
    expect(formValuesOf({ a: "1", b: ["1", "2"], c: new File(["x"], "x.txt") })).toEqual({ a: "1", b: "2" });
  });

  it("reads rows in index order and writes them back numbered from 0", () => {
    const values = {
      "filters.10.field": "b",
      "filters.2.field": "a",
      "filters.2.op": "eq",
      "filters.x.field": "ignored",
      other: "kept",
    };
    expect(rowsOf(values, "filters")).toEqual([{ field: "a", op: "eq" }, { field: "b" }]);
    expect(withRows(values, "filters", [{ field: "z" }])).toEqual({ "filters.0.field": "z", other: "kept" });
  });

  it("drops rows whose given fields are all empty, so that row numbers match the API's paths", () => {
    const values = {
      "filters.0.field": "",
      "filters.0.op": "gt",
      "filters.0.value": " ",
      "filters.1.field": "realm",
      "filters.1.op": "eq",
    };
    expect(compactRows(values, "filters", ["field", "value"])).toEqual({
      "filters.0.field": "realm",
      "filters.0.op": "eq",
    });
  });

  it("adds and removes rows, also of nested lists, and tells when neither was asked", () => {
    const empty = (list: string) => ({ [`${list.split(".").pop()}`]: "" });
    expect(editRows({ "challenges.0.filters.0.field": "a", _add: "challenges.0.filters" }, empty)).toMatchObject({
      "challenges.0.filters.0.field": "a",
      "challenges.0.filters.1.filters": "",
    });
    expect(editRows({ "x.0.a": "1", "x.1.a": "2", "x.2.a": "3", _remove: "x.1" }, empty)).toMatchObject({
      "x.0.a": "1",
      "x.1.a": "3",
    });
    expect(editRows({ "x.0.a": "1", _remove: "x" }, empty)).toEqual({ "x.0.a": "1", _remove: "x" });
    expect(editRows({ "x.0.a": "1" }, empty)).toBeNull();
  });
});

describe("problems", () => {
  it("groups problems by field and finds those of a field and below it, each as a sentence naming its field", () => {
    const errors = errorsOf([
      { field: "challenge_name", problem: "is required" },
      { field: "challenge_name.xx", problem: "keys must be language codes" },
      { field: "challenge_goal", problem: "must not be negative" },
      { field: "document", problem: "Line 3: leaderboards[0].event_name is required" },
      { field: "document", problem: "catalog.yaml is not UTF-8 text" },
    ]);
    expect(errorsUnder(errors, "document")).toEqual([
      "Line 3: leaderboards[0].event_name is required",
      "catalog.yaml is not UTF-8 text",
    ]);
    expect(errorsUnder(errors, "challenge_name")).toEqual([
      "challenge_name is required",
      "challenge_name.xx: keys must be language codes",
    ]);
    expect(errorsUnder(errors, "challenge")).toEqual([]);
  });

  it("names zod's problems as the API does, and an empty value as required", () => {
    const schema = z.object({
      goal: z.number().min(0, "must not be negative"),
      name: z.string(),
      filters: z.array(z.object({ op: z.enum(["eq"]) })),
    });
    const input = { goal: -1, filters: [{ op: "like" }] };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(problemsOfIssues(result.error!.issues, input)).toEqual([
      { field: "goal", problem: "must not be negative" },
      { field: "name", problem: "is required" },
      { field: "filters.0.op", problem: "must be eq" },
    ]);
  });

  it("reads whole numbers and checkboxes, names what it cannot read, and leaves a number past the safe integers to the schema", () => {
    const form = new FormReader({ a: " 42 ", b: "", c: "4.5", d: "99999999999999999999", flag: "on", off: "" });
    expect([form.integer("a"), form.integer("b"), form.integer("c"), form.integer("d")]).toEqual([
      42,
      undefined,
      undefined,
      1e20,
    ]);
    expect([form.checked("flag"), form.checked("off"), form.checked("missing")]).toEqual([true, false, false]);
    expect(form.problems).toEqual([{ field: "c", problem: "must be a whole number" }]);
    const goal = z.object({ d: z.number().int().min(0) }).safeParse({ d: form.integer("d") });
    expect(problemsOfIssues(goal.error!.issues, { d: 1e20 })).toEqual([
      { field: "d", problem: "must be at most 9007199254740991" },
    ]);
    expect([form.optionalText("b"), form.nullableText("b"), form.text("a")]).toEqual([undefined, null, "42"]);
  });
});
