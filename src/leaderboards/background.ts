import type { BackgroundMessagesOf } from "../user/messages";
import type { ChangeSink, LeaderboardAudience } from "../changes/types";
import { applyLeaderboardEvents } from "./apply";

/** Background handler of "event" messages: scores of the leaderboards the events match. */
export async function applyLeaderboardEventMessages(
  messages: BackgroundMessagesOf<"event">,
  env: Env,
  deliver: ChangeSink,
  audience: LeaderboardAudience,
): Promise<void> {
  const events = messages.map((m) => ({
    messageId: m.id,
    event: m.body.event,
    ...(m.body.paceExceeded ? { paceExceeded: m.body.paceExceeded } : {}),
  }));
  await applyLeaderboardEvents(env, events, deliver, audience);
}
