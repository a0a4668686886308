import { chunkByJsonSize } from "../shared/chunks";
import type { IdRef } from "../shared/statements";
import { auditValues } from "./core/audit-values";

/**
 * The audit log (migrations/0012_privacy.sql): who changed what, when and from where. Every
 * configuration write records its entries in the same D1 batch as the change (config-write.ts), so
 * no change goes unrecorded and no entry tells of a change that did not happen; operator actions on
 * a player (erasure, export, a reset; bans and score removals) record theirs the same way.
 */

export type ActorKind = "admin-token" | "console-user" | "api-key" | "system";
export type Channel = "admin-api" | "console" | "api" | "background";

/**
 * Who acts, and from where: built from each request (the admin token with its X-Actor name, the
 * console session, the API key) and handed down to the write, never kept in a global.
 */
export interface Actor {
  kind: ActorKind;
  /** The console user's or the API key's id. */
  id: string | null;
  /** The X-Actor name of an admin-token caller, the console user's email, the key's name, the system task. */
  name: string | null;
  channel: Channel;
  ip: string | null;
  requestId: string | null;
}

/** Work of the service itself (a queue consumer, the cron): no person, no request. */
export const systemActor = (name: string): Actor => ({
  kind: "system",
  id: null,
  name,
  channel: "background",
  ip: null,
  requestId: null,
});

/** One entry. `before` and `after` are the object as it was and as it is now; secrets are redacted on the way in. */
export interface AuditEntry {
  actor: Actor;
  /** null: not one app's (apps themselves, console users). */
  appId: string | number | null;
  resource: string;
  /** An id, or an SQL expression for a row the same batch creates (INSERTED_ROW, a subselect by key). */
  resourceId: string | number | IdRef | null;
  action: string;
  before?: unknown;
  after?: unknown;
  /** "refused": an authenticated actor tried what their role does not allow; nothing changed. */
  outcome?: "done" | "refused";
}

/**
 * Entries about one kind of object of an app (appId null: of no app): what it was, as the API
 * shows it, and what it was asked to become. A created object is named by the row its statement
 * inserted unless an id is given.
 */
export function auditOf(actor: Actor, appId: string | number | null, resource: string) {
  const entry = (
    action: string,
    resourceId: AuditEntry["resourceId"],
    before: unknown,
    after: unknown,
  ): AuditEntry => ({
    actor,
    appId,
    resource,
    resourceId,
    action,
    before,
    after,
  });
  return {
    created: (after: unknown, id: AuditEntry["resourceId"] = INSERTED_ROW) => entry("create", id, null, after),
    updated: (id: AuditEntry["resourceId"], before: unknown, after: unknown, action = "update") =>
      entry(action, id, before, after),
    deleted: (id: AuditEntry["resourceId"], before: unknown) => entry("delete", id, before, null),
  };
}

/** The resource of audit entries about one player; their resource_id is the user id until the player is erased. */
export const PLAYER_RESOURCE = "player";

/** How entries name an erased player: by erasure subject (src/apps/erasure-tombstones.ts), never by id. */
export const erasedPlayerId = (subject: string) => `erased:${subject}`;

/** The fields of an entry's before and after that name its player (a ban's `user_id`, a held score's `member_id`). */
const PLAYER_FIELDS = ["$.user_id", "$.member_id"];

/**
 * SQL that renames the player (?4) to their subject (?1) in one JSON column, field by field, and leaves every other
 * value as it is.
 */
const renamedPlayerSql = (column: string) =>
  PLAYER_FIELDS.reduce(
    (json, path) =>
      `CASE WHEN json_extract(${json}, '${path}') = ?4 THEN json_set(${json}, '${path}', ?1) ELSE ${json} END`,
    column,
  );

/**
 * Erasing a player: their entries keep what was done to them, and name them by subject from now on
 * (found by index), in the entry's id and in the fields of before and after that held the id.
 */
export const erasePlayerEntriesStatement = (db: D1Database, appId: number, userId: string, subject: string) =>
  db
    .prepare(
      `UPDATE audit_log SET resource_id = ?1, before = ${renamedPlayerSql("before")}, after = ${renamedPlayerSql("after")}
       WHERE app_id = ?2 AND resource = ?3 AND resource_id = ?4`,
    )
    .bind(erasedPlayerId(subject), appId, PLAYER_RESOURCE, userId);

