import type { BackgroundMessagesOf } from "../user/messages";
import type { ChangeSink, LeaderboardAudience } from "../changes/types";
import { applyLeaderboardEvents } from "./apply";
import { pointsEventName } from "../apps/points-rewards";

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

/**
 * Background handler of "points-earned" messages: each is applied as an event of the system's
 * points event name (its amount the points earned), which only boards ranking that system match.
 */
export async function applyLeaderboardPointsMessages(
  messages: BackgroundMessagesOf<"points-earned">,
  env: Env,
  deliver: ChangeSink,
  audience: LeaderboardAudience,
): Promise<void> {
  const events = messages.map((m) => ({
    messageId: m.id,
    event: {
      appId: m.body.appId,
      userId: m.body.userId,
      teamId: null,
      eventName: pointsEventName(m.body.system),
      eventType: "single" as const,
      sessionId: "",
      metaData: { amount: m.body.amount },
      eventId: null,
      receivedAt: m.body.at,
      credential: "api_key" as const,
    },
  }));
  await applyLeaderboardEvents(env, events, deliver, audience);
}
