// The benchmark's view into the background consumer (scripts/bench/scenarios/d1-writes.mjs): the
// service's own Worker and objects, started with this module as main, plus two routes that hand
// synthetic batches of event messages straight to the service's code (no intake in front) and count
// the D1 rows they read and write (D1's own `meta.rows_written`, indexes included).
//   POST /bench/d1/setup  {before: [sql]}    the raw-insert table, and a copy of the analytics table as
//                                            migrations/0002 created it (the statements that name it)
//   POST /bench/d1/run?mode=M&app=A&batches=K&size=N&first=F&users=U
//        K batches of N events of app A, one after the other, by users F, F+1, ... (mod U); M is
//        consumer    the service's background consumer, every handler (archive, counts, leaderboards)
//        analytics   its handler of event analytics alone (archive, counts, receipts)
//        days        the same, every event a returning player's first of the UTC day: the players
//                    per day and a retention cell are counted too (the most they cost)
//        before      the analytics statements of the Worker before migration 0008 (a row per event)
//        raw         one plain insert of N rows per batch, the yardstick
//   GET  /bench/d1/archive                   objects, bytes and events in the archive (R2)
// Every other request goes to the service.
import service from "../../../src/index.ts";
import { consumeBackground } from "../../../src/wiring/background-consumer.ts";
import { recordEventAnalytics } from "../../../src/events/background.ts";
import { analyticsRow, countNewEventsSql, insertEventsSql } from "../../../test/support/analytics-before-0008.ts";

export { UserDO, MqttBroker, TopicHub } from "../../../src/index.ts";

const BEFORE_TABLE = "bench_analytics_events_before_0008";

/**
 * A D1 binding that adds up what every statement read and wrote, and the time its calls took
 * (calls made at the same time, as the consumer's handlers make them, count each).
 */
function countingD1(db, totals) {
  const add = (meta) => {
    totals.rowsRead += meta.rows_read ?? 0;
    totals.rowsWritten += meta.rows_written ?? 0;
  };
  const timed = async (call) => {
    const started = Date.now();
    try {
      return await call();
    } finally {
      totals.d1Ms += Date.now() - started;
    }
  };
  const wrap = (statement) => ({
    statement,
    bind: (...values) => wrap(statement.bind(...values)),
    async run() {
      const result = await timed(() => statement.run());
      add(result.meta);
      return result;
    },
    async all() {
      const result = await timed(() => statement.all());
      add(result.meta);
      return result;
    },
    async first(column) {
      const { results } = await this.all();
      if (results.length === 0) return null;
      return column === undefined ? results[0] : results[0][column];
    },
  });
  return {
    prepare: (sql) => wrap(db.prepare(sql)),
    async batch(statements) {
      const results = await timed(() => db.batch(statements.map((s) => s.statement)));
      for (const result of results) add(result.meta);
      return results;
    },
  };
}

const message = (body) => ({
  id: crypto.randomUUID().replaceAll("-", ""),
  timestamp: new Date(),
  attempts: 1,
  body,
  ack() {},
  retry() {
    this.retried = true;
  },
});

async function run(env, params) {
  const mode = params.get("mode");
  const [app, batches, size, first, users] = ["app", "batches", "size", "first", "users"].map((name) =>
    params.get(name),
  );
  const totals = { rowsRead: 0, rowsWritten: 0, d1Ms: 0 };
  const benchEnv = { ...env, DB: countingD1(env.DB, totals) };
  let user = Number(first);
  const started = Date.now();
  for (let b = 0; b < Number(batches); b++) {
    const events = Array.from({ length: Number(size) }, (_, i) => ({
      appId: app,
      userId: `d1-user-${user++ % Number(users)}`,
      teamId: null,
      eventName: "kill-enemy",
      eventType: "single",
      sessionId: "persistent",
      metaData: { amount: 1 + (i % 5) },
      eventId: null,
      receivedAt: Date.now(),
    }));
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const activeDay = mode === "days" ? { activeDay: { day: today, firstDay: yesterday } } : {};
    const messages = events.map((event) => message({ kind: "event", event, ...activeDay }));
    if (mode === "consumer") {
      await consumeBackground({ queue: "gamification-background", messages, retryAll() {}, ackAll() {} }, benchEnv);
      if (messages.some((m) => m.retried)) throw new Error("the consumer asked for a retry");
    } else if (mode === "analytics" || mode === "days") {
      await recordEventAnalytics(messages, benchEnv);
    } else if (mode === "before") {
      const json = JSON.stringify(messages.map((m) => analyticsRow(m.id, m.body.event)));
      await benchEnv.DB.batch([
        benchEnv.DB.prepare(countNewEventsSql(BEFORE_TABLE)).bind(json),
        benchEnv.DB.prepare(insertEventsSql(BEFORE_TABLE)).bind(json),
      ]);
    } else if (mode === "raw") {
      const json = JSON.stringify(messages.map((m, i) => ({ id: m.id, v: i })));
      await benchEnv.DB.prepare(
        "INSERT INTO bench_raw_rows (id, v) SELECT value ->> 'id', value ->> 'v' FROM json_each(?)",
      )
        .bind(json)
        .run();
    } else {
      return Response.json({ status: 400, message: `unknown mode ${mode}` }, { status: 400 });
    }
  }
  // Time moves on in a Worker only across I/O, which is what is measured here: D1 and R2.
  return Response.json({ ms: Date.now() - started, events: Number(batches) * Number(size), ...totals });
}

async function archiveSize(bucket) {
  const totals = { objects: 0, bytes: 0, events: 0 };
  let cursor;
  do {
    const page = await bucket.list({ prefix: "events/", cursor, include: ["customMetadata"] });
    for (const object of page.objects) {
      totals.objects++;
      totals.bytes += object.size;
      totals.events += Number(object.customMetadata?.events ?? 0);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return Response.json(totals);
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/bench/d1/setup") {
      const { before } = await request.json();
      await env.DB.batch([
        env.DB.prepare(
          "CREATE TABLE IF NOT EXISTS bench_raw_rows (id TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID",
        ),
        ...before.map((sql) => env.DB.prepare(sql.replaceAll("analytics_events", BEFORE_TABLE))),
      ]);
      return Response.json({ status: 200 });
    }
    if (request.method === "POST" && url.pathname === "/bench/d1/run") return run(env, url.searchParams);
    if (request.method === "GET" && url.pathname === "/bench/d1/archive") return archiveSize(env.EVENTS_ARCHIVE);
    return service.fetch(request, env, ctx);
  },
  queue: service.queue,
  scheduled: service.scheduled,
};