/** The row the statement just before the entry's inserted (with writeConfigRow). */
export const INSERTED_ROW: IdRef = { sql: "last_insert_rowid()", args: [] };

const isRef = (id: AuditEntry["resourceId"]): id is IdRef => typeof id === "object" && id !== null;

/** The entries of a statement as one JSON parameter, in the row's column names. */
function rowsOf(entries: AuditEntry[]) {
  return entries.map((e) => {
    const { before, after } = auditValues(e.before, e.after);
    return {
      app_id: e.appId === null ? null : Number(e.appId),
      actor_kind: e.actor.kind,
      actor_id: e.actor.id,
      actor_name: e.actor.name,
      channel: e.actor.channel,
      ip: e.actor.ip,
      request_id: e.actor.requestId,
      resource: e.resource,
      resource_id: e.resourceId === null || isRef(e.resourceId) ? null : String(e.resourceId),
      action: e.action,
      outcome: e.outcome ?? "done",
      before: before === null ? null : JSON.stringify(before),
      after: after === null ? null : JSON.stringify(after),
    };
  });
}

/**
 * Inserts the entries of a JSON array (bound last); `resourceId` is the SQL of the resource id
 * (bound first). Times are the wall clock's, in toIso()'s format: the development clock moves game
 * time, not this.
 */
const insertSql = (resourceId: string, where = "") => `INSERT INTO audit_log
  (at, app_id, actor_kind, actor_id, actor_name, channel, ip, request_id, resource, resource_id, action, outcome, before, after)
  SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), e.value ->> 'app_id', e.value ->> 'actor_kind', e.value ->> 'actor_id',
    e.value ->> 'actor_name', e.value ->> 'channel', e.value ->> 'ip', e.value ->> 'request_id', e.value ->> 'resource',
    ${resourceId}, e.value ->> 'action', e.value ->> 'outcome', e.value ->> 'before', e.value ->> 'after'
  FROM json_each(?) AS e ${where}`;

const entryStatement = (db: D1Database, entry: AuditEntry, where = "") => {
  const ref = isRef(entry.resourceId) ? entry.resourceId : null;
  const resourceId = ref ? `CAST(${ref.sql} AS TEXT)` : "e.value ->> 'resource_id'";
  return db.prepare(insertSql(resourceId, where)).bind(...(ref?.args ?? []), JSON.stringify(rowsOf([entry])));
};

/** D1 binds one parameter of at most 1 MB; entries of a large catalog apply take a few statements. */
const MAX_ENTRIES_JSON_BYTES = 512 * 1024;

/** Statements that record `entries`, for the D1 batch of the change they describe (after its statements). */
export function auditStatements(db: D1Database, entries: AuditEntry[]): D1PreparedStatement[] {
  const byRef = entries.filter((e) => isRef(e.resourceId));
  const plain = entries.filter((e) => !isRef(e.resourceId));
  return [
    ...chunkByJsonSize(rowsOf(plain), MAX_ENTRIES_JSON_BYTES).map((json) =>
      db.prepare(insertSql("e.value ->> 'resource_id'")).bind(json),
    ),
    ...byRef.map((entry) => entryStatement(db, entry)),
  ];
}

/**
 * The statement that records `entry` right after the statement it describes, and only when that
 * statement changed a row: a conditional write that did nothing leaves no entry.
 */
export function auditAfterStatement(db: D1Database, entry: AuditEntry): D1PreparedStatement {
  return entryStatement(db, entry, "WHERE changes() > 0");
}

/**
 * Records entries on their own, for an action whose change is not a D1 write (an export, an
 * erasure handed to the player's object) or, for other areas (fair play), a write that is not one
 * of configuration: put auditStatements in that write's batch instead when there is one.
 */
export async function recordAudit(db: D1Database, entries: AuditEntry[]): Promise<void> {
  const statements = auditStatements(db, entries);
  if (statements.length > 0) await db.batch(statements);
}
