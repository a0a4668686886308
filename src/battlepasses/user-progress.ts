import type { Change } from "../changes/types";
import { callUserArea } from "../user/names";
import type { UserEvent } from "../user/event";
import type {
  CorrectionRequest,
  CorrectionResult,
  ErasedUser,
  Staged,
  UserArea,
  UserObjectContext,
} from "../user/area";
import type { HolderDelta } from "../user/messages";
import { battlePassCatalog, type BattlePassCatalog, type CatalogPass } from "./catalog";
import { challengeChanges, rewardClaimedChange } from "./core/changes";
import {
  activateLevel,
  applyEvent,
  claimLevel,
  correctLevelChallenge,
  unlockPass,
  viewLevels,
  type LevelChallengeCorrection,
  type Outcome,
  type PassProgress,
  type Purchase,
} from "./core/progress";
import {
  battlePassTables,
  countedUnlocks,
  hasUnlockedPasses,
  readProgress,
  takeUncountedUnlocks,
  writeProgress,
} from "./user-store";

export type BattlePassAction =
  | { kind: "unlock"; purchase: Purchase }
  | { kind: "activate"; levelId: string }
  | { kind: "claim"; levelId: string };

/** A claimed level's points_rewards, for the points area (src/user/area.ts); SCILL's answers do not change. */
function creditLevelRewards(pass: CatalogPass, userId: string, levelId: string, now: number, staged: Staged): void {
  const level = pass.levels.find((l) => l.levelId === levelId);
  for (const reward of level?.pointsRewards ?? []) {
    staged.credit({
      target: "points",
      appId: pass.appId,
      userId,
      system: reward.system,
      amount: reward.amount,
      source: { kind: "battle-pass-level", id: levelId },
      reason: `Battle pass ${pass.battlePassId} level ${levelId} claimed`,
      at: now,
    });
  }
}

export interface ActionResult {
  before: PassProgress | null;
  after: PassProgress;
}

/**
 * The battle-pass area of the user's Durable Object (src/user/area.ts); UserDO's battle-pass RPC
 * methods come here. Events move the counters of the passes the user unlocked.
 */
export class UserBattlePasses implements UserArea<BattlePassCatalog | null> {
  static readonly tables = battlePassTables;
  /** Whether the user unlocked a pass: only this object unlocks them, so it is read once. */
  private unlocked: boolean | undefined;
  /** Whether unlocks older than D1's holder counts were reported (once per object start). */
  private holdersChecked = false;

  constructor(private readonly context: UserObjectContext) {}

  private get sql() {
    return this.context.sql;
  }

  /** The catalog, only for a user with an unlocked pass: other users' events have nothing to move. */
  async prepareEvent(event: UserEvent): Promise<BattlePassCatalog | null> {
    this.unlocked ??= hasUnlockedPasses(this.sql);
    return this.unlocked ? battlePassCatalog(this.context.env.DB, event.appId) : null;
  }

  /** Moves the counters of the user's unlocked passes; reports battlepass-challenge-changed. */
  applyEvent(catalog: BattlePassCatalog | null, event: UserEvent, staged: Staged): void {
    if (!catalog) return;
    this.reportHolders(event.appId, [], staged);
    const progress = readProgress(this.sql);
    for (const pass of catalog.passes) {
      const before = progress[pass.battlePassId];
      if (!before) continue;
      const after = applyEvent(pass, before, event, event.receivedAt);
      if (after === before || after === null) continue;
      writeProgress(this.sql, pass.battlePassId, before, after);
      staged.changes.push(...challengeChanges(pass, event.userId, before, after, event.receivedAt));
    }
  }

  /** The user's progress in every battle pass they unlocked, by battle_pass_id. */
  progress(): Record<string, PassProgress> {
    return readProgress(this.sql);
  }

  /** One user action on one pass, against the pass definition the Worker read from the catalog. */
  async act(pass: CatalogPass, userId: string, action: BattlePassAction, now: number): Promise<Outcome<ActionResult>> {
    const outcome = await this.context.transact((staged) => {
      const before = readProgress(this.sql, pass.battlePassId)[pass.battlePassId] ?? null;
      const result =
        action.kind === "unlock"
          ? unlockPass(pass, before, action.purchase, now)
          : action.kind === "activate"
            ? activateLevel(pass, before, action.levelId, now)
            : claimLevel(pass, before, action.levelId, now);
      if (!result.ok) return result;
      if (result.value !== before) writeProgress(this.sql, pass.battlePassId, before, result.value);
      this.reportHolders(pass.appId, before === null ? [pass.battlePassId] : [], staged);
      const changes: Change[] = challengeChanges(pass, userId, before, result.value, now);
      if (action.kind === "claim") {
        changes.push(rewardClaimedChange(pass, userId, action.levelId));
        creditLevelRewards(pass, userId, action.levelId, now, staged);
      }
      staged.changes.push(...changes);
      return { ok: true as const, value: { before, after: result.value } };
    }, pass.appId);
    if (action.kind === "unlock") this.unlocked = undefined;
    return outcome;
  }

