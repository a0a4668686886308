import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { version } from "../../../package.json";
import { runScheduled } from "../../../src/cron";
import { getNow } from "../../../src/shared/clock";
import { brokerTables } from "../../../src/realtime/broker-tables";
import { DEVELOPMENT_SECRET_VALUES } from "../../../src/shared/secrets";
import { EXPECTED_D1_MIGRATION } from "../../../src/ops/expected-migration";
import { USER_OBJECT_TABLES } from "../../../src/wiring/user-areas";
import { ADMIN, call, callWith } from "../helpers";
import { PRODUCTION } from "./support";

const build = { id: expect.any(String), tag: null, timestamp: expect.any(String) };

describe("GET /health", () => {
  it("answers liveness and version without a credential", async () => {
    const r = await call("GET", "/health");
    expect(r).toMatchObject({ status: 200, body: { status: "ok", version: { service: version, build } } });
    expect(Object.keys(r.body)).toEqual(["status", "version"]);
    expect(r.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("GET /api/v1/admin/status", () => {
  it("needs the admin token", async () => {
    expect((await call("GET", "/api/v1/admin/status")).status).toBe(401);
  });

  it("answers version, storage, schemas, queues, the cron's last run and no warning in development", async () => {
    const before = await call("GET", "/api/v1/admin/status", { token: ADMIN });
    expect(before).toEqual({
      status: 200,
      headers: expect.anything(),
      body: {
        environment: "development",
        version: { service: version, build },
        d1: { reachable: true, latest_migration: EXPECTED_D1_MIGRATION, expected_migration: EXPECTED_D1_MIGRATION },
        schemas: {
          user_object: {
            achievements: 1,
            events: 5,
            "event-ids": 2,
            "event-rate": 1,
            erasure: 1,
            battlepasses: 2,
            challenges: 3,
            "leaderboard-pace": 1,
            leagues: 1,
            outbox: 1,
            points: 1,
            realtime: 1,
            seen: 2,
            streaks: 1,
          },
          broker: { broker: 2 },
        },
        queues: { WEBHOOKS: true, BACKGROUND: true },
        cron: { last_run: null },
        warnings: [],
      },
    });
    // The versions are the areas' own migration counts.
    expect(before.body.schemas.user_object).toEqual(
      Object.fromEntries(USER_OBJECT_TABLES.map((a) => [a.area, a.migrations.length])),
    );
    expect(brokerTables.migrations).toHaveLength(2);

    const now = await getNow(env);
    await runScheduled(env, now);
    const after = await call("GET", "/api/v1/admin/status", { token: ADMIN });
    expect(after.body.cron.last_run).toEqual({
      started_at: new Date(now).toISOString(),
      finished_at: expect.any(String),
      failed_tasks: [],
    });
    expect(Date.parse(after.body.cron.last_run.finished_at)).toBeGreaterThanOrEqual(now);
  });

  it("warns about development switches and a weak topic secret in production", async () => {
    const settings = {
      ...PRODUCTION,
      DEV_CLOCK: "on",
      ALLOW_LOOPBACK_WEBHOOKS: "on",
      TOPIC_SECRET: DEVELOPMENT_SECRET_VALUES.TOPIC_SECRET,
    };
    const r = await callWith(settings, "GET", "/api/v1/admin/status", { token: settings.ADMIN_TOKEN });
    expect(r.status).toBe(200);
    expect(r.body.environment).toBe("production");
    expect(r.body.warnings).toEqual([
      'DEV_CLOCK is "on" outside development: anyone with the admin token can move the service\'s clock. Set DEV_CLOCK = "off".',
      'ALLOW_LOOPBACK_WEBHOOKS is "on" outside development: webhooks may be sent to plain-http loopback addresses. Set ALLOW_LOOPBACK_WEBHOOKS = "off".',
      "TOPIC_SECRET is the development value: topics handed out are guessable by anyone who reads the code. Set a random secret of at least 32 characters with `wrangler secret put TOPIC_SECRET`; the topics handed out so far stop working, and clients fetch new ones.",
    ]);
    expect(
      (await callWith(PRODUCTION, "GET", "/api/v1/admin/status", { token: PRODUCTION.ADMIN_TOKEN })).body.warnings,
    ).toEqual([]);
  });

  it("reports a missing queue binding and a D1 behind the code", async () => {
    const applied = (
      await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()
    ).results.map((m) => m.name);
    expect(applied.at(-1)).toBe(EXPECTED_D1_MIGRATION);
    const previous = applied.at(-2);
    await env.DB.prepare("DELETE FROM d1_migrations WHERE name = ?").bind(EXPECTED_D1_MIGRATION).run();
    const r = await callWith({ ...PRODUCTION, BACKGROUND: undefined }, "GET", "/api/v1/admin/status", {
      token: PRODUCTION.ADMIN_TOKEN,
    });
    expect(r.body.queues).toEqual({ WEBHOOKS: true, BACKGROUND: false });
    expect(r.body.d1).toEqual({
      reachable: true,
      latest_migration: previous,
      expected_migration: EXPECTED_D1_MIGRATION,
    });
    expect(r.body.warnings).toEqual([
      `D1 migrations are behind the code (latest applied: ${previous}, expected: ${EXPECTED_D1_MIGRATION}). Run \`npm run deploy\`, or \`wrangler d1 migrations apply DB --remote\`.`,
      "The queue binding BACKGROUND is missing: check [[queues.producers]] in wrangler.toml.",
    ]);
  });
});
