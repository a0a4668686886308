import type { Change } from "../../changes/types";
import type { Snapshot, Transition } from "./lifecycle";
import type { ChallengeCatalog, ChallengeDef } from "./model";
import { presentChallenge, type Language } from "./present";

export interface ChangeContext {
  appId: string;
  userId: string;
  catalog: ChallengeCatalog;
  /** An access token of the user: receivers may use it to send further events for that user. */
  userToken: string;
}

/**
 * The challenge as a payload carries it: SCILL's service also sent whose challenge it is and the
 * session of the last event its counter took (null before any), which SCILL's own webhook receiver
 * reads (sdk-clients.md, "Webhooks as SCILL's own receiver reads them").
 */
function payloadChallenge(def: ChallengeDef, snapshot: Snapshot, userId: string, lang: Language) {
  return {
    ...presentChallenge(def, snapshot, lang),
    user_id: userId,
    session_id: snapshot.instance?.lastSessionId ?? null,
  };
}

/** Where a user's challenge changes go: what decides whether anybody receives them. */
export const challengeChangeTarget = (ctx: Pick<ChangeContext, "appId" | "userId">) =>
  ({
    webhookType: "challenge-changed",
    topic: { kind: "user-challenges", appId: ctx.appId, userId: ctx.userId },
  }) satisfies Pick<Change, "webhookType" | "topic">;

/** The spec's challenge-changed payload for one transition, in the app's default language. */
export function challengeChange(ctx: ChangeContext, transition: Transition): Change {
  const entry = ctx.catalog.byId.get(transition.challengeId)!;
  const lang: Language = { defaultLanguage: ctx.catalog.defaultLanguage };
  return {
    appId: ctx.appId,
    ...challengeChangeTarget(ctx),
    userId: ctx.userId,
    payload: {
      webhook_type: "challenge-changed",
      category_position: entry.categoryIndex,
      user_token: ctx.userToken,
      old_challenge: payloadChallenge(entry.challenge, transition.before, ctx.userId, lang),
      new_challenge: payloadChallenge(entry.challenge, transition.after, ctx.userId, lang),
    },
  };
}
