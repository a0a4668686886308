import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { battlePassTables } from "../../../src/battlepasses/user-store";
import { UserChallenges } from "../../../src/challenges/user-challenges";
import { userObject } from "../../../src/user/names";
import { ObjectTables } from "../../../src/shared/object-tables";
import { USER_OBJECT_TABLES } from "../../../src/wiring/user-areas";
import { eventsTables } from "../../../src/events/event-tables";
import { eventIdsTables } from "../../../src/events/processed-events";
import { createTestApp, sendEvent } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";

/**
 * A user object's tables are made per area at the area's first write (src/shared/object-tables.ts): a
 * player holds only the tables of what they used, reads of the others answer nothing, and objects
 * made before keep theirs.
 */

let objects = 0;
const inNewObject = <T>(body: (storage: DurableObjectStorage) => T) =>
  runInDurableObject(userObject(env, "1", `schema-${++objects}`), (_instance, state) => body(state.storage));

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    )
    .toArray()
    .map((r) => r.name);
/** SQLite's own tables and indexes: key indexes of rowid tables keyed by text, sqlite_sequence of AUTOINCREMENT. */
const internal = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_%' ORDER BY name")
    .toArray()
    .map((r) => r.name);
/**
 * What reads and writes see of an object's tables: each table's columns, keys and defaults, and
 * each index made by name. A key column's NOT NULL is left out: a WITHOUT ROWID table adds it, where
 * SQLite lets a rowid table's text key be NULL, which nothing writes.
 */
const layout = (sql: SqlStorage) =>
  sql
    .exec<{ type: string; name: string; sql: string }>(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'schema_versions' ORDER BY name",
    )
    .toArray()
    .map(({ type, name, sql: text }) =>
      type === "table"
        ? {
            table: name,
            columns: sql
              .exec(`PRAGMA table_info("${name}")`)
              .toArray()
              .map(({ notnull, ...column }) => (column.pk ? column : { ...column, notnull })),
          }
        : { index: name, sql: text.replace(/\s+/g, " ") },
    );
const versions = (sql: SqlStorage) =>
  Object.fromEntries(
    sql
      .exec<{ area: string; version: number }>("SELECT area, version FROM schema_versions")
      .toArray()
      .map((r) => [r.area, r.version]),
  );

/**
 * A player with one automatic challenge whose object holds what `layout` writes, as an older
 * version left it, then started again under this version (an abort drops what its own call wrote,
 * so the layout is written in a call before it). `score` is the challenge's counter.
 */
async function playerOfOlderObject(userId: string, layout: (sql: SqlStorage) => void) {
  const app = await createTestApp(`Older object ${userId}`);
  const categoryId = (await createCategory(app.appId)).category_id;
  await createChallenge(app.appId, categoryId, { is_auto_activated: true });
  const p = player(app.appId, await app.tokenFor(userId));
  expect((await p.all()).status).toBe(200);
  const stub = () => userObject(env, app.appId, userId);
  await runInDurableObject(stub(), (_i, state) => layout(state.storage.sql));
  await runInDurableObject(stub(), (_i, state) => state.abort("restarted under this version")).catch(() => {});
  const score = async () =>
    (await p.find((await p.all()).body[0].challenges[0].challenge_id))?.user_challenge_current_score;
  return { app, score, stub };
}

