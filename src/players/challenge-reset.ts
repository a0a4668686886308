import { PLAYER_RESOURCE, recordAudit, type Actor } from "../apps/audit-log";
import { userObject } from "../user/names";

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
  const stub = userObject(env, String(appId), userId);
  const before = await stub.challengeState();
  await stub.resetChallenges(String(appId), userId, now);
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
