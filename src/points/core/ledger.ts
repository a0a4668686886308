/**
 * How a player's ledger stays bounded: per system, entries older than LEDGER_RETENTION_MS or past
 * the newest LEDGER_MAX_ENTRIES fold into one opening-balance entry holding their sum, so that the
 * balance always equals the ledger's sum. The slacks let a fold take many entries at once instead
 * of one at every write.
 */
export const LEDGER_RETENTION_MS = 90 * 24 * 3600_000;
export const LEDGER_MAX_ENTRIES = 1000;
const ENTRY_SLACK = 100;
const AGE_SLACK_MS = 24 * 3600_000;

/** The ledger page a player reads: newest first. */
export const LEDGER_PAGE_SIZE = 50;

/** An idempotency key answers its first result again for this long. */
export const IDEMPOTENCY_MS = 48 * 3600_000;

export interface LedgerShape {
  /** Entries of the system, the opening one included. */
  entries: number;
  /** Service time of the oldest entry that is not the opening one; null: none. */
  oldestAt: number | null;
}

/** Whether the system's ledger is due a fold at `now`. */
export function foldDue(shape: LedgerShape, now: number): boolean {
  return (
    shape.entries > LEDGER_MAX_ENTRIES + ENTRY_SLACK ||
    (shape.oldestAt !== null && shape.oldestAt < now - LEDGER_RETENTION_MS - AGE_SLACK_MS)
  );
}
