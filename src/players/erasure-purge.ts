import { erasePlayerEntriesStatement } from "../apps/audit-log";
import { writeConfig } from "../apps/config-write";
import { tombstoneStatement } from "../apps/erasure-tombstones";
import { erasePlayerStatement } from "../apps/player-registry";
import { deleteBanStatement } from "../auth/bans";
import { eraseUserInfoStatement } from "../auth/user-info";
import { eraseDeliveriesStatements } from "../webhooks/channel";
import { unbarOwner } from "./bans";
import type { ErasedPlayer } from "../kit/area";
import { PLAYER_ROWS_PARTS } from "../registry/areas";

export type { ErasedPlayer };

type RowEraser = (db: D1Database, player: ErasedPlayer) => D1PreparedStatement[] | Promise<D1PreparedStatement[]>;

/**
 * Every row about a player outside their object, area by area, each found by key or index (never by
 * reading a table that grows with traffic). An area that keeps rows about players says so in its
 * plugin (`players.eraseRows`); the erasure tests check every table of D1.
 */
const PLAYER_ROWS: RowEraser[] = [
  (db, p) => [eraseUserInfoStatement(db, p.appId, p.userId), erasePlayerStatement(db, p.appId, p.userId)],
  (db, p) => eraseDeliveriesStatements(db, p.appId, p.userId),
  (db, p) => [erasePlayerEntriesStatement(db, p.appId, p.userId, p.subject)],
  // Fair play: a ban names the player (a banned player's erasure ends the ban with the rest).
  (db, p) => [deleteBanStatement(db, p.appId, p.userId)],
  // Every area's rows about players (its plugin's `players.eraseRows`).
  ...PLAYER_ROWS_PARTS.flatMap((part) => (part.eraseRows ? [part.eraseRows] : [])),
];

/**
 * Deletes the player's rows in D1 and moves their tombstone to the erasure's time (`erasedAt`), in
 * one batch. It also moves the app's catalog version, so that every isolate's cached tombstones
 * learn the final time within a second. Idempotent: a retry finds nothing more to delete.
 */
export async function purgePlayerRows(
  db: D1Database,
  player: ErasedPlayer,
  erasedAt: number,
  expiresAt: number,
): Promise<void> {
  const statements = (await Promise.all(PLAYER_ROWS.map((erase) => erase(db, player)))).flat();
  await writeConfig(
    db,
    player.appId,
    [tombstoneStatement(db, player.appId, player.subject, erasedAt, expiresAt), ...statements],
    [],
  );
}

/**
 * Ends every subscription to the player's topics, in each broker object where their object knows of
 * one, and lifts a ban's bar of them in every shard (`owner`: the id of the player's object).
 */
export async function dropPlayerTopics(env: Env, owner: string, byBroker: Map<string, string[]>): Promise<void> {
  await Promise.all(
    [...byBroker].map(([broker, topics]) => env.BROKER.get(env.BROKER.idFromString(broker)).dropTopics(topics)),
  );
  await unbarOwner(env, owner);
}
