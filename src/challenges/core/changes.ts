import type { Change } from "../../changes/types";
import type { Transition } from "./lifecycle";
import type { ChallengeCatalog } from "./model";
import { presentChallenge } from "./present";

export interface ChangeContext {
  appId: string;
  userId: string;
  catalog: ChallengeCatalog;
  /** An access token of the user: receivers may use it to send further events for that user. */
  userToken: string;
}

/** The spec's challenge-changed payload for one transition, in the app's default language. */
export function challengeChange(ctx: ChangeContext, transition: Transition): Change {
  const entry = ctx.catalog.byId.get(transition.challengeId)!;
  const lang = { defaultLanguage: ctx.catalog.defaultLanguage };
  return {
    appId: ctx.appId,
    webhookType: "challenge-changed",
    topic: { kind: "user-challenges", appId: ctx.appId, userId: ctx.userId },
    payload: {
      webhook_type: "challenge-changed",
      category_position: entry.category.position,
      user_token: ctx.userToken,
      old_challenge: presentChallenge(entry.challenge, transition.before, lang),
      new_challenge: presentChallenge(entry.challenge, transition.after, lang),
    },
  };
}
