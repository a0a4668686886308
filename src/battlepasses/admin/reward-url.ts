import { invalid } from "../../shared/domain-errors";
import { webhookUrlProblem } from "../../rules/webhook-url";

/**
 * A level's reward URL follows the rule of the app's webhook endpoints (HTTPS; plain http to loopback only in local
 * development).
 */
export function checkRewardWebhookUrl(env: Pick<Env, "ALLOW_LOOPBACK_WEBHOOKS">, url: string | null): void {
  const problem = url === null ? null : webhookUrlProblem(url, env.ALLOW_LOOPBACK_WEBHOOKS === "on");
  if (problem) throw invalid(`Invalid body: reward_webhook_url ${problem}`, [{ field: "reward_webhook_url", problem }]);
}
