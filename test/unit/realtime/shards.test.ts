import { describe, expect, it } from "vitest";
import { brokerShards, DEFAULT_BROKER_SHARDS } from "../../../src/realtime/shards";

describe("broker shards", () => {
  it("default to a number sized for growth, and take MQTT_BROKER_SHARDS when it is a positive integer", () => {
    expect(DEFAULT_BROKER_SHARDS).toBe(32);
    expect(brokerShards(undefined)).toBe(32);
    expect(brokerShards("64")).toBe(64);
    expect(brokerShards("1")).toBe(1);
    for (const wrong of ["", "0", "-2", "1.5", "many"]) expect(brokerShards(wrong)).toBe(32);
  });
});
