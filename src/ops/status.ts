import { brokerTables } from "../realtime/channel";
import { describeError } from "../shared/log";
import { isDevelopment, weakTopicSecret } from "../shared/secrets";
import { USER_OBJECT_TABLES } from "../wiring/user-areas";
import type { AreaTables } from "../shared/object-tables";
import { statusWarnings, type StatusFacts } from "./core/warnings";
import { lastCronRun, MAINTENANCE_JOB, type CronRun } from "./cron-runs";
import { EXPECTED_D1_MIGRATION } from "./expected-migration";
import { buildOf, SERVICE_VERSION } from "./version";

/** The queue bindings the code sends to. */
const QUEUE_BINDINGS = ["WEBHOOKS", "BACKGROUND"] as const;

/** Schema version of each area of an object's SQLite storage: the number of its migrations. */
const schemaVersions = (areas: AreaTables[]) => Object.fromEntries(areas.map((a) => [a.area, a.migrations.length]));

async function probeD1(db: D1Database): Promise<StatusFacts["d1"]> {
  try {
    const row = await db.prepare("SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1").first<{ name: string }>();
    return { reachable: true, latestMigration: row?.name ?? null };
  } catch (err) {
    // No migrations table yet answers as no migration applied: D1 itself did answer.
    const { message } = describeError(err);
    if (/no such table/i.test(message)) return { reachable: true, latestMigration: null };
    return { reachable: false, error: message };
  }
}

/** The cron's last run; null before the first one, or while its table is not migrated yet. */
async function cronRun(db: D1Database): Promise<CronRun | null> {
  try {
    return await lastCronRun(db, MAINTENANCE_JOB);
  } catch {
    return null;
  }
}

/** `GET /api/v1/admin/status`: what runs, whether its storage matches, and what is unsafe. */
export async function serviceStatus(env: Env, now: number) {
  const [d1, cron] = await Promise.all([probeD1(env.DB), cronRun(env.DB)]);
  const queues = Object.fromEntries(QUEUE_BINDINGS.map((name) => [name, typeof env[name]?.send === "function"]));
  const facts: StatusFacts = {
    development: isDevelopment(env),
    devClock: env.DEV_CLOCK === "on",
    loopbackWebhooks: env.ALLOW_LOOPBACK_WEBHOOKS === "on",
    weakTopicSecret: weakTopicSecret(env),
    d1,
    expectedMigration: EXPECTED_D1_MIGRATION,
    missingQueues: QUEUE_BINDINGS.filter((name) => !queues[name]),
    cron,
  };
  return {
    environment: env.ENVIRONMENT ?? "production",
    version: { service: SERVICE_VERSION, build: buildOf(env) },
    d1: {
      reachable: d1.reachable,
      latest_migration: d1.reachable ? d1.latestMigration : null,
      expected_migration: EXPECTED_D1_MIGRATION,
    },
    schemas: { user_object: schemaVersions(USER_OBJECT_TABLES), broker: schemaVersions([brokerTables]) },
    queues,
    cron: { last_run: cron },
    warnings: statusWarnings(facts, now),
  };
}

export type ServiceStatus = Awaited<ReturnType<typeof serviceStatus>>;
