import { PLAYER_RESOURCE, recordAudit, type Actor } from "../../apps/audit-log";
import { userChallenges } from "../user-challenges";

/**
 * An operator resets a player's challenges (the console): the same reset as SCILL's API-key
 * endpoint, recorded in the audit log with what the player held before.
 */
export async function resetPlayerChallenges(
  env: Env,
  appId: number,
  userId: string,
  now: number,
  actor: Actor,
): Promise<void> {
  const area = userChallenges(env, String(appId), userId);
  const before = await area.state();
  await area.reset(String(appId), userId, now);
  const held = before.map((c) => ({ challenge_id: c.challenge_id, type: c.type, score: c.score }));
  await recordAudit(env.DB, [
    {
      actor,
      appId,
      resource: PLAYER_RESOURCE,
      resourceId: userId,
      action: "reset-challenges",
      before: { challenges: held },
      after: { challenges: [] },
    },
  ]);
}
