import { writeConfig } from "../apps/config-write";
import { getNow, readClock, toIso, type ServiceClock } from "../shared/clock";
import { parseRetryAfter, retryBaseSeconds, WEBHOOK_MAX_ATTEMPTS } from "./core/backoff";
import { decide } from "./core/outcome";
import { webhookUrlProblem } from "../rules/webhook-url";
import { attemptDelivery } from "./deliver";
import { deadLetteredStatement, type LoggedOutcome, recordOutcomeStatements } from "./deliveries-repo";
import { disabledEntry, disableEndpointStatement, endpointForDelivery } from "./endpoints-repo";
import { type DeliveryMessage, isDeliveryMessage } from "./messages";
import { logLine } from "../shared/log";
import { erasedSince, erasureSubject, playerTombstone } from "../apps/erasure-tombstones";

const GONE = "The receiver answered 410 Gone";

/** What to tell the queue about one message once its outcome is in the log. */
type Settle = { ack: true } | { ack: false; delaySeconds: number };

interface Processed {
  message: DeliveryMessage;
  /**
   * The erasure subject of the player the message names: its log rows are written unless that player was erased since.
   */
  subject: string | null;
  outcome: LoggedOutcome;
  settle: Settle;
  /** The app whose endpoint this 410 disabled: its catalog version is bumped. */
  disabledAppId?: string;
}

/**
 * The webhooks queue and its dead-letter queue share this consumer (src/index.ts sends every
 * non-background queue here); the dead-letter queue is told apart by its name.
 */
export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue.endsWith("-dlq")) await recordDeadLettered(batch, env);
  else await deliverBatch(batch, env);
}

/**
 * Attempts every message of the batch at once, then writes all outcomes to the log in one D1
 * batch, and only then acks or schedules retries: a message leaves the queue only after its
 * outcome is logged. If the log write fails, the whole batch is retried by the queue.
 */
async function deliverBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // The service clock may be moved in development; attempts are logged on it, as the cron prunes on it.
  const clock = await readClock(env);
  const valid = batch.messages.filter((msg) => {
    if (isDeliveryMessage(msg.body)) return true;
    logLine("error", "webhook message of unknown shape dropped", {
      source: "queue",
      queue: batch.queue,
      message_id: msg.id,
    });
    msg.ack();
    return false;
  }) as Message<DeliveryMessage>[];
  if (valid.length === 0) return;

  const outcomes = await Promise.all(valid.map((msg) => processUnlessErased(env, msg, clock)));
  const processed = outcomes.filter((p): p is Processed => p !== null);
  // Disabling an endpoint changes the app's configuration, so the batch moves those apps' catalog versions.
  const disabledApps = [...new Set(processed.flatMap((p) => p.disabledAppId ?? []))];
  const disabled = processed.filter((p) => p.disabledAppId !== undefined);
  await writeConfig(
    env.DB,
    disabledApps,
    processed.flatMap((p) => [
      ...recordOutcomeStatements(env.DB, p.message, p.outcome, p.subject),
      ...(p.disabledAppId ? [disableEndpointStatement(env.DB, p.message.webhookId, GONE, p.outcome.at)] : []),
    ]),
    disabled.map((p) => disabledEntry(p.message.appId, p.message.webhookId, GONE)),
  );
  valid.forEach((msg, i) => {
    const settle = outcomes[i]?.settle ?? { ack: true };
    if (settle.ack) msg.ack();
    else msg.retry({ delaySeconds: settle.delaySeconds });
  });
}

/**
 * A message that names a player erased after it was queued is cancelled: not sent, and nothing
 * logged (the erasure deleted the delivery's row). Answers null for such a message.
 */
async function processUnlessErased(
  env: Env,
  msg: Message<DeliveryMessage>,
  clock: ServiceClock,
): Promise<Processed | null> {
  const { appId, userId, createdAt } = msg.body;
  const player = userId ? await playerTombstone(env, appId, userId) : null;
  if (player && erasedSince(player.erasedAt, createdAt)) {
    logLine("info", "webhook delivery cancelled: its player was erased", {
      source: "queue",
      app_id: appId,
      message_id: msg.body.messageId,
    });
    return null;
  }
  return processMessage(env, msg, clock, player?.subject ?? null);
}

async function processMessage(
  env: Env,
  msg: Message<DeliveryMessage>,
  clock: ServiceClock,
  subject: string | null,
): Promise<Processed> {
  const message = msg.body;
  const now = clock.now();
  const at = toIso(now);
  const refuse = (error: string): Processed => ({
    message,
    subject,
    outcome: { status: "failed", at, error, nextAttemptAt: null },
    settle: { ack: true },
  });

  const endpoint = await endpointForDelivery(env.DB, message.appId, message.webhookId);
  if (!endpoint) return refuse("Not sent: the webhook endpoint was deleted");
  if (!endpoint.enabled && !message.overrideUrl)
    return refuse("Not sent: the webhook endpoint is disabled (it answered 410 Gone)");
  const url = message.overrideUrl ?? endpoint.url;
  const problem = webhookUrlProblem(url, env.ALLOW_LOOPBACK_WEBHOOKS === "on");
  if (problem) return refuse(`Not sent: the URL ${problem}`);

  const result = await attemptDelivery(url, endpoint.secret, message.messageId, message.body);
  const decision = decide(
    result.statusCode,
    msg.attempts,
    retryBaseSeconds(env.WEBHOOK_RETRY_BASE_SECONDS),
    parseRetryAfter(result.retryAfter, Date.now()),
  );
  const attempt = {
    url,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
    succeeded: decision.kind === "succeeded",
  };

  switch (decision.kind) {
    case "succeeded":
      return {
        message,
        subject,
        outcome: { status: "succeeded", at, attempt, error: null, nextAttemptAt: null },
        settle: { ack: true },
      };
    case "gone":
      return {
        message,
        subject,
        outcome: { status: "failed", at, attempt, error: result.error, nextAttemptAt: null },
        settle: { ack: true },
        // A per-level URL that is gone does not speak for the endpoint whose secret it borrows.
        disabledAppId: message.overrideUrl ? undefined : message.appId,
      };
    case "retry": {
      // After the last attempt the queue dead-letters the retried message; the DLQ marks it failed.
      const last = msg.attempts >= WEBHOOK_MAX_ATTEMPTS;
      const nextAttemptAt = last ? null : toIso(now + decision.delaySeconds * 1000);
      return {
        message,
        subject,
        outcome: { status: "pending", at, attempt, error: result.error, nextAttemptAt },
        settle: { ack: false, delaySeconds: decision.delaySeconds },
      };
    }
  }
}

/**
 * Messages whose every attempt failed: the delivery is logged as failed for good (unless its player was erased since).
 */
async function recordDeadLettered(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const at = toIso(await getNow(env));
  const messages = batch.messages.map((msg) => msg.body).filter(isDeliveryMessage);
  const statements = await Promise.all(
    messages.map(async (m) =>
      deadLetteredStatement(env.DB, m, at, m.userId ? await erasureSubject(env, m.appId, m.userId) : null),
    ),
  );
  if (statements.length > 0) await env.DB.batch(statements);
  batch.ackAll();
}
