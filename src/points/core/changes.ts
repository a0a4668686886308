import type { Change } from "../../changes/types";
import { levelOf, presentLevel, type Balance } from "./balance";
import type { PointsSource, PointsSystemDef } from "./model";

/** Where a player's points changes go: the `points-changed` webhooks and the player's notifications topic. */
export const pointsChangeTarget = (appId: string, userId: string): Pick<Change, "webhookType" | "topic"> => ({
  webhookType: "points-changed",
  topic: { kind: "user-notifications", appId, userId },
});

export interface PointsMove {
  appId: string;
  userId: string;
  system: PointsSystemDef;
  amount: number;
  before: Balance;
  after: Balance;
  source: PointsSource;
  defaultLanguage: string;
}

/** `points-changed`: one per system per event or request that moved the balance; the same JSON goes over MQTT. */
export function pointsChange(move: PointsMove): Change {
  const { appId, userId, system, defaultLanguage } = move;
  return {
    ...pointsChangeTarget(appId, userId),
    appId,
    userId,
    payload: {
      webhook_type: "points-changed",
      app_id: appId,
      user_id: userId,
      system: system.key,
      amount: move.amount,
      balance: move.after.balance,
      earned: move.after.earned,
      level: presentLevel(levelOf(system, move.after.earned), defaultLanguage),
      previous_level: presentLevel(levelOf(system, move.before.earned), defaultLanguage),
      source: { kind: move.source.kind, id: move.source.id },
    },
  };
}
