import { toHex } from "../shared/crypto";
import type { AreaSql } from "../shared/object-tables";

/**
 * How the raw event archive (R2) names a player: not by user id but by a random reference kept in
 * the player's own object, the same for all their events (analysts still count players and follow
 * one through a session). Erasing the player empties their object and with it this reference, so
 * their archived events can no longer be linked to anyone; the archive itself is never rewritten.
 * A player who comes back under the same id gets a new reference.
 */
export function archiveUserRef(sql: AreaSql): string {
  const known = knownArchiveUserRef(sql);
  if (known) return known;
  const userRef = toHex(crypto.getRandomValues(new Uint8Array(16)));
  sql.exec("INSERT INTO archive_identity (id, user_ref) VALUES (1, ?)", userRef);
  return userRef;
}

/** The player's reference as it is, without making one (the player's export). */
export function knownArchiveUserRef(sql: AreaSql): string | null {
  return (
    sql.exec<{ user_ref: string }>("SELECT user_ref FROM archive_identity WHERE id = 1").toArray()[0]?.user_ref ?? null
  );
}