describe("a user object's tables", () => {
  it("are those of what the player used: a first list, then a first event", async () => {
    const app = await createTestApp("Lazy tables");
    const categoryId = (await createCategory(app.appId)).category_id;
    await createChallenge(app.appId, categoryId, { is_auto_activated: true });
    const p = player(app.appId, await app.tokenFor("lazy"));
    const storageOf = <T>(body: (sql: SqlStorage) => T) =>
      runInDurableObject(userObject(env, app.appId, "lazy"), (_i, state) => body(state.storage.sql));

    expect((await p.all()).status).toBe(200);
    expect(await storageOf(tables)).toEqual(["ch_instances", "ch_owner", "outbox", "schema_versions"]);
    expect(await storageOf(versions)).toEqual({ challenges: 3, outbox: 1 });
    // Tables keyed by text are WITHOUT ROWID, and nothing is AUTOINCREMENT: no key indexes, no sqlite_sequence.
    expect(await storageOf(internal)).toEqual([]);

    await sendEvent(app.apiKey, "lazy", "kill-enemy", { amount: 1 });
    // Every event adds to the totals of its name that achievements read (backdating).
    const afterEvent = [
      "ach_progress",
      "ach_totals",
      "archive_identity",
      "ch_instances",
      "ch_owner",
      "event_rate",
      "outbox",
      "player_seen",
      "recent_events",
      "schema_versions",
    ];
    expect(await storageOf(tables)).toEqual(afterEvent);
    expect(await storageOf(versions)).toEqual({
      achievements: 1,
      challenges: 3,
      outbox: 1,
      events: 5,
      "event-rate": 1,
      seen: 2,
    });
    expect(await storageOf(internal)).toEqual([]);
    expect((await p.find((await p.all()).body[0].challenges[0].challenge_id))?.user_challenge_current_score).toBe(1);

    // The ids of applied events get their tables with the first event that carries one.
    await sendEvent(app.apiKey, "lazy", "kill-enemy", { amount: 1 }, { event_id: "lazy-1" });
    await sendEvent(app.apiKey, "lazy", "kill-enemy", { amount: 1 }, { event_id: "lazy-1" });
    expect(await storageOf(tables)).toEqual([...afterEvent, "processed_events", "processed_events_by_time"].sort());
    expect(await storageOf(versions)).toEqual({
      achievements: 1,
      challenges: 3,
      outbox: 1,
      events: 5,
      "event-ids": 2,
      "event-rate": 1,
      seen: 2,
    });
    expect(await storageOf(internal)).toEqual([]);
    expect((await p.find((await p.all()).body[0].challenges[0].challenge_id))?.user_challenge_current_score).toBe(2);
  });

  it("made by 0.3.5, whose events area has the ids of applied events, keep them: a retried event stays a duplicate", async () => {
    // The events area as 0.3.5 made it: with the event-ids area's tables, registered, and an applied event's id.
    const { app, score } = await playerOfOlderObject("v035", (sql) => {
      sql.exec(eventIdsTables.created!);
      sql.exec(eventsTables.created!);
      sql.exec(
        "INSERT INTO schema_versions (area, version) VALUES ('events', ?), ('event-ids', ?)",
        eventsTables.migrations.length,
        eventIdsTables.migrations.length,
      );
      sql.exec("INSERT INTO processed_events (event_id, processed_at) VALUES ('v035-1', ?)", Date.now());
    });
    await sendEvent(app.apiKey, "v035", "kill-enemy", { amount: 1 }, { event_id: "v035-1" });
    await sendEvent(app.apiKey, "v035", "kill-enemy", { amount: 1 }, { event_id: "v036-1" });
    expect(await score()).toBe(1);
  });

  it("made before the ids of applied events were an area of their own keep those ids: a retried event stays a duplicate", async () => {
    // The events area as 0.3.4 left it, with an applied event's id in its processed_events.
    const { app, score, stub } = await playerOfOlderObject("v034", (sql) => {
      for (const migration of eventsTables.migrations.slice(0, 4)) sql.exec(migration);
      sql.exec("INSERT INTO schema_versions (area, version) VALUES ('events', 4)");
      sql.exec("INSERT INTO processed_events (event_id, processed_at) VALUES ('old-1', ?)", Date.now());
    });
    await sendEvent(app.apiKey, "v034", "kill-enemy", { amount: 1 }, { event_id: "old-1" });
    await sendEvent(app.apiKey, "v034", "kill-enemy", { amount: 1 }, { event_id: "new-1" });
    await sendEvent(app.apiKey, "v034", "kill-enemy", { amount: 1 }, { event_id: "new-1" });
    const stored = await runInDurableObject(stub(), (_i, state) => ({
      versions: versions(state.storage.sql),
      ids: state.storage.sql
        .exec<{ event_id: string }>("SELECT event_id FROM processed_events ORDER BY event_id")
        .toArray()
        .map((r) => r.event_id),
    }));
    expect(stored).toEqual({
      versions: { achievements: 1, challenges: 3, outbox: 1, events: 5, "event-ids": 2, "event-rate": 1, seen: 2 },
      ids: ["new-1", "old-1"],
    });
    // old-1 was applied before the upgrade: only new-1 counted, once.
    expect(await score()).toBe(1);
  });

  it("answer no rows for an area without tables, and its first write makes them at their last version", async () => {
    await inNewObject((storage) => {
      const passes = new ObjectTables(storage.sql, USER_OBJECT_TABLES).sqlFor(battlePassTables);
      expect(passes.exec("SELECT * FROM bp_unlocks").toArray()).toEqual([]);
      expect(tables(storage.sql)).not.toContain("bp_unlocks");

      passes.exec(
        "INSERT INTO bp_unlocks (battle_pass_id, unlocked_at, purchase_price, purchase_currency) VALUES ('7', 1, 0, 'EUR')",
      );
      expect(passes.exec("SELECT battle_pass_id, holder_counted FROM bp_unlocks").toArray()).toEqual([
        { battle_pass_id: "7", holder_counted: 0 },
      ]);
      expect(tables(storage.sql)).toEqual(expect.arrayContaining(["bp_unlocks", "bp_levels", "bp_challenges"]));
      expect(versions(storage.sql).battlepasses).toBe(battlePassTables.migrations.length);
    });
  });

  it("made by a transaction that failed are gone with it, and made again after a reload", async () => {
    await inNewObject((storage) => {
      const schema = new ObjectTables(storage.sql, USER_OBJECT_TABLES);
      const passes = schema.sqlFor(battlePassTables);
      const unlock = () =>
        passes.exec(
          "INSERT INTO bp_unlocks (battle_pass_id, unlocked_at, purchase_price, purchase_currency) VALUES ('7', 1, 0, 'EUR')",
        );
      expect(() =>
        storage.transactionSync(() => {
          unlock();
          throw new Error("the state change failed");
        }),
      ).toThrow("the state change failed");
      expect(tables(storage.sql)).not.toContain("bp_unlocks");
      // Without the reload the view would still count the area as made.
      expect(unlock).toThrow(/no such table/);
      schema.reload();
      unlock();
      expect(passes.exec("SELECT battle_pass_id FROM bp_unlocks").toArray()).toEqual([{ battle_pass_id: "7" }]);
    });
  });

  it("of an object made with every area keep their rows, and an area behind its last version is migrated at the start", async () => {
    await inNewObject((storage) => {
      const challenges = UserChallenges.tables;
      // The object as an older version left it: every area, the challenges one at its first migration
      // (before the holder counts' column, with the time-outs' index).
      new ObjectTables(storage.sql, USER_OBJECT_TABLES).migrateAll();
      storage.sql.exec("DROP TABLE ch_owner; DROP TABLE ch_instances");
      storage.sql.exec(challenges.migrations[0]);
      storage.sql.exec("UPDATE schema_versions SET version = 1 WHERE area = ?", challenges.area);
      expect(tables(storage.sql)).toContain("ch_instances_by_expiry");
      storage.sql.exec("INSERT INTO ch_owner (id, app_id, user_id, last_user_challenge_id) VALUES (1, '1', 'old', 4)");
      storage.sql.exec("INSERT INTO event_rate (second, n) VALUES (5, 2)");

      const schema = new ObjectTables(storage.sql, USER_OBJECT_TABLES);
      expect(versions(storage.sql)).toEqual(
        Object.fromEntries(USER_OBJECT_TABLES.map((a) => [a.area, a.migrations.length])),
      );
      expect(tables(storage.sql)).not.toContain("ch_instances_by_expiry");
      expect(
        schema
          .sqlFor(challenges)
          .exec("SELECT user_id, last_user_challenge_id, holders_counted FROM ch_owner")
          .toArray(),
      ).toEqual([{ user_id: "old", last_user_challenge_id: 4, holders_counted: 0 }]);
      const rate = USER_OBJECT_TABLES.find((a) => a.area === "event-rate")!;
      expect(schema.sqlFor(rate).exec("SELECT second, n FROM event_rate").toArray()).toEqual([{ second: 5, n: 2 }]);
    });
  });

  it("made at once where an area has none, are what the areas' migrations make: the same tables, columns, keys and indexes", async () => {
    const made = USER_OBJECT_TABLES.filter((area) => area.created !== undefined);
    expect(made.map((area) => area.area)).toEqual(
      expect.arrayContaining(["challenges", "outbox", "events", "event-ids", "realtime", "leaderboard-pace"]),
    );
    // Whole objects, every area made: one area's migrations may make tables that another area now owns.
    const migrated = await inNewObject((storage) => {
      new ObjectTables(
        storage.sql,
        USER_OBJECT_TABLES.map(({ created: _created, ...area }) => area),
      ).migrateAll();
      return { layout: layout(storage.sql), versions: versions(storage.sql) };
    });
    const created = await inNewObject((storage) => {
      new ObjectTables(storage.sql, USER_OBJECT_TABLES).migrateAll();
      return { layout: layout(storage.sql), versions: versions(storage.sql) };
    });
    expect(created).toEqual(migrated);
    for (const area of made) expect(created.layout.length, area.area).toBeGreaterThan(0);
  });
});
