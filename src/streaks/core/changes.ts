import type { Change } from "../../changes/types";
import type { StreakDef } from "./model";
import type { StreakNote, StreakNoteType } from "./streak";

/** Where a player's streak changes go: the webhook of the note's type and the player's notifications topic. */
export const streakChangeTarget = (
  appId: string,
  userId: string,
  type: StreakNoteType,
): Pick<Change, "webhookType" | "topic"> => ({
  webhookType: type,
  topic: { kind: "user-notifications", appId, userId },
});

/** One note as its webhook and notifications message: the same JSON on both. */
export function streakChange(appId: string, userId: string, def: StreakDef, n: StreakNote): Change {
  return {
    ...streakChangeTarget(appId, userId, n.type),
    appId,
    userId,
    payload: {
      webhook_type: n.type,
      app_id: appId,
      user_id: userId,
      streak_id: def.streakId,
      key: def.key,
      length: n.length,
      longest: n.longest,
      freezes: n.freezes,
      period_start: new Date(n.periodStart).toISOString(),
    },
  };
}
