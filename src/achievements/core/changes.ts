import type { Change } from "../../changes/types";
import { toIso } from "../../shared/clock";
import type { AchievementDef } from "./model";

/** Where a player's unlocked achievements go: the `achievement-unlocked` webhooks and the player's notifications topic. */
export const unlockedTarget = (appId: string, userId: string): Pick<Change, "webhookType" | "topic"> => ({
  webhookType: "achievement-unlocked",
  topic: { kind: "user-notifications", appId, userId },
});

/** `achievement-unlocked`: one per achievement a player earns or is granted; the same JSON goes over MQTT. */
export function unlockedChange(appId: string, userId: string, def: AchievementDef, at: number, rarity: number): Change {
  return {
    ...unlockedTarget(appId, userId),
    appId,
    userId,
    payload: {
      webhook_type: "achievement-unlocked",
      app_id: appId,
      user_id: userId,
      achievement_id: def.achievementId,
      key: def.key,
      achieved_at: toIso(at),
      rarity,
    },
  };
}
