import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CRON_STALE_MS, statusWarnings, type StatusFacts } from "../../../src/ops/core/warnings";
import { EXPECTED_D1_MIGRATION } from "../../../src/ops/expected-migration";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const healthy: StatusFacts = {
  development: false,
  devClock: false,
  loopbackWebhooks: false,
  weakTopicSecret: null,
  d1: { reachable: true, latestMigration: "0009_cron_runs.sql" },
  expectedMigration: "0009_cron_runs.sql",
  missingQueues: [],
  cron: { started_at: "2026-11-24T11:59:00.000Z", finished_at: "2026-11-24T11:59:00.120Z", failed_tasks: [] },
};

describe("statusWarnings", () => {
  it("is empty when nothing is unsafe or broken", () => {
    expect(statusWarnings(healthy, NOW)).toEqual([]);
    expect(statusWarnings({ ...healthy, cron: null }, NOW)).toEqual([]);
  });

  it("names development switches left on outside development", () => {
    expect(statusWarnings({ ...healthy, devClock: true, loopbackWebhooks: true }, NOW)).toEqual([
      'DEV_CLOCK is "on" outside development: anyone with the admin token can move the service\'s clock. Set DEV_CLOCK = "off".',
      'ALLOW_LOOPBACK_WEBHOOKS is "on" outside development: webhooks may be sent to plain-http loopback addresses. Set ALLOW_LOOPBACK_WEBHOOKS = "off".',
    ]);
    expect(statusWarnings({ ...healthy, development: true, devClock: true, loopbackWebhooks: true }, NOW)).toEqual([]);
  });

  it("says when storage does not match the code", () => {
    expect(statusWarnings({ ...healthy, d1: { reachable: true, latestMigration: "0006_webhooks.sql" } }, NOW)).toEqual([
      "D1 migrations are behind the code (latest applied: 0006_webhooks.sql, expected: 0009_cron_runs.sql). Run `npm run deploy`, or `wrangler d1 migrations apply DB --remote`.",
    ]);
    expect(statusWarnings({ ...healthy, d1: { reachable: true, latestMigration: null } }, NOW)[0]).toMatch(
      /^D1 migrations are behind the code \(latest applied: none,/,
    );
    expect(statusWarnings({ ...healthy, d1: { reachable: true, latestMigration: "0010_later.sql" } }, NOW)).toEqual([]);
    expect(statusWarnings({ ...healthy, d1: { reachable: false, error: "D1_ERROR: timed out" } }, NOW)).toEqual([
      "D1 is not reachable: D1_ERROR: timed out",
    ]);
    expect(statusWarnings({ ...healthy, missingQueues: ["WEBHOOKS"] }, NOW)).toEqual([
      "The queue binding WEBHOOKS is missing: check [[queues.producers]] in wrangler.toml.",
    ]);
  });

  it("reports a failing or stopped cron", () => {
    const failed = { ...healthy.cron!, failed_tasks: ["event-retention", "battle-pass-expiry"] };
    expect(statusWarnings({ ...healthy, cron: failed }, NOW)).toEqual([
      'The cron\'s last run (2026-11-24T11:59:00.000Z) failed in: event-retention, battle-pass-expiry. Its log lines have source "cron".',
    ]);
    const stale = { ...healthy.cron!, finished_at: new Date(NOW - CRON_STALE_MS - 1).toISOString() };
    expect(statusWarnings({ ...healthy, cron: stale }, NOW)).toEqual([
      `The cron has not run since ${stale.finished_at}: check the Worker's cron trigger.`,
    ]);
    expect(statusWarnings({ ...healthy, development: true, cron: stale }, NOW)).toEqual([]);
  });

  it("passes the weak topic secret on with what to do", () => {
    expect(statusWarnings({ ...healthy, weakTopicSecret: "TOPIC_SECRET is shorter than 32 characters" }, NOW)).toEqual([
      "TOPIC_SECRET is shorter than 32 characters. Set a random secret of at least 32 characters with `wrangler secret put TOPIC_SECRET`; the topics handed out so far stop working, and clients fetch new ones.",
    ]);
  });
});

describe("EXPECTED_D1_MIGRATION", () => {
  it("is the newest file in migrations/", () => {
    const files = readdirSync(new URL("../../../migrations", import.meta.url))
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(EXPECTED_D1_MIGRATION).toBe(files.at(-1));
  });
});
