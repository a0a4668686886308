import type { Change } from "../changes/types";
import type { UserEvent } from "../events/types";
import type { Outbox } from "../user/outbox";
import type { BattlePassCatalog, CatalogPass } from "./catalog";
import { challengeChanges, rewardClaimedChange } from "./changes";
import { activateLevel, applyEvent, claimLevel, unlockPass, type Outcome, type PassProgress, type Purchase } from "./core/progress";
import { readProgress, writeProgress } from "./user-store";

/** What runs inside the user's Durable Object; UserDO's battle-pass RPC methods delegate here. */

export type BattlePassAction =
  | { kind: "unlock"; purchase: Purchase }
  | { kind: "activate"; levelId: string }
  | { kind: "claim"; levelId: string };

export interface ActionResult {
  before: PassProgress | null;
  after: PassProgress;
}

/**
 * One user action on one pass, against the pass definition the Worker read from the catalog. What
 * it changed is staged for webhooks and MQTT in the same step as the new progress.
 */
export function runBattlePassAction(sql: SqlStorage, outbox: Outbox, pass: CatalogPass, userId: string, action: BattlePassAction, now: number): Outcome<ActionResult> {
  const before = readProgress(sql, pass.battlePassId)[pass.battlePassId] ?? null;
  const outcome =
    action.kind === "unlock"
      ? unlockPass(pass, before, action.purchase, now)
      : action.kind === "activate"
        ? activateLevel(pass, before, action.levelId, now)
        : claimLevel(pass, before, action.levelId, now);
  if (!outcome.ok) return outcome;
  if (outcome.value !== before) writeProgress(sql, pass.battlePassId, before, outcome.value);
  const changes = challengeChanges(pass, userId, before, outcome.value, now);
  if (action.kind === "claim") changes.push(rewardClaimedChange(pass, userId, action.levelId));
  outbox.stage(changes);
  return { ok: true, value: { before, after: outcome.value } };
}

/**
 * The battle-pass part of applying one event, synchronously inside the event's transaction:
 * moves the counters of the user's unlocked passes and answers the battlepass-challenge-changed
 * notifications.
 */
export function applyBattlePassEvent(sql: SqlStorage, catalog: BattlePassCatalog | null, event: UserEvent): Change[] {
  if (!catalog) return [];
  const progress = readProgress(sql);
  const changes: Change[] = [];
  for (const pass of catalog.passes) {
    const before = progress[pass.battlePassId];
    if (!before) continue;
    const after = applyEvent(pass, before, event, event.receivedAt);
    if (after === before || after === null) continue;
    writeProgress(sql, pass.battlePassId, before, after);
    changes.push(...challengeChanges(pass, event.userId, before, after, event.receivedAt));
  }
  return changes;
}
