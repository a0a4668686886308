import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index";
import { ADMIN, call, callWith, captureSends } from "../helpers";

/** The service clock now, as the dev clock reports it. */
export async function createPass(appId: string, fields: Record<string, unknown>) {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/battle-passes`, { token: ADMIN, body: fields });
  if (r.status !== 201) throw new Error(`create pass: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { battle_pass_id: string } & Record<string, any>;
}

export async function createLevel(appId: string, battlePassId: string, fields: Record<string, unknown>) {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/battle-passes/${battlePassId}/levels`, {
    token: ADMIN,
    body: fields,
  });
  if (r.status !== 201) throw new Error(`create level: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { level_id: string; challenges: { challenge_id: string }[] } & Record<string, any>;
}

/** A level with one challenge per (event_name, goal). */
export const levelOf = (...challenges: [string, number][]) => ({
  reward_amount: "100",
  level_reward_type: "coin",
  challenges: challenges.map(([event_name, challenge_goal]) => ({
    challenge_name: { en: `Do ${event_name}`, de: `Mach ${event_name}` },
    challenge_goal,
    event_name,
  })),
});

/** A pass of three levels: kill-enemy ×2 and collect-item ×3, then kill-enemy ×1, then earn-points ×10. */
export async function threeLevelPass(appId: string, pass: Record<string, unknown>) {
  const created = await createPass(appId, { battle_pass_name: { en: "Season", de: "Saison" }, ...pass });
  const levels = [
    await createLevel(appId, created.battle_pass_id, levelOf(["kill-enemy", 2], ["collect-item", 3])),
    await createLevel(appId, created.battle_pass_id, levelOf(["kill-enemy", 1])),
    await createLevel(appId, created.battle_pass_id, levelOf(["earn-points", 10])),
  ];
  return { pass: created, levels };
}

/** Sends one event for a user from the customer's backend. */
export async function addWebhook(appId: string, webhookType: string, url = "http://127.0.0.1:9/hook") {
  const r = await call("POST", `/api/v1/admin/apps/${appId}/webhooks`, {
    token: ADMIN,
    body: { webhook_type: webhookType, url, secret_key: "test-secret-1234" },
  });
  if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`);
}

/** The webhook queue, keeping what is sent to it: the webhook payloads (parsed) and their override URLs. */
export function capturingWebhooks() {
  const sent = captureSends(
    env.WEBHOOKS,
    (body: { webhookType: string; overrideUrl: string | null; body: string }) => ({
      webhookType: body.webhookType,
      overrideUrl: body.overrideUrl,
      payload: JSON.parse(body.body),
    }),
  );
  return { sent, queue: env.WEBHOOKS };
}

/** Calls the Worker with the webhook queue replaced (changes made by the Worker itself land there). */
export async function callCapturing(
  webhooks: Queue,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
) {
  const { status, body } = await callWith({ WEBHOOKS: webhooks }, method, path, options);
  return { status, body };
}

/** One cron run, with the webhook queue replaced. */
export async function runCron(webhooks: Queue) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *" }), { ...env, WEBHOOKS: webhooks }, ctx);
  await waitOnExecutionContext(ctx);
}
