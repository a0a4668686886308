import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Instance } from "../../../src/challenges/core/lifecycle";
import { InstanceWrites, readAllInstances } from "../../../src/challenges/user-store";
import { userObject } from "../../../src/user/names";
import type { AreaSql } from "../../../src/shared/object-tables";
import { UserChallenges } from "../../../src/challenges/user-challenges";
import { areaTables } from "../helpers";

/**
 * A state change's instance writes are kept until its end and written with one statement per kind
 * (src/challenges/user-store.ts): what is stored afterwards must be each challenge's last state,
 * whatever mix of rewrites, counter updates and deletes led there.
 */

const started = (id: string, score = 0): Instance => ({
  userChallengeId: id,
  type: "in-progress",
  score,
  lastSessionId: null,
  unlockedAt: 1_000,
  activatedAt: 1_000,
  expiresAt: null,
  isClaimed: false,
  periodStart: null,
});

let objects = 0;
const inObject = (body: (sql: AreaSql) => void) =>
  runInDurableObject(userObject(env, "1", `writes-${++objects}`), (_instance, state) =>
    body(areaTables(state.storage, UserChallenges.tables)),
  );

describe("instance writes", () => {
  it("stores each challenge's last state: new rows, counters of stored rows, rows deleted", async () => {
    await inObject((sql) => {
      const first = new InstanceWrites();
      first.save("a", null, started("1"));
      first.save("b", null, started("2"));
      first.save("c", null, started("3"));
      first.flush(sql);

      const second = new InstanceWrites();
      // A counter of a stored row, twice in one state change.
      second.save("a", started("1"), { ...started("1", 5), lastSessionId: "s1" });
      second.save("a", { ...started("1", 5), lastSessionId: "s1" }, { ...started("1", 8), lastSessionId: "s2" });
      // A counter update, then a change of state: the row is rewritten whole.
      second.save("b", started("2"), started("2", 1));
      second.save("b", started("2", 1), { ...started("2", 1), type: "finished", isClaimed: true });
      second.save("c", started("3"), null);
      // Deleted, then started again within the same change.
      second.save("d", null, started("4"));
      second.save("d", started("4"), null);
      second.save("d", null, started("5", 2));
      second.flush(sql);

      const rows = readAllInstances(sql);
      expect([...rows.keys()].sort()).toEqual(["a", "b", "d"]);
      expect(rows.get("a")).toEqual({ ...started("1", 8), lastSessionId: "s2" });
      expect(rows.get("b")).toEqual({ ...started("2", 1), type: "finished", isClaimed: true });
      expect(rows.get("d")).toEqual(started("5", 2));
    });
  });

  it("writes nothing for a challenge that had no row and has none", async () => {
    await inObject((sql) => {
      const writes = new InstanceWrites();
      writes.save("x", null, null);
      writes.flush(sql);
      expect(readAllInstances(sql).size).toBe(0);
    });
  });
});
