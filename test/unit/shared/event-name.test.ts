import { describe, expect, it } from "vitest";
import { EVENT_NAME_MAX_LENGTH, EventName, eventNameProblem } from "../../../src/shared/event-name";
import { problemsOfIssues } from "../../../src/shared/problems";

const schemaProblems = (name: unknown) => {
  const result = EventName.safeParse(name);
  return result.success
    ? []
    : problemsOfIssues(result.error.issues, { input: name, target: "event_name" }).map((p) => p.problem);
};

describe("the one rule of event names", () => {
  it("takes any name, predefined or custom, with inner spaces and any script", () => {
    for (const name of ["kill-enemy", "Kill Enemy", "击杀", "a", "x".repeat(EVENT_NAME_MAX_LENGTH), "naïve ☄ event"]) {
      expect([name, eventNameProblem(name), schemaProblems(name)]).toEqual([name, undefined, []]);
    }
  });

  it("refuses empty and long names, spaces at either end and control characters, alike as a check and as a schema", () => {
    const cases: [string, string][] = [
      ["", "must not be empty"],
      ["x".repeat(EVENT_NAME_MAX_LENGTH + 1), "must be at most 100 characters"],
      [" kill", "must not start or end with a space"],
      ["kill ", "must not start or end with a space"],
      ["kill\u00a0", "must not start or end with a space"],
      ["\nkill", "must not start or end with a space"],
      ["kill\u0007", "must not contain control characters"],
      ["ki\u0000ll", "must not contain control characters"],
      ["ki\u007fll", "must not contain control characters"],
      ["ki\u0085ll", "must not contain control characters"],
    ];
    for (const [name, problem] of cases) {
      expect([JSON.stringify(name), eventNameProblem(name), schemaProblems(name)]).toEqual([
        JSON.stringify(name),
        problem,
        [problem],
      ]);
    }
    expect(schemaProblems(3)).toEqual(["must be a string, not a number"]);
  });
});
