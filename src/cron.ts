import { pruneEventData } from "./events/retention";
import { expireBattlePasses } from "./battlepasses/expiry";
import { pruneDeliveryLog } from "./webhooks/deliveries-repo";
import { runLeaderboardMaintenance } from "./leaderboards/maintenance";
import { dispatchChanges } from "./fanout/dispatch";
import { pruneHolderReceipts } from "./catalog/holders-store";

/** Periodic work that must happen even when no user is active: runs every minute. */
export async function runScheduled(env: Env, now: number): Promise<void> {
  await Promise.all([pruneEventData(env, now), expireBattlePasses(env, now, (changes) => dispatchChanges(env, changes)), pruneDeliveryLog(env.DB, now), runLeaderboardMaintenance(env, now), pruneHolderReceipts(env.DB, now)]);
}
