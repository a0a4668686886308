import type { AreaTables, AreaSql } from "../shared/object-tables";
import type { Instance, StoredType } from "./core/lifecycle";

/**
 * A user's challenge instances in their Durable Object's SQLite. A challenge the user never
 * unlocked has no row. The owner row lets the alarm, which gets no arguments, know whose object
 * this is.
 */
/**
 * The instances' table and its index as the first migration made them: history, never changed (a
 * later column is a migration appended to the area's, and a column of `created`; the index is
 * dropped by the third).
 */
const INSTANCES_TABLE = `ch_instances (
  challenge_id TEXT PRIMARY KEY,
  user_challenge_id TEXT NOT NULL,
  type TEXT NOT NULL,
  score INTEGER NOT NULL,
  last_session_id TEXT,
  unlocked_at INTEGER,
  activated_at INTEGER,
  expires_at INTEGER,
  is_claimed INTEGER NOT NULL,
  period_start INTEGER
)`;
const INSTANCES_BY_EXPIRY =
  "CREATE INDEX ch_instances_by_expiry ON ch_instances (expires_at) WHERE expires_at IS NOT NULL";

export const challengesTables: AreaTables = {
  area: "challenges",
  migrations: [
    `CREATE TABLE ${INSTANCES_TABLE};
     ${INSTANCES_BY_EXPIRY};
     CREATE TABLE ch_owner (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       app_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       last_user_challenge_id INTEGER NOT NULL
     );`,
    // Objects from before the holder counts (D1 migration 0010) report what they hold once (UserChallenges).
    "ALTER TABLE ch_owner ADD COLUMN holders_counted INTEGER NOT NULL DEFAULT 0",
    // The time-outs are read only when one moves and by the alarm, from a user's few hundred rows at
    // most: a scan costs less than a b-tree of its own, a page in every player's object.
    "DROP INDEX IF EXISTS ch_instances_by_expiry",
  ],
  created: `CREATE TABLE ${INSTANCES_TABLE} WITHOUT ROWID;
     CREATE TABLE ch_owner (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       app_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       last_user_challenge_id INTEGER NOT NULL,
       holders_counted INTEGER NOT NULL DEFAULT 0
     );`,
};

interface InstanceRow {
  challenge_id: string;
  user_challenge_id: string;
  type: string;
  score: number;
  last_session_id: string | null;
  unlocked_at: number | null;
  activated_at: number | null;
  expires_at: number | null;
  is_claimed: number;
  period_start: number | null;
  [key: string]: SqlStorageValue;
}

const toInstance = (row: InstanceRow): Instance => ({
  userChallengeId: row.user_challenge_id,
  type: row.type as StoredType,
  score: row.score,
  lastSessionId: row.last_session_id,
  unlockedAt: row.unlocked_at,
  activatedAt: row.activated_at,
  expiresAt: row.expires_at,
  isClaimed: row.is_claimed === 1,
  periodStart: row.period_start,
});

export function readAllInstances(sql: AreaSql): Map<string, Instance> {
  const rows = sql.exec<InstanceRow>("SELECT * FROM ch_instances").toArray();
  return new Map(rows.map((row) => [row.challenge_id, toInstance(row)]));
}

/** The stored instances of these challenges (one statement, however many: ids go as one JSON parameter). */
export function readInstances(sql: AreaSql, challengeIds: string[]): Map<string, Instance> {
  const rows = sql
    .exec<InstanceRow>(
      "SELECT * FROM ch_instances WHERE challenge_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(challengeIds),
    )
    .toArray();
  return new Map(rows.map((row) => [row.challenge_id, toInstance(row)]));
}

export function readInstance(sql: AreaSql, challengeId: string): Instance | null {
  const row = sql.exec<InstanceRow>("SELECT * FROM ch_instances WHERE challenge_id = ?", challengeId).toArray()[0];
  return row ? toInstance(row) : null;
}

/** The challenge whose current instance has this user_challenge_id, if any. */
export function challengeIdOfInstance(sql: AreaSql, userChallengeId: string): string | null {
  const row = sql
    .exec<{ challenge_id: string }>(
      "SELECT challenge_id FROM ch_instances WHERE user_challenge_id = ?",
      userChallengeId,
    )
    .toArray()[0];
  return row?.challenge_id ?? null;
}

export function deleteInstance(sql: AreaSql, challengeId: string): void {
  sql.exec("DELETE FROM ch_instances WHERE challenge_id = ?", challengeId);
}

/** Only the counter moved: the common case of an event, written as such. */
const onlyCounterMoved = (previous: Instance, next: Instance) =>
  previous.userChallengeId === next.userChallengeId &&
  previous.type === next.type &&
  previous.unlockedAt === next.unlockedAt &&
  previous.activatedAt === next.activatedAt &&
  previous.expiresAt === next.expiresAt &&
  previous.isClaimed === next.isClaimed &&
  previous.periodStart === next.periodStart;

