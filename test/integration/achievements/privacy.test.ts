import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ADMIN, call, createTestApp, sendEvent } from "../helpers";
import { erase } from "../players/support";
import { createAchievement, grant } from "./support";

const holdersOf = async (achievementId: string) =>
  (
    await env.DB.prepare("SELECT holders FROM achievement_holders WHERE achievement_id = ?")
      .bind(Number(achievementId))
      .first<{ holders: number }>()
  )?.holders ?? 0;

describe("achievements: privacy", () => {
  it("the export holds what the player holds and their totals; erasure lowers the holder counts", async () => {
    const app = await createTestApp("Achievements privacy");
    const metric = await createAchievement(app.appId, {
      key: "loot-5",
      kind: "metric",
      event_name: "loot",
      threshold: 5,
    });
    const manual = await createAchievement(app.appId, { key: "vip", kind: "manual" });
    await sendEvent(app.apiKey, "kim", "loot", { amount: 2 });
    await sendEvent(app.apiKey, "kim", "loot", { amount: 3 });
    await sendEvent(app.apiKey, "lou", "loot", { amount: 7 });
    const granted = await grant(app.appId, app.apiKey, manual.achievement_id, "kim");
    expect(granted.status).toBe(200);
    await vi.waitFor(
      async () => {
        expect(await holdersOf(metric.achievement_id)).toBe(2);
        expect(await holdersOf(manual.achievement_id)).toBe(1);
      },
      { timeout: 30_000, interval: 200 },
    );

    const exported = await call("GET", `/api/v1/admin/apps/${app.appId}/users/kim/export`, { token: ADMIN });
    expect(exported.status).toBe(200);
    expect(exported.body.achievements).toEqual({
      revoked: [],
      held: [
        {
          achievement_id: metric.achievement_id,
          achieved_at: exported.body.achievements.held[0].achieved_at,
          source: "earned",
        },
        { achievement_id: manual.achievement_id, achieved_at: granted.body.achieved_at, source: "granted" },
      ],
      totals: [{ event_name: "loot", count: 2, sum: 5, max: 3 }],
    });
    const state = await call("GET", `/api/v1/admin/apps/${app.appId}/users/kim`, { token: ADMIN });
    expect(state.body.achievements.held).toHaveLength(2);

    await erase(app.appId, "kim");
    await vi.waitFor(
      async () => {
        expect(await holdersOf(metric.achievement_id)).toBe(1);
        expect(await holdersOf(manual.achievement_id)).toBe(0);
      },
      { timeout: 30_000, interval: 200 },
    );
    const after = await call("GET", `/api/v1/admin/apps/${app.appId}/users/kim/export`, { token: ADMIN });
    expect(after.body.achievements).toEqual({ revoked: [], held: [], totals: [] });
  });
});
