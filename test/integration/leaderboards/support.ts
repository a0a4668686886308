import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import worker from "../../../src/index";
import type { BackgroundMessage } from "../../../src/user/messages";
import type { UserEvent } from "../../../src/user/event";
import { getNow } from "../../../src/shared/clock";
import { ADMIN, call } from "../helpers";
export { capturingQueue } from "../helpers";

export const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

/** Creates a board through the admin API; answers its admin view. */
export async function createBoard(appId: string, body: Record<string, unknown>) {
  const r = await admin("POST", `/apps/${appId}/leaderboards`, {
    name: "Board",
    event_name: "achieve-score",
    value_field: "score",
    ...body,
  });
  if (r.status !== 201) throw new Error(`board creation failed: ${JSON.stringify(r.body)}`);
  return r.body as { leaderboard_id: string; nextReset: string | null; season_started_at: string };
}

export interface EventSpec {
  user: string;
  team?: string;
  name?: string;
  meta?: Record<string, number | string>;
  eventId?: string;
  /** Service time of receipt; default: the service clock now. */
  at?: number;
  /** Who sent it; default the studio's backend (an API key). */
  credential?: UserEvent["credential"];
  /** Boards whose pace the player's object found exceeded. */
  paceExceeded?: string[];
}

export async function userEvent(appId: string, spec: EventSpec): Promise<UserEvent> {
  return {
    appId,
    userId: spec.user,
    teamId: spec.team ?? null,
    eventName: spec.name ?? "achieve-score",
    eventType: "single",
    sessionId: "persistent",
    metaData: spec.meta ?? {},
    eventId: spec.eventId ?? null,
    receivedAt: spec.at ?? (await getNow(env)),
    credential: spec.credential ?? "api_key",
  };
}

let nextMessage = 0;

/**
 * Delivers events to the Worker's queue handler as one background batch, as the queue would
 * (the real consumer runs: analytics and leaderboards). `ids` replays earlier messages.
 */
export async function deliver(appId: string, specs: EventSpec[], ids?: string[], overrides: Partial<Env> = {}) {
  const bodies: BackgroundMessage[] = [];
  for (const spec of specs) {
    const pace = spec.paceExceeded ? { paceExceeded: spec.paceExceeded } : {};
    bodies.push({ kind: "event", event: await userEvent(appId, spec), ...pace });
  }
  const messageIds = ids ?? bodies.map(() => `lb-msg-${++nextMessage}`);
  const batch = createMessageBatch<BackgroundMessage>(
    "gamification-background",
    bodies.map((body, i) => ({ id: messageIds[i], timestamp: new Date(), attempts: 1, body })),
  );
  await worker.queue(batch, { ...env, ...overrides });
  const result = await getQueueResult(batch, createExecutionContext());
  if (result.retryMessages.length > 0) throw new Error(`background batch retried: ${JSON.stringify(result)}`);
  return messageIds;
}

/** Scores of the `amount`-less achieve-score event: meta `score`. */
export const score = (user: string, value: number, extra: Partial<EventSpec> = {}): EventSpec => ({
  user,
  meta: { score: value },
  ...extra,
});

/** GET as a client with the given credential; answers status and body. */
export const get = (token: string, path: string) => call("GET", path, { token });

/** The (member_id, score, rank) triples of rows, for compact assertions. */
export const triples = (rows: { member_id: string; score: number; rank: number }[]) =>
  rows.map((r) => [r.member_id, r.score, r.rank]);
