import { userObject } from "../user/names";
import type { ApplyEventResult, UserEvent } from "../user/event";
import { bannedError } from "../auth/bans";
import { banInForce, type AppTrust } from "../auth/trust";
import { admitAppEvents, refundAppEvents, reconcileAppEvents } from "./app-rate";
import { knownRefusal, rememberRefusal, type RateRefusal } from "./rate-limits";

/** Users whose events of one batch are applied at the same time. */
const USER_CONCURRENCY = 6;

export type IngestOutcome = ApplyEventResult | { failed: unknown };

/**
 * Applies many events: each user's events one after the other in the order given (a `group`
 * event replaces what the `single` events before it added), different users concurrently. Once a
 * user's object refuses one for the rate limit, the user's later events of the call are refused
 * the same without a call: they were received at the same instant.
 */
export async function ingestEvents(env: Env, events: UserEvent[], perUserPerMinute: number): Promise<IngestOutcome[]> {
  const outcomes: IngestOutcome[] = new Array(events.length);
  const byUser = new Map<string, number[]>();
  events.forEach((event, index) => {
    const key = `${event.appId}\u0000${event.userId}`;
    const sameUser = byUser.get(key);
    if (sameUser) sameUser.push(index);
    else byUser.set(key, [index]);
  });

  const queue = [...byUser.values()];
  const worker = async () => {
    for (let indexes = queue.shift(); indexes; indexes = queue.shift()) {
      const stub = userObject(env, events[indexes[0]].appId, events[indexes[0]].userId);
      let limited: IngestOutcome | undefined;
      for (const index of indexes) {
        if (limited) {
          outcomes[index] = limited;
          continue;
        }
        try {
          outcomes[index] = await stub.applyEvent(events[index], perUserPerMinute);
          if (outcomes[index].limited) limited = outcomes[index];
        } catch (err) {
          outcomes[index] = { failed: err };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(USER_CONCURRENCY, queue.length) }, worker));
  return outcomes;
}

/** What became of one event: taken (perhaps a duplicate), refused, past a rate limit, or failed. */
export type IntakeOutcome =
  | { kind: "accepted"; duplicate: boolean }
  | { kind: "forbidden"; message: string }
  | { kind: "limited"; refusal: RateRefusal }
  | { kind: "failed"; error: unknown };

/** What intake decides with, for one request of one app. */
export interface IntakeContext {
  env: Env;
  appId: string;
  trust: AppTrust;
  now: number;
  /** Work after the answer (the per-app count's reconciliation). */
  waitUntil: (work: Promise<unknown>) => void;
}

/** Why the app refuses this event whatever the limits (403), or null. */
function forbiddenReason(trust: AppTrust, event: UserEvent, now: number): string | null {
  if (event.credential === "access_token" && trust.backendOnlyEvents.has(event.eventName)) {
    return `Event '${event.eventName}' may only be sent by the studio's backend with an API key: the app lists it in backend_only_events`;
  }
  const ban = banInForce(trust, event.userId, now);
  return ban ? bannedError(event.userId, ban).message : null;
}

/**
 * The whole intake of validated events, one outcome per event in order: what the app forbids
 * (backend-only events from a client, banned players) is refused with 403; then the per-app limit
 * admits what fits (the first events), a player this isolate already knows to be past the
 * per-player limit is refused without a call, and the player's object applies the rest, counting
 * the per-player limit exactly. Events admitted but not applied are given back to the app's count.
 */
export async function takeEvents(ctx: IntakeContext, events: UserEvent[]): Promise<IntakeOutcome[]> {
  const { env, appId, trust, now } = ctx;
  const limits = trust.rateLimits;
  const outcomes: IntakeOutcome[] = new Array(events.length);
  const candidates: number[] = [];
  events.forEach((event, i) => {
    const forbidden = forbiddenReason(trust, event, now);
    const known = forbidden === null ? knownRefusal(appId, event.userId, now, limits.perUserPerMinute) : null;
    if (forbidden !== null) outcomes[i] = { kind: "forbidden", message: forbidden };
    else if (known) outcomes[i] = { kind: "limited", refusal: known };
    else candidates.push(i);
  });

  const app = admitAppEvents(appId, now, limits.perAppPerMinute, candidates.length);
  const admitted = candidates.slice(0, app.admitted);
  for (const i of candidates.slice(app.admitted)) {
    outcomes[i] = {
      kind: "limited",
      refusal: { policy: "per-app", limit: limits.perAppPerMinute, retryAfterMs: app.retryAfterMs },
    };
  }

  const results = await ingestEvents(
    env,
    admitted.map((i) => events[i]),
    limits.perUserPerMinute,
  );
  let notApplied = 0;
  admitted.forEach((i, j) => {
    const result = results[j];
    if ("failed" in result) {
      outcomes[i] = { kind: "failed", error: result.failed };
      notApplied++;
    } else if (result.limited) {
      const refusal: RateRefusal = {
        policy: "per-user",
        limit: limits.perUserPerMinute,
        retryAfterMs: result.limited.retryAfterMs,
      };
      rememberRefusal(appId, events[i].userId, now, refusal);
      outcomes[i] = { kind: "limited", refusal };
      notApplied++;
    } else {
      outcomes[i] = { kind: "accepted", duplicate: result.duplicate };
      if (result.duplicate) notApplied++;
    }
  });
  refundAppEvents(appId, now, notApplied);
  const reconciliation = reconcileAppEvents(env.DB, appId, now);
  if (reconciliation) ctx.waitUntil(reconciliation);
  return outcomes;
}
