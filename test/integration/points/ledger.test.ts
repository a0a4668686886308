import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { userObject } from "../../../src/user/names";
import { areaTables } from "../helpers";
import {
  foldLedger,
  pointsTables,
  readBalance,
  readLedger,
  readWholeLedger,
  recordEntry,
} from "../../../src/points/user-store";
import { foldDue, LEDGER_MAX_ENTRIES, LEDGER_RETENTION_MS } from "../../../src/points/core/ledger";

const DAY = 24 * 3600_000;

/** Writes `amounts` as entries of `system`, one a minute from `start`, as the area does. */
function write(sql: ReturnType<typeof areaTables>, system: string, amounts: number[], start: number) {
  amounts.forEach((amount, i) => {
    const before = readBalance(sql, system);
    const balance = (before?.balance ?? 0) + amount;
    const earned = (before?.earned ?? 0) + Math.max(0, amount);
    recordEntry(sql, before, {
      system,
      amount,
      after: { balance, earned },
      source: { kind: "grant", id: `k${i}` },
      reason: "test",
      at: start + i * 60_000,
    });
  });
}

const sum = (rows: { amount: number }[]) => rows.reduce((n, r) => n + r.amount, 0);

describe("the ledger's retention", () => {
  it("folds entries past the newest 1,000 into one opening-balance entry; the balance stays the ledger's sum", async () => {
    await runInDurableObject(userObject(env, "9001", "ledger-count"), (_instance, state) => {
      const sql = areaTables(state.storage, pointsTables);
      const start = 1_000 * DAY;
      const amounts = Array.from({ length: LEDGER_MAX_ENTRIES + 150 }, (_, i) => (i % 7 === 6 ? -3 : 5));
      write(sql, "coins", amounts, start);
      write(sql, "xp", [10, 20], start);
      const now = start + amounts.length * 60_000;
      const before = readBalance(sql, "coins")!;
      expect(before.entries).toBe(LEDGER_MAX_ENTRIES + 150);
      expect(foldDue(before, now)).toBe(true);
      foldLedger(sql, "coins", now);
      const rows = readWholeLedger(sql).filter((r) => r.system === "coins");
      expect(rows).toHaveLength(LEDGER_MAX_ENTRIES + 1);
      expect(rows[0]).toMatchObject({
        source_kind: "opening-balance",
        amount: sum(amounts.map((a) => ({ amount: a })).slice(0, 150)),
      });
      expect(sum(rows)).toBe(before.balance);
      expect(readBalance(sql, "coins")).toMatchObject({ balance: before.balance, entries: LEDGER_MAX_ENTRIES + 1 });
      // Another system's entries are untouched; a second fold has nothing to do.
      expect(
        readWholeLedger(sql)
          .filter((r) => r.system === "xp")
          .map((r) => r.amount),
      ).toEqual([10, 20]);
      foldLedger(sql, "coins", now);
      expect(readWholeLedger(sql).filter((r) => r.system === "coins")).toEqual(rows);
      // The newest page starts with the newest entry; the last page ends with the opening balance.
      const page = readLedger(sql, "coins", null);
      expect(page.rows[0].balance_after).toBe(before.balance);
      expect(page.more).toBe(true);
    });
  });

  it("folds entries older than the retention, once they are a day past it", async () => {
    await runInDurableObject(userObject(env, "9001", "ledger-age"), (_instance, state) => {
      const sql = areaTables(state.storage, pointsTables);
      const start = 1_000 * DAY;
      write(sql, "xp", [1, 2, 3], start);
      write(sql, "xp", [4, 5], start + 50 * DAY);
      const now = start + LEDGER_RETENTION_MS + DAY + 3 * 60_000;
      expect(foldDue(readBalance(sql, "xp")!, now)).toBe(true);
      foldLedger(sql, "xp", now);
      expect(readWholeLedger(sql).map((r) => [r.source_kind, r.amount, r.balance_after])).toEqual([
        ["opening-balance", 6, 6],
        ["grant", 4, 10],
        ["grant", 5, 15],
      ]);
      expect(readBalance(sql, "xp")).toMatchObject({ balance: 15, entries: 3, oldestAt: start + 50 * DAY });
      expect(foldDue(readBalance(sql, "xp")!, now)).toBe(false);
    });
  });
});
