/**
 * Throttling of wrong passwords per account: after MAX_FAILED_SIGN_INS failures in a row, the
 * account refuses sign-ins until LOCK_MS have passed since the last failure. Every failure also
 * waits FAILED_SIGN_IN_DELAY_MS before answering, so guessing is slow even below the limit.
 */
export const MAX_FAILED_SIGN_INS = 10;
export const LOCK_MS = 15 * 60_000;
export const FAILED_SIGN_IN_DELAY_MS = 1000;

export interface FailureRecord {
  failedSignIns: number;
  lastFailedAt: number | null;
}

/** Milliseconds until the account takes sign-ins again; 0 when it takes them now. */
export function lockedFor(record: FailureRecord, now: number): number {
  if (record.failedSignIns < MAX_FAILED_SIGN_INS || record.lastFailedAt === null) return 0;
  return Math.max(0, record.lastFailedAt + LOCK_MS - now);
}

/** The record after one more failure: a run of failures older than the lock starts over. */
export function afterFailure(record: FailureRecord, now: number): FailureRecord {
  const stale = record.lastFailedAt === null || now - record.lastFailedAt >= LOCK_MS;
  return { failedSignIns: stale ? 1 : record.failedSignIns + 1, lastFailedAt: now };
}