/** What becomes of one challenge's row: deleted (null), rewritten, or only its counter updated. */
interface Write {
  next: Instance | null;
  counterOnly: boolean;
}

const rowOf = (challengeId: string, i: Instance) => [
  challengeId,
  i.userChallengeId,
  i.type,
  i.score,
  i.lastSessionId,
  i.unlockedAt,
  i.activatedAt,
  i.expiresAt,
  i.isClaimed ? 1 : 0,
  i.periodStart,
];

/**
 * The instances one state change writes, kept until the end of its synchronous step and then
 * written with one statement per kind (deletes, rewrites, counter updates), whatever the number of
 * challenges: a first touch starts many challenges, an event may count in hundreds. A challenge
 * written twice keeps its last state. Rows it holds must not be read back before `flush`.
 */
export class InstanceWrites {
  private readonly writes = new Map<string, Write>();

  /**
   * `next` replaces `previous` (null: no row; `next` null deletes the row, and the challenge shows
   * as `unlock` again). `previous` is the stored row, or what this batch already holds for it.
   */
  save(challengeId: string, previous: Instance | null, next: Instance | null): void {
    const held = this.writes.get(challengeId);
    if (next === null && previous === null && held === undefined) return;
    // A counter update needs the stored row as it is apart from the counter.
    const counterOnly =
      (held?.counterOnly ?? true) && previous !== null && next !== null && onlyCounterMoved(previous, next);
    this.writes.set(challengeId, { next, counterOnly });
  }

  /** Writes what the batch holds; call inside the transaction of the state change. */
  flush(sql: AreaSql): void {
    if (this.writes.size === 0) return;
    const deleted: string[] = [];
    const rewritten: SqlStorageValue[][] = [];
    const counters: SqlStorageValue[][] = [];
    for (const [challengeId, { next, counterOnly }] of this.writes) {
      if (next === null) deleted.push(challengeId);
      else if (counterOnly) counters.push([challengeId, next.score, next.lastSessionId]);
      else rewritten.push(rowOf(challengeId, next));
    }
    this.writes.clear();
    if (deleted.length > 0)
      sql.exec(
        "DELETE FROM ch_instances WHERE challenge_id IN (SELECT value FROM json_each(?))",
        JSON.stringify(deleted),
      );
    if (rewritten.length > 0) {
      sql.exec(
        `INSERT OR REPLACE INTO ch_instances
           (challenge_id, user_challenge_id, type, score, last_session_id, unlocked_at, activated_at, expires_at, is_claimed, period_start)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9
         FROM json_each(?)`,
        JSON.stringify(rewritten),
      );
    }
    if (counters.length > 0) {
      sql.exec(
        `UPDATE ch_instances SET score = c.value ->> 1, last_session_id = c.value ->> 2
         FROM json_each(?) AS c WHERE ch_instances.challenge_id = c.value ->> 0`,
        JSON.stringify(counters),
      );
    }
  }
}

export function deleteAllInstances(sql: AreaSql): void {
  sql.exec("DELETE FROM ch_instances");
}

/** Ids of the in-progress instances whose time-out is due. */
export function dueInstanceIds(sql: AreaSql, now: number): string[] {
  return sql
    .exec<{ challenge_id: string }>(
      "SELECT challenge_id FROM ch_instances WHERE expires_at IS NOT NULL AND expires_at <= ? AND type = 'in-progress'",
      now,
    )
    .toArray()
    .map((r) => r.challenge_id);
}

/** The next time-out of any in-progress instance, in service time. */
export function nextExpiry(sql: AreaSql): number | null {
  const row = sql
    .exec<{ at: number | null }>(
      "SELECT MIN(expires_at) AS at FROM ch_instances WHERE expires_at IS NOT NULL AND type = 'in-progress'",
    )
    .toArray()[0];
  return row?.at ?? null;
}

export interface Owner {
  appId: string;
  userId: string;
  lastUserChallengeId: number;
  /** Whether D1's holder counts include this user's instances (false only for objects older than them). */
  holdersCounted: boolean;
}

export function readOwner(sql: AreaSql): Owner | null {
  const row = sql
    .exec<{ app_id: string; user_id: string; last_user_challenge_id: number; holders_counted: number }>(
      "SELECT * FROM ch_owner WHERE id = 1",
    )
    .toArray()[0];
  return row
    ? {
        appId: row.app_id,
        userId: row.user_id,
        lastUserChallengeId: row.last_user_challenge_id,
        holdersCounted: row.holders_counted === 1,
      }
    : null;
}

export function writeOwner(sql: AreaSql, owner: Owner): void {
  sql.exec(
    `INSERT INTO ch_owner (id, app_id, user_id, last_user_challenge_id, holders_counted) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET last_user_challenge_id = excluded.last_user_challenge_id, holders_counted = excluded.holders_counted`,
    owner.appId,
    owner.userId,
    owner.lastUserChallengeId,
    owner.holdersCounted ? 1 : 0,
  );
}
