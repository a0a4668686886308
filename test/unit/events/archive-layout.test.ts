import { describe, expect, it } from "vitest";
import {
  appFolder,
  archiveLine,
  byPartition,
  hourEnd,
  hourFolder,
  hourStart,
  parseArchiveKey,
  partitionFolder,
} from "../../../src/events/core/archive-layout";
import type { UserEvent } from "../../../src/user/event";

const at = (iso: string) => Date.parse(iso);
const event = (appId: string, receivedAt: number, extra: Partial<UserEvent> = {}): UserEvent => ({
  appId,
  userId: "u1",
  teamId: null,
  eventName: "kill-enemy",
  eventType: "single",
  sessionId: "persistent",
  metaData: { amount: 3 },
  eventId: null,
  receivedAt,
  credential: "api_key",
  ...extra,
});

describe("archive layout", () => {
  it("puts an event in the folder of its app, UTC date and hour", () => {
    expect(partitionFolder("12", at("2025-01-31T09:59:59.999Z"))).toBe("events/app=12/date=2025-01-31/hour=09/");
    expect(partitionFolder("12", at("2025-02-01T00:00:00Z"))).toBe("events/app=12/date=2025-02-01/hour=00/");
    expect(appFolder("7")).toBe("events/app=7/");
    expect(hourFolder(at("2025-12-31T23:00:00Z"))).toBe("date=2025-12-31/hour=23/");
  });

  it("rounds instants to the hours that contain them", () => {
    expect(hourStart(at("2025-01-31T09:30:00Z"))).toBe(at("2025-01-31T09:00:00Z"));
    expect(hourEnd(at("2025-01-31T09:30:00Z"))).toBe(at("2025-01-31T10:00:00Z"));
    expect(hourStart(at("2025-01-31T09:00:00Z"))).toBe(at("2025-01-31T09:00:00Z"));
    expect(hourEnd(at("2025-01-31T09:00:00Z"))).toBe(at("2025-01-31T09:00:00Z"));
  });

  it("parses the keys it writes, and nothing else", () => {
    const name = "0123456789abcdef0123456789abcdef.ndjson.gz";
    expect(parseArchiveKey(`events/app=12/date=2025-01-31/hour=09/${name}`)).toEqual({
      appId: "12",
      hour: at("2025-01-31T09:00:00Z"),
      path: `date=2025-01-31/hour=09/${name}`,
    });
    for (const key of [
      `events/app=12/date=2025-02-30/hour=09/${name}`,
      `events/app=12/date=2025-01-31/hour=24/${name}`,
      `events/app=x/date=2025-01-31/hour=09/${name}`,
      `events/app=12/date=2025-01-31/hour=09/${name.toUpperCase()}`,
      `events/app=12/date=2025-01-31/hour=09/../${name}`,
      `other/app=12/date=2025-01-31/hour=09/${name}`,
    ]) {
      expect(parseArchiveKey(key), key).toBeNull();
    }
  });

  it("writes a line with the API's field names and an ISO time, naming the player by their pseudonym only", () => {
    const line = archiveLine({
      id: "m1",
      event: event("12", at("2025-01-31T09:00:00Z"), { teamId: "red", eventId: "e1" }),
      userRef: "5f0c9a",
    });
    expect(JSON.parse(line)).toEqual({
      id: "m1",
      app_id: "12",
      user_ref: "5f0c9a",
      team_id: "red",
      event_name: "kill-enemy",
      event_type: "single",
      session_id: "persistent",
      event_id: "e1",
      meta_data: { amount: 3 },
      received_at: "2025-01-31T09:00:00.000Z",
    });
    expect(line).not.toContain("u1");
    expect(line).not.toContain("\n");
  });

  it("groups records by app and hour, keeping their order", () => {
    const records = [
      { id: "a", event: event("1", at("2025-01-31T09:10:00Z")), userRef: "r" },
      { id: "b", event: event("2", at("2025-01-31T09:20:00Z")), userRef: "r" },
      { id: "c", event: event("1", at("2025-01-31T10:00:00Z")), userRef: "r" },
      { id: "d", event: event("1", at("2025-01-31T09:59:00Z")), userRef: "r" },
    ];
    const groups = byPartition(records);
    expect([...groups].map(([folder, group]) => [folder, group.map((r) => r.id)])).toEqual([
      ["events/app=1/date=2025-01-31/hour=09/", ["a", "d"]],
      ["events/app=2/date=2025-01-31/hour=09/", ["b"]],
      ["events/app=1/date=2025-01-31/hour=10/", ["c"]],
    ]);
  });
});
