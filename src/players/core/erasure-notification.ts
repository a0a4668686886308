import type { Change } from "../../changes/types";
import type { CompletedErasure } from "../user-erasure";

/**
 * `user-erased` (beyond the spec): a player's erasure completed. It names the erasure, whose id the
 * studio got when it asked, never the player: the log of this very delivery must not hold their id.
 */
export function userErasedChange(done: CompletedErasure): Change {
  return {
    appId: done.appId,
    webhookType: "user-erased",
    topic: null,
    userId: null,
    payload: {
      webhook_type: "user-erased",
      app_id: done.appId,
      erasure_id: done.erasureId,
      requested_at: new Date(done.requestedAt).toISOString(),
      completed_at: new Date(done.completedAt).toISOString(),
    },
  };
}
