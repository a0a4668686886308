import { describe, expect, it } from "vitest";
import { describeCatalog, fieldType, predefinedEvent, PREDEFINED_EVENTS } from "../../../src/rules/predefined-events";
import { retentionDays } from "../../../src/events/retention";

describe("the catalog data", () => {
  it("has 64 events, in the spec's order from achieve-score to win-bounty", () => {
    const names = Object.keys(PREDEFINED_EVENTS);
    expect(names).toHaveLength(64);
    expect(names[0]).toBe("achieve-score");
    expect(names.at(-1)).toBe("win-bounty");
  });

  it("never lists a field both as required and optional", () => {
    for (const { required, optional } of Object.values(PREDEFINED_EVENTS)) {
      expect(required.filter((f) => optional.includes(f))).toEqual([]);
    }
  });

  it("writes RT and TC out", () => {
    expect(predefinedEvent("finish-laps")).toEqual({
      required: ["lap_position", "required_time"],
      optional: ["time_condition"],
    });
    expect(fieldType("required_time")).toBe("number");
    expect(fieldType("time_condition")).toBe("string");
  });

  it("knows no inherited names", () => {
    expect(predefinedEvent("toString")).toBeUndefined();
    expect(predefinedEvent("__proto__")).toBeUndefined();
  });

  it("is described in SCILL's EventDescription shape", () => {
    expect(describeCatalog().find((e) => e.event_name === "trigger-event")).toEqual({
      event_name: "trigger-event",
      required_properties: [{ property_name: "amount", property_type: "number" }],
      optional_properties: [
        { property_name: "event_type", property_type: "string" },
        { property_name: "player_character", property_type: "string" },
      ],
    });
  });
});

describe("retentionDays", () => {
  it("reads ANALYTICS_RETENTION_DAYS with a default of 90", () => {
    expect(retentionDays("30")).toBe(30);
    expect(retentionDays(undefined)).toBe(90);
    expect(retentionDays("")).toBe(90);
    expect(retentionDays("-1")).toBe(90);
    expect(retentionDays("many")).toBe(90);
  });
});