  /** The operator's corrections (src/players/corrections.ts). */
  readonly corrections = {
    "battle-pass-unlock": (request: CorrectionRequest) => this.correctUnlock(request),
    "battle-pass-level-challenge": (request: CorrectionRequest) => this.correctChallenge(request),
  };

  private async passOf(appId: string, battlePassId: string): Promise<CatalogPass | null> {
    return (
      (await battlePassCatalog(this.context.env.DB, appId)).passes.find((p) => p.battlePassId === battlePassId) ?? null
    );
  }

  /** Unlocks a pass for the player, as their purchase would (price 0): its first level activates. */
  private async correctUnlock({ appId, userId, now, input }: CorrectionRequest): Promise<CorrectionResult> {
    const battlePassId = String(input.battlePassId);
    const pass = await this.passOf(appId, battlePassId);
    if (!pass) return { ok: false, kind: "not-found", message: `Battle pass ${battlePassId} not found` };
    if (readProgress(this.sql, battlePassId)[battlePassId])
      return { ok: false, kind: "conflict", message: `Battle pass ${battlePassId} is already unlocked by this player` };
    const outcome = await this.act(pass, userId, { kind: "unlock", purchase: { price: 0, currency: "" } }, now);
    if (!outcome.ok) return { ok: false, kind: "conflict", message: outcome.conflict };
    return {
      ok: true,
      before: { battle_pass_id: battlePassId, unlocked: false },
      after: { battle_pass_id: battlePassId, unlocked: true },
    };
  }

  /** Sets a level challenge's counter or completes it (the goal reached as by an event). */
  private async correctChallenge({ appId, userId, now, input }: CorrectionRequest): Promise<CorrectionResult> {
    const { battlePassId, challengeId, counter, complete } = input as unknown as {
      battlePassId: string;
    } & LevelChallengeCorrection;
    const pass = await this.passOf(appId, battlePassId);
    if (!pass) return { ok: false, kind: "not-found", message: `Battle pass ${battlePassId} not found` };
    const def = pass.levels.flatMap((l) => l.challenges).find((c) => c.challengeId === challengeId);
    if (!def)
      return {
        ok: false,
        kind: "not-found",
        message: `Challenge ${challengeId} is not a level challenge of battle pass ${battlePassId}`,
      };
    if (counter !== undefined && counter > def.goal) {
      return {
        ok: false,
        kind: "invalid",
        message: `Invalid body: counter must be between 0 and the challenge's goal, ${def.goal}`,
      };
    }
    const view = (progress: PassProgress | null) => {
      const shown = viewLevels(pass, progress, now)
        .flatMap((l) => l.challenges)
        .find((c) => c.challengeId === challengeId)!;
      return { battle_pass_id: battlePassId, challenge_id: challengeId, state: shown.type, counter: shown.score };
    };
    return this.context.transact((staged): CorrectionResult => {
      const before = readProgress(this.sql, battlePassId)[battlePassId] ?? null;
      const result = correctLevelChallenge(pass, before, { challengeId, counter, complete }, now);
      if (!result.ok) return { ok: false, kind: "conflict", message: result.conflict };
      writeProgress(this.sql, battlePassId, before, result.value);
      staged.changes.push(...challengeChanges(pass, userId, before, result.value, now));
      return { ok: true, before: view(before), after: view(result.value) };
    }, appId);
  }

  /** The passes the player unlocked leave their holder counts. */
  onErase(player: ErasedUser, staged: Staged): void {
    const deltas: HolderDelta[] = countedUnlocks(this.sql).map((id) => ({
      object: "battle-pass",
      id,
      state: "unlocked",
      delta: -1,
    }));
    if (deltas.length > 0) staged.background.push({ kind: "holders", appId: player.appId, deltas });
  }

  /**
   * Stages +1 to the holder count of each pass the user just unlocked (D1 keeps the totals), and,
   * once per object start, of unlocks older than the counts (D1 migration 0010).
   */
  private reportHolders(appId: string, unlockedNow: string[], staged: Staged): void {
    if (this.holdersChecked && unlockedNow.length === 0) return;
    const passes = [...unlockedNow];
    if (!this.holdersChecked) {
      passes.push(...takeUncountedUnlocks(this.sql));
      this.holdersChecked = true;
    }
    const deltas: HolderDelta[] = passes.map((id) => ({ object: "battle-pass", id, state: "unlocked", delta: 1 }));
    if (deltas.length > 0) staged.background.push({ kind: "holders", appId, deltas });
  }
}

/** The area's name in the user's object (its plugin, src/battlepasses/plugin.ts). */
export const BATTLE_PASSES = "battlePasses";

/** The battle-pass part of a user's object, over RPC. */
export const userBattlePasses = (env: Env, appId: string, userId: string) =>
  callUserArea<UserBattlePasses>(env, appId, userId, BATTLE_PASSES);
