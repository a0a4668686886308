import { describe, expect, it } from "vitest";
import { layoutBars, layoutShares, niceCeiling } from "../../../src/kit/console/core/charts";
import { may } from "../../../src/kit/console/core/roles";
import { afterFailure, LOCK_MS, lockedFor, MAX_FAILED_SIGN_INS } from "../../../src/console/core/sign-in-lock";
import { recentMonths } from "../../../src/console/core/periods";
import { utcText } from "../../../src/kit/console/core/times";
import { hashPassword, verifyPassword } from "../../../src/console/auth/passwords";

describe("roles", () => {
  it("lets everyone read, editors configure, owners administer", () => {
    expect([may("viewer", "read"), may("viewer", "configure"), may("viewer", "administer")]).toEqual([
      true,
      false,
      false,
    ]);
    expect([may("editor", "read"), may("editor", "configure"), may("editor", "administer")]).toEqual([
      true,
      true,
      false,
    ]);
    expect([may("owner", "read"), may("owner", "configure"), may("owner", "administer")]).toEqual([true, true, true]);
  });
});

describe("sign-in lock", () => {
  it("locks after the tenth failure in a row until fifteen minutes after the last one", () => {
    let record = { failedSignIns: 0, lastFailedAt: null as number | null };
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) {
      expect(lockedFor(record, 1000 + i)).toBe(0);
      record = afterFailure(record, 1000 + i);
    }
    expect(record).toEqual({ failedSignIns: 10, lastFailedAt: 1009 });
    expect(lockedFor(record, 1009)).toBe(LOCK_MS);
    expect(lockedFor(record, 1009 + LOCK_MS)).toBe(0);
  });

  it("starts a new run of failures once the last one is older than the lock", () => {
    expect(afterFailure({ failedSignIns: 9, lastFailedAt: 0 }, LOCK_MS)).toEqual({
      failedSignIns: 1,
      lastFailedAt: LOCK_MS,
    });
    expect(afterFailure({ failedSignIns: 9, lastFailedAt: 0 }, LOCK_MS - 1)).toEqual({
      failedSignIns: 10,
      lastFailedAt: LOCK_MS - 1,
    });
  });
});

describe("charts", () => {
  it("rounds the scale up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 10, 11, 48, 50, 51, 999].map(niceCeiling)).toEqual([1, 1, 5, 10, 10, 20, 50, 50, 100, 1000]);
  });

  it("places bars side by side, bottom-aligned, never invisible when above zero", () => {
    const layout = layoutBars(
      [
        { label: "a", value: 0 },
        { label: "b", value: 1 },
        { label: "c", value: 100 },
      ],
      300,
      100,
      2,
    );
    expect(layout.scaleMax).toBe(100);
    expect(layout.bars.map((b) => [b.x, b.y, b.width, b.height])).toEqual([
      [1, 100, 98, 0],
      [101, 99, 98, 1],
      [201, 0, 98, 100],
    ]);
  });

  it("splits a bar into shares of the whole", () => {
    expect(
      layoutShares(
        [
          { label: "a", value: 3 },
          { label: "b", value: 1 },
          { label: "c", value: 0 },
        ],
        100,
      ).map((s) => [s.x, s.width]),
    ).toEqual([
      [0, 75],
      [75, 25],
      [100, 0],
    ]);
    expect(layoutShares([{ label: "a", value: 0 }], 100).map((s) => s.width)).toEqual([0]);
  });
});

describe("periods", () => {
  it("lists the months up to now, across a year's end", () => {
    expect(recentMonths(Date.parse("2026-02-15T12:00:00Z"), 4)).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
  });
});

describe("passwords", () => {
  it("verifies the password it hashed and nothing else, with a salt per hash", async () => {
    const hash = await hashPassword("correct horse battery", 1000);
    expect(hash).toMatch(/^pbkdf2-sha256\$1000\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await hashPassword("correct horse battery", 1000)).not.toBe(hash);
    for (const broken of [
      "",
      "md5$1$a$b",
      "pbkdf2-sha256$0$a$b",
      "pbkdf2-sha256$9999999$a$b",
      "pbkdf2-sha256$1000$$",
    ]) {
      expect(await verifyPassword("x", broken)).toBe(false);
    }
  });
});

describe("times written out", () => {
  it("are UTC to the second, from an ISO string or milliseconds", () => {
    expect(utcText("2099-12-01T00:00:00.000Z")).toBe("2099-12-01 00:00:00 UTC");
    expect(utcText(Date.UTC(2026, 10, 24, 15, 4, 5, 678))).toBe("2026-11-24 15:04:05 UTC");
  });
});
