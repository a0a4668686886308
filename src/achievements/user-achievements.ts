import { callUserArea } from "../user/names";
import { appTrust, banInForce, type AppTrust } from "../auth/trust";
import type { ErasedUser, Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import { toIso } from "../shared/clock";
import { achievementsCatalog, cachedRarity, rarityIn, type AppRarity } from "./catalog";
import { unlockedChange, unlockedTarget } from "./core/changes";
import {
  defaultAmount,
  earnedByEvent,
  earnedByGrant,
  earnedBySweep,
  metricProgress,
  movedCounters,
  revokedWith,
  ZERO_TOTALS,
  type ProgressSource,
  type Totals,
} from "./core/earn";
import type { AchievementDef, AchievementsCatalog } from "./core/model";
import { presentAchievement } from "./core/present";
import { listJson } from "./list-json";
import {
  achievementsTables,
  addTotals,
  dropHeld,
  readAllTotals,
  readHeldRows,
  readProgress,
  readSwept,
  readTotals,
  writeCounter,
  writeHeld,
  writeSwept,
  type HoldSource,
  type Progress,
} from "./user-store";

/** What a flow of the achievements area reads before its transaction. */
interface Loaded {
  appId: string;
  catalog: AchievementsCatalog;
  trust: AppTrust;
  /** null when the app has no achievement (nothing to earn, nothing to look up). */
  rarity: AppRarity | null;
}

export interface GrantAnswer {
  achievement_id: string;
  key: string;
  user_id: string;
  achieved_at: string;
  /** false: the player held it already, and nothing changed. */
  granted: boolean;
  /** Composites the grant completed, by id. */
  also_earned: string[];
}

export type GrantResult =
  | { ok: true; answer: GrantAnswer }
  | { ok: false; kind: "not-found" | "conflict" | "forbidden"; message: string };

export interface RevokeAnswer {
  achievement_id: string;
  user_id: string;
  /** What the player no longer holds: the achievement and the composites that required it; empty when not held. */
  revoked: string[];
}

export type RevokeResult = { ok: true; answer: RevokeAnswer } | { ok: false; kind: "not-found"; message: string };

/**
 * The achievements area of the user's Durable Object (src/user/area.ts). Every event adds to the
 * totals of its name, moves the counters of the metric achievements it passes the filters of, and
 * earns what reached its threshold and the composites that completes, with their rewards credited
 * and their `achievement-unlocked` change staged in the same transaction. When the app's
 * achievements changed since the object last looked (one was created or activated), its next
 * event or request sweeps all of them first: who already qualifies earns it then (backdating). A
 * banned player earns nothing and counts nothing.
 */
export class UserAchievements implements UserArea<Loaded> {
  static readonly tables = achievementsTables;

  constructor(private readonly context: UserObjectContext) {}

  private get sql() {
    return this.context.sql;
  }

  private async load(appId: string): Promise<Loaded> {
    const [catalog, trust] = await Promise.all([
      achievementsCatalog(this.context.env.DB, appId),
      appTrust(this.context.env.DB, appId),
    ]);
    const rarity = catalog.achievements.length === 0 ? null : await cachedRarity(this.context.env.DB, appId);
    return { appId, catalog, trust, rarity };
  }

  prepareEvent(event: UserEvent): Promise<Loaded> {
    return this.load(event.appId);
  }

  applyEvent(loaded: Loaded, event: UserEvent, staged: Staged): void {
    if (banInForce(loaded.trust, event.userId, event.receivedAt)) return;
    const amount = defaultAmount(event);
    if (amount !== null) addTotals(this.sql, event.eventName, amount);
    const { catalog } = loaded;
    const metrics = catalog.activeMetricsByEvent.get(event.eventName);
    const sweep = catalog.earnable && readSwept(this.sql) !== catalog.signature;
    if (!sweep && !metrics) return;
    const progress = readProgress(this.sql);
    const moved = movedCounters(catalog, event, (id) =>
      progress.held.has(id) ? undefined : progress.counters.get(id),
    );
    for (const [id, counter] of moved) {
      if (progress.held.has(id)) continue;
      progress.counters.set(id, counter);
      writeCounter(this.sql, id, counter);
    }
    const held = new Set(progress.held.keys());
    const source = this.source(progress);
    const earned = sweep
      ? earnedBySweep(catalog, source, held, progress.revoked)
      : earnedByEvent(catalog, event.eventName, source, held, progress.revoked);
    if (sweep) writeSwept(this.sql, catalog.signature);
    this.record(loaded, staged, event.userId, earned, event.receivedAt, "earned");
  }

  /** Reads the totals row by row, as progress needs them. */
  private source(progress: Progress, totals?: Map<string, Totals>): ProgressSource {
    const read = totals ?? new Map<string, Totals>();
    return {
      totals: (eventName) => {
        let t = read.get(eventName);
        if (t === undefined && totals === undefined) {
          t = readTotals(this.sql, eventName) ?? ZERO_TOTALS;
          read.set(eventName, t);
        }
        return t ?? ZERO_TOTALS;
      },
      counter: (id) => progress.counters.get(id),
    };
  }

  /**
   * Holds each achievement from `at`: the rewards credited to the points area (in this
   * transaction), the holders' +1 for the background consumer, the `achievement-unlocked` change
   * when somebody receives it.
   */
  private record(
    loaded: Loaded,
    staged: Staged,
    userId: string,
    earned: AchievementDef[],
    at: number,
    how: HoldSource,
  ): void {
    if (earned.length === 0) return;
    const { appId } = loaded;
    const receives = staged.receives(unlockedTarget(appId, userId));
    earned.forEach((def, i) => {
      // The first is granted; what it completes is earned.
      writeHeld(this.sql, def.achievementId, at, i === 0 ? how : "earned");
      for (const reward of def.pointsRewards)
        staged.credit({
          target: "points",
          appId,
          userId,
          system: reward.system,
          amount: reward.amount,
          source: { kind: "achievement", id: def.achievementId },
          reason: `Achievement ${def.key}`,
          at,
        });
      if (receives)
        staged.changes.push(
          unlockedChange(appId, userId, def, at, loaded.rarity ? rarityIn(loaded.rarity, def.achievementId) : 0),
        );
    });
    staged.background.push({
      kind: "achievement-holders",
      appId,
      deltas: earned.map((def) => ({ id: def.achievementId, delta: 1 })),
    });
  }

  /** Backdating at a request: sweeps when the app's achievements changed since the object last looked. */
  private async sweepIfDue(loaded: Loaded, userId: string, now: number): Promise<void> {
    if (!loaded.catalog.earnable || readSwept(this.sql) === loaded.catalog.signature) return;
    if (banInForce(loaded.trust, userId, now)) return;
    await this.context.transact((staged) => {
      if (readSwept(this.sql) === loaded.catalog.signature) return;
      const progress = readProgress(this.sql);
      const held = new Set(progress.held.keys());
      const earned = earnedBySweep(loaded.catalog, this.source(progress), held, progress.revoked);
      writeSwept(this.sql, loaded.catalog.signature);
      this.record(loaded, staged, userId, earned, now, "earned");
    }, loaded.appId);
  }

  /**
   * The player's list as JSON text (src/achievements/list-json.ts): every achievement but the
   * inactive ones, in sort order (src/achievements/core/present.ts).
   */
  async listJson(appId: string, userId: string, now: number, language?: string): Promise<string> {
    const loaded = await this.load(appId);
    await this.sweepIfDue(loaded, userId, now);
    const { catalog, rarity } = loaded;
    const progress = readProgress(this.sql);
    const source = this.source(progress, readAllTotals(this.sql));
    const shown = catalog.achievements.filter((def) => def.status !== "inactive");
    return listJson(catalog, shown, language, rarity, {
      achievedAt: (def) => progress.held.get(def.achievementId),
      progressKey: (def) => {
        if (def.hidden && !progress.held.has(def.achievementId)) return null;
        if (def.metric) return metricProgress(def, source);
        return def.kind === "composite"
          ? def.requires.filter((key) => progress.held.has(catalog.byKey.get(key)?.achievementId ?? "")).length
          : null;
      },
      present: (def) =>
        presentAchievement(
          catalog,
          def,
          source,
          progress.held,
          rarity ? rarityIn(rarity, def.achievementId) : 0,
          language,
        ),
    });
  }

  /**
   * The studio's backend grants an achievement (a manual one, or any as a correction): held from
   * now, with its rewards, change and the composites it completes. Holding it already answers it
   * as it is and changes nothing. Locked and inactive achievements take no new holders.
   */
  async grant(appId: string, achievementId: string, userId: string, now: number): Promise<GrantResult> {
    const loaded = await this.load(appId);
    const def = loaded.catalog.byId.get(achievementId);
    if (!def) return { ok: false, kind: "not-found", message: `Achievement ${achievementId} not found` };
    if (banInForce(loaded.trust, userId, now))
      return { ok: false, kind: "forbidden", message: `Player ${userId} is banned: they earn nothing while banned` };
    await this.sweepIfDue(loaded, userId, now);
    return this.context.transact((staged): GrantResult => {
      const progress = readProgress(this.sql);
      const known = progress.held.get(achievementId);
      const answer = (at: number, granted: boolean, also: AchievementDef[]): GrantResult => ({
        ok: true,
        answer: {
          achievement_id: def.achievementId,
          key: def.key,
          user_id: userId,
          achieved_at: toIso(at),
          granted,
          also_earned: also.map((d) => d.achievementId),
        },
      });
      if (known !== undefined) return answer(known, false, []);
      if (def.status !== "active")
        return {
          ok: false,
          kind: "conflict",
          message: `Achievement ${def.key} is ${def.status}: it takes no new holders`,
        };
      const held = new Set(progress.held.keys());
      const also = earnedByGrant(loaded.catalog, def.achievementId, held, progress.revoked);
      this.record(loaded, staged, userId, [def, ...also], now, "granted");
      return answer(now, true, also);
    }, appId);
  }

  /**
   * Takes an achievement back, with every composite held that required it; rewards credited stay.
   * The events that earned it do not earn it again (a grant gives it back). Not holding it revokes
   * nothing. An achievement since deleted can still be taken back by id.
   */
  async revoke(appId: string, achievementId: string, userId: string): Promise<RevokeResult> {
    const loaded = await this.load(appId);
    const progress = readProgress(this.sql);
    if (!loaded.catalog.byId.has(achievementId) && !progress.held.has(achievementId))
      return { ok: false, kind: "not-found", message: `Achievement ${achievementId} not found` };
    return this.context.transact((staged): RevokeResult => {
      const now = readProgress(this.sql);
      if (!now.held.has(achievementId))
        return { ok: true, answer: { achievement_id: achievementId, user_id: userId, revoked: [] } };
      const revoked = revokedWith(loaded.catalog, achievementId, new Set(now.held.keys()));
      for (const id of revoked) dropHeld(this.sql, id, id === achievementId);
      staged.background.push({
        kind: "achievement-holders",
        appId,
        deltas: revoked.map((id) => ({ id, delta: -1 })),
      });
      return { ok: true, answer: { achievement_id: achievementId, user_id: userId, revoked } };
    }, appId);
  }

  /** Everything the area holds of the player (the player export, the admin's view). */
  stored() {
    return {
      revoked: [...readProgress(this.sql).revoked].sort(),
      held: readHeldRows(this.sql).map((row) => ({
        achievement_id: row.achievement_id,
        achieved_at: toIso(row.achieved_at),
        source: row.source,
      })),
      totals: [...readAllTotals(this.sql)].map(([event_name, t]) => ({
        event_name,
        count: t.count,
        sum: t.sum,
        max: t.max,
      })),
    };
  }

  /** The player's progress on each metric achievement (the console's player page). */
  async progressOf(appId: string) {
    const { catalog } = await this.load(appId);
    const progress = readProgress(this.sql);
    const source = this.source(progress, readAllTotals(this.sql));
    return catalog.achievements.map((def) => ({
      achievement_id: def.achievementId,
      key: def.key,
      status: def.status,
      kind: def.kind,
      achieved_at: progress.held.has(def.achievementId) ? toIso(progress.held.get(def.achievementId)!) : null,
      progress: def.metric
        ? metricProgress(def, source)
        : def.kind === "composite"
          ? def.requires.filter((key) => progress.held.has(catalog.byKey.get(key)?.achievementId ?? "")).length
          : null,
      threshold: def.metric ? def.metric.threshold : def.kind === "composite" ? def.requires.length : null,
    }));
  }

  /** Leaving: every achievement held leaves its holders (the erasure's transaction). */
  onErase(player: ErasedUser, staged: Staged): void {
    const held = readHeldRows(this.sql);
    if (held.length === 0) return;
    staged.background.push({
      kind: "achievement-holders",
      appId: player.appId,
      deltas: held.map((row) => ({ id: row.achievement_id, delta: -1 })),
    });
  }
}

/** The achievements area's name: its part of the user's object. */
export const ACHIEVEMENTS = "achievements";

/** The achievements part of a user's object, over RPC. */
export const userAchievements = (env: Env, appId: string, userId: string) =>
  callUserArea<UserAchievements>(env, appId, userId, ACHIEVEMENTS);
