import { buildApp } from "./app";
import { getNow } from "./shared/clock";
import { runScheduled } from "./cron";
import { consumeBackground } from "./wiring/background-consumer";
import type { QueuedBackground } from "./user/messages";
import { consumeWebhooks } from "./webhooks/channel";
import { connectMqtt, MQTT_PATH } from "./realtime/channel";
import { configureLog, logBackgroundFailure } from "./shared/log";
import { observeRequest } from "./shared/request-log";

export { UserDO } from "./wiring/user-do";
export { MqttBroker } from "./realtime/channel";
export { TopicHub } from "./realtime/channel";

const app = buildApp();

/** Base addresses may end in "/" while paths begin with one: `//api/v1/...` is the same route. */
function withNormalizedPath(request: Request): Request {
  const url = new URL(request.url);
  if (!url.pathname.includes("//")) return request;
  url.pathname = url.pathname.replace(/\/{2,}/g, "/");
  return new Request(url, request);
}

export default {
  fetch(request, env, ctx) {
    const normalized = withNormalizedPath(request);
    // The MQTT WebSocket upgrade bypasses the app so no middleware touches its 101 answer.
    if (new URL(normalized.url).pathname === MQTT_PATH)
      return observeRequest(normalized, env, MQTT_PATH, () => connectMqtt(normalized, env));
    return app.fetch(normalized, env, ctx);
  },

  async queue(batch, env) {
    configureLog(env);
    try {
      if (batch.queue.startsWith("gamification-background")) {
        await consumeBackground(batch as MessageBatch<QueuedBackground>, env);
      } else {
        await consumeWebhooks(batch, env);
      }
    } catch (err) {
      logBackgroundFailure("queue", "queue batch failed; the queue retries it", err, {
        queue: batch.queue,
        messages: batch.messages.length,
      });
      throw err;
    }
  },

  async scheduled(_controller, env, ctx) {
    configureLog(env);
    ctx.waitUntil(getNow(env).then((now) => runScheduled(env, now)));
  },
} satisfies ExportedHandler<Env, unknown>;
