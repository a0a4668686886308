import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";
import { expect, it } from "vitest";
import { analyticsRow, countNewEventsSql, insertEventsSql } from "../../support/analytics-before-0008";

// Test-only bindings set in vitest.config.ts, not part of the Worker's Env.
const { TEST_MIGRATIONS, MIGRATION_TEST_DB: db } = env as unknown as {
  TEST_MIGRATIONS: D1Migration[];
  MIGRATION_TEST_DB: D1Database;
};

const HOUR = 3_600_000;

const oldRow = (id: string, appId: number, eventName: string, receivedAt: number) =>
  analyticsRow(id, {
    appId: String(appId),
    userId: "u1",
    teamId: null,
    eventName,
    eventType: "single",
    sessionId: "s1",
    metaData: { amount: 1 },
    eventId: null,
    receivedAt,
    credential: "api_key",
  });
const oldBatch = (rows: ReturnType<typeof oldRow>[]) => {
  const json = JSON.stringify(rows);
  return db.batch([db.prepare(countNewEventsSql()).bind(json), db.prepare(insertEventsSql()).bind(json)]);
};

it("0008 moves the counts of the raw rows into event_counts, drops the raw table, and keeps the Worker before it working", async () => {
  await applyD1Migrations(
    db,
    TEST_MIGRATIONS.filter((m) => m.name < "0008"),
  );
  const { app_id: appId } = (await db
    .prepare("INSERT INTO apps (name, created_at, updated_at) VALUES ('Old', 'x', 'x') RETURNING app_id")
    .first<{ app_id: number }>())!;
  const h10 = Date.parse("2025-01-01T10:00:00Z");
  const recent = Math.floor(Date.now() / HOUR) * HOUR;
  await oldBatch([
    oldRow("m1", appId, "kill", h10),
    oldRow("m2", appId, "kill", h10 + HOUR - 1),
    oldRow("m3", appId, "loot", h10 + 5),
    oldRow("m4", appId, "kill", h10 + HOUR),
    oldRow("m5", appId, "kill", recent),
  ]);

  await applyD1Migrations(db, TEST_MIGRATIONS);

  const counts = () =>
    db
      .prepare("SELECT hour, event_name, count FROM event_counts ORDER BY hour, event_name")
      .all()
      .then((r) => r.results);
  expect(await counts()).toEqual([
    { hour: h10, event_name: "kill", count: 2 },
    { hour: h10, event_name: "loot", count: 1 },
    { hour: h10 + HOUR, event_name: "kill", count: 1 },
    { hour: recent, event_name: "kill", count: 1 },
  ]);
  expect(await db.prepare("SELECT type FROM sqlite_master WHERE name = 'analytics_events'").first()).toEqual({
    type: "view",
  });
  // Only recent messages can still be redelivered: older receipts would expire at once.
  expect((await db.prepare("SELECT message_id FROM event_receipts").all()).results).toEqual([{ message_id: "m5" }]);

  // The Worker before 0008, still serving: a redelivered message counts nothing, a new one counts once.
  await oldBatch([oldRow("m5", appId, "kill", recent), oldRow("m6", appId, "kill", recent + 1)]);
  await oldBatch([oldRow("m6", appId, "kill", recent + 1)]);
  expect((await counts()).at(-1)).toEqual({ hour: recent, event_name: "kill", count: 2 });
  const usage = await db
    .prepare("SELECT month, count FROM usage_counters WHERE metric = 'events' ORDER BY month")
    .all();
  expect(usage.results).toEqual([
    { month: "2025-01", count: 4 },
    { month: new Date(recent).toISOString().slice(0, 7), count: 2 },
  ]);
});
