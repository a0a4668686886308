import type { BackgroundKind, BackgroundMessagesOf, QueuedBackground } from "../user/messages";
import { recordEventAnalytics, recordUsageCounts } from "../events/channel";
import { dispatchChanges } from "../fanout/dispatch";
import { leaderboardAudience, topicAudience } from "../fanout/audience";
import { recordHolders } from "../catalog/holders-repo";
import { recordPlayersSeen } from "../apps/player-registry";
import type { ChangeSink } from "../changes/types";
import type { BackgroundChannels } from "../kit/area";
import { backgroundHandlers } from "../registry/areas";
import { logBackgroundFailure, logLine } from "../shared/log";

type Handler<K extends BackgroundKind> = (
  messages: BackgroundMessagesOf<K>,
  env: Env,
  channels: BackgroundChannels,
) => Promise<void>;

/** The handlers of each kind: the events channel's and the players' own, and every area's (its plugin's `background`). */
const HANDLERS: { [K in BackgroundKind]: Handler<K>[] } = {
  event: [recordEventAnalytics, ...backgroundHandlers("event"), recordPlayersSeen],
  usage: [recordUsageCounts, ...backgroundHandlers("usage")],
  holders: [recordHolders, ...backgroundHandlers("holders")],
  "points-earned": backgroundHandlers("points-earned"),
  "achievement-holders": backgroundHandlers("achievement-holders"),
  "league-score": backgroundHandlers("league-score"),
};

/**
 * A queue message as the handlers see it: its id is the one its user's object staged it with (the
 * same when the object hands it on again, src/wiring/outbox.ts), and a message handed on again
 * counts as a redelivery (`attempts` above 1), which handlers check against what they applied.
 */
function asHandled(message: Message<QueuedBackground>): Message<QueuedBackground> {
  const { outboxId, resent } = message.body;
  if (outboxId === undefined) return message;
  return {
    id: outboxId,
    timestamp: message.timestamp,
    body: message.body,
    attempts: resent ? Math.max(2, message.attempts) : message.attempts,
    ack: () => message.ack(),
    retry: (options) => message.retry(options),
  };
}

/**
 * Applies a batch of background work. Each handler gets all messages of its kind and writes them in
 * one D1 batch. When any handler of a kind fails, that kind's messages are retried for all its
 * handlers, so every handler must tolerate a replay (key rows by the message id).
 */
export async function consumeBackground(batch: MessageBatch<QueuedBackground>, env: Env): Promise<void> {
  const deliver: ChangeSink = (changes) => dispatchChanges(env, changes);
  const channels: BackgroundChannels = {
    deliver,
    leaderboardAudience: leaderboardAudience(env),
    topicAudience: topicAudience(env),
  };
  const byKind = new Map<BackgroundKind, Message<QueuedBackground>[]>();
  for (const message of batch.messages.map(asHandled)) {
    const sameKind = byKind.get(message.body.kind);
    if (sameKind) sameKind.push(message);
    else byKind.set(message.body.kind, [message]);
  }
  await Promise.all(
    [...byKind].map(async ([kind, messages]) => {
      const handlers = HANDLERS[kind] as Handler<BackgroundKind>[] | undefined;
      if (!handlers) {
        // Written by another version of the Worker; nothing here can apply it.
        logLine("error", "background messages of unknown kind dropped", {
          source: "queue",
          queue: batch.queue,
          kind,
          messages: messages.length,
        });
        for (const message of messages) message.ack();
        return;
      }
      const results = await Promise.allSettled(
        handlers.map(async (handle) => handle(messages as BackgroundMessagesOf<BackgroundKind>, env, channels)),
      );
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      for (const failure of failures) {
        logBackgroundFailure("queue", "background handler failed; its messages are retried", failure.reason, {
          queue: batch.queue,
          kind,
          messages: messages.length,
        });
      }
      for (const message of messages) {
        if (failures.length > 0) message.retry();
        else message.ack();
      }
    }),
  );
}
