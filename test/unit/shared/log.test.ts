import { afterEach, describe, expect, it, vi } from "vitest";
import { configureLog, logError, logFormatOf, logLine, prettyLine } from "../../../src/shared/log";

afterEach(() => {
  configureLog({});
  vi.restoreAllMocks();
});

describe("logFormatOf", () => {
  it("is pretty only when LOG_FORMAT says so, json otherwise", () => {
    expect(logFormatOf("pretty")).toBe("pretty");
    expect(logFormatOf(" Pretty ")).toBe("pretty");
    for (const raw of [undefined, "", "json", "JSON", "text", "prety"]) expect(logFormatOf(raw)).toBe("json");
  });
});

describe("prettyLine", () => {
  it("writes the message and its fields as key=value, the level unless info", () => {
    expect(prettyLine("info", "webhook delivery cancelled", { source: "queue", app_id: "7", message_id: "m-1" })).toBe(
      "webhook delivery cancelled source=queue app_id=7 message_id=m-1",
    );
    expect(
      prettyLine("warn", "mqtt queue full, message dropped", {
        conn_id: 3,
        missing: undefined,
        none: null,
        list: ["a", 1],
      }),
    ).toBe('warn: mqtt queue full, message dropped conn_id=3 list=["a",1]');
  });

  it("names an error and puts its stack on the lines below", () => {
    const error = {
      name: "Error",
      message: "D1 is on fire",
      stack: "Error: D1 is on fire\n    at run (a.ts:1:1)\n    at main (b.ts:2:2)",
    };
    expect(prettyLine("error", "unexpected error", { request_id: "r-1", error })).toBe(
      "error: unexpected error request_id=r-1 error=Error: D1 is on fire\n    at run (a.ts:1:1)\n    at main (b.ts:2:2)",
    );
    expect(prettyLine("error", "failed", { error: { name: "string", message: "boom" } })).toBe(
      "error: failed error=string: boom",
    );
  });
});

describe("logLine", () => {
  it("writes one object by default and one line of text once LOG_FORMAT is pretty", () => {
    const written: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => void written.push(line));
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void written.push(line));
    logLine("info", "event dropped", { app_id: "1" });
    configureLog({ LOG_FORMAT: "pretty" });
    logLine("info", "event dropped", { app_id: "1" });
    logError("unexpected error", "not an Error", { route: "/x" });
    configureLog({ LOG_FORMAT: "json" });
    logLine("info", "event dropped", { app_id: "2" });
    expect(written).toEqual([
      { level: "info", msg: "event dropped", app_id: "1" },
      "event dropped app_id=1",
      "error: unexpected error route=/x error=string: not an Error",
      { level: "info", msg: "event dropped", app_id: "2" },
    ]);
  });
});
