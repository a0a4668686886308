import { callUserArea } from "../user/names";
import { appTrust, banInForce, type AppTrust } from "../auth/trust";
import type { CorrectionRequest, CorrectionResult, Credit, Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import { toIso } from "../shared/clock";
import { localize } from "../shared/localize";
import {
  adjust,
  applyTriggers,
  credit,
  levelOf,
  nextLevelOf,
  presentLevel,
  spend,
  ZERO_BALANCE,
  type Balance,
  type Movement,
} from "./core/balance";
import { pointsChange, pointsChangeTarget } from "./core/changes";
import { foldDue, IDEMPOTENCY_MS } from "./core/ledger";
import {
  SOURCE_KINDS,
  type PointsCatalog,
  type PointsSource,
  type PointsSystemDef,
  type SourceKind,
} from "./core/model";
import { pointsCatalog } from "./catalog";
import {
  pointsTables,
  foldLedger,
  keepAnswer,
  knownAnswer,
  readAllBalances,
  readBalance,
  readAllCarried,
  readLedger,
  readWholeLedger,
  recordEntry,
  writeCarried,
  type LedgerRow,
} from "./user-store";

/** What a transaction of the points area reads, loaded before it: the app's systems and its bans. */
interface Loaded {
  appId: string;
  catalog: PointsCatalog;
  trust: AppTrust;
}

/** A grant or a spend from the studio's backend. */
export interface PointsWrite {
  op: "grant" | "spend";
  systemKey: string;
  userId: string;
  amount: number;
  reason: string;
  idempotencyKey: string;
}

export interface WriteAnswer {
  balance: number;
  earned: number;
  level: ReturnType<typeof presentLevel>;
  entry_id: string;
}

export type WriteResult =
  | { ok: true; answer: WriteAnswer }
  | { ok: false; kind: "not-found" | "conflict"; message: string; balance?: number };

const presentEntry = (row: LedgerRow) => ({
  entry_id: String(row.entry_id),
  amount: row.amount,
  balance_after: row.balance_after,
  source: { kind: row.source_kind, id: row.source_id },
  reason: row.reason,
  created_at: toIso(row.created_at),
});

/** A credit's kind as the ledger keeps it; an area's own kind that the ledger does not know shows as an adjustment. */
const sourceOf = (source: Credit["source"]): PointsSource => ({
  kind: (SOURCE_KINDS as readonly string[]).includes(source.kind) ? (source.kind as SourceKind) : "adjustment",
  id: source.id,
});

/**
 * The points area of the user's Durable Object (src/user/area.ts): the player's balances, levels
 * and ledger, next to the counters that earn them, so that one writer keeps every number exact.
 * Events give points through the app's triggers; other areas' rewards arrive as credits
 * (`Staged.credit`) inside their own transaction; the studio's grants and spends and the
 * operator's adjustments are this area's operations. A banned player earns nothing.
 */
export class UserPoints implements UserArea<Loaded> {
  static readonly tables = pointsTables;
  /** Loaded before the object's latest transaction of the app (prepareCredits). */
  private loaded: Loaded | null = null;

  constructor(private readonly context: UserObjectContext) {}

  private get sql() {
    return this.context.sql;
  }

  private async load(appId: string): Promise<Loaded> {
    const [catalog, trust] = await Promise.all([
      pointsCatalog(this.context.env.DB, appId),
      appTrust(this.context.env.DB, appId),
    ]);
    return { appId, catalog, trust };
  }

  async prepareCredits(appId: string): Promise<void> {
    this.loaded = await this.load(appId);
  }

  prepareEvent(event: UserEvent): Promise<Loaded> {
    return this.load(event.appId);
  }

  /**
   * The triggers of the event's name: units carried from earlier events plus this event's, every
   * full `every` giving points, credited as one entry per system (with the other areas' credits of
   * the same event). An event counts once: the object records its id in the same transaction.
   */
  applyEvent(loaded: Loaded, event: UserEvent, staged: Staged): void {
    if (!loaded.catalog.byEventName.has(event.eventName)) return;
    if (banInForce(loaded.trust, event.userId, event.receivedAt)) return;
    let stored: Map<string, number> | undefined;
    const carriedOf = (key: string) => {
      stored ??= readAllCarried(this.sql);
      return stored.get(key) ?? 0;
    };
    const outcome = applyTriggers(loaded.catalog, event, carriedOf);
    for (const [key, units] of outcome.carried) if (units !== carriedOf(key)) writeCarried(this.sql, key, units);
    for (const [system, amount] of outcome.points) {
      staged.credit({
        target: "points",
        appId: event.appId,
        userId: event.userId,
        system,
        amount,
        source: { kind: "trigger", id: event.eventName },
        reason: `Event ${event.eventName}`,
        at: event.receivedAt,
      });
    }
  }

  /**
   * The credits for this area, one ledger entry per system: credits of one transaction to the same
   * system add up (its first credit names the source). Credits naming a system that does not exist
   * (any more), and every credit of a banned player, are dropped.
   */
  acceptCredits(credits: Credit[], staged: Staged): void {
    const loaded = this.loaded;
    if (!loaded) return;
    const merged = new Map<string, { system: PointsSystemDef; first: Credit; amount: number }>();
    for (const c of credits) {
      if (c.target !== "points" || c.amount <= 0 || c.appId !== loaded.appId) continue;
      if (banInForce(loaded.trust, c.userId, c.at)) continue;
      const system = c.system === null ? loaded.catalog.challengeXp : (loaded.catalog.byKey.get(c.system) ?? null);
      if (!system) continue;
      const known = merged.get(system.key);
      if (known) known.amount += c.amount;
      else merged.set(system.key, { system, first: c, amount: c.amount });
    }
    for (const { system, first, amount } of merged.values()) {
      this.move(loaded, staged, first.userId, system, (before) => credit(system, before, amount), {
        source: sourceOf(first.source),
        reason: first.reason,
        at: first.at,
      });
    }
  }

  /**
   * One movement of one system's balance: the entry, the balance, a fold of the ledger when due, and
   * the `points-changed` change when somebody receives it. A movement of 0 (a credit at the cap)
   * writes nothing.
   */
  private move(
    loaded: Loaded,
    staged: Staged,
    userId: string,
    system: PointsSystemDef,
    movement: (before: Balance) => Movement,
    entry: { source: PointsSource; reason: string; at: number },
  ): Movement & { entryId?: string; before?: Balance } {
    const stored = readBalance(this.sql, system.key);
    const before: Balance = stored ?? ZERO_BALANCE;
    const moved = movement(before);
    if (!moved.ok || moved.amount === 0) return moved;
    const entryId = recordEntry(this.sql, stored, {
      system: system.key,
      amount: moved.amount,
      after: moved.after,
      source: entry.source,
      reason: entry.reason,
      at: entry.at,
    });
    // What leaderboards ranking the system add (the points earned: spends and corrections that take do not count).
    const earned = moved.after.earned - before.earned;
    if (earned > 0)
      staged.background.push({
        kind: "points-earned",
        appId: loaded.appId,
        userId,
        system: system.key,
        amount: earned,
        at: entry.at,
      });
    const shape = { entries: (stored?.entries ?? 0) + 1, oldestAt: stored?.oldestAt ?? entry.at };
    if (foldDue(shape, entry.at)) foldLedger(this.sql, system.key, entry.at);
    if (staged.receives(pointsChangeTarget(loaded.appId, userId))) {
      staged.changes.push(
        pointsChange({
          appId: loaded.appId,
          userId,
          system,
          amount: moved.amount,
          before,
          after: moved.after,
          source: entry.source,
          defaultLanguage: loaded.catalog.defaultLanguage,
        }),
      );
    }
    return { ...moved, entryId, before };
  }

  /**
   * A grant or a spend of the studio's backend. The same idempotency key (per operation and system)
   * within IDEMPOTENCY_MS answers the first result again and changes nothing; a refused request
   * (409) keeps nothing, so its retry is decided again.
   */
  async write(appId: string, request: PointsWrite, now: number): Promise<WriteResult> {
    const loaded = await this.load(appId);
    const system = loaded.catalog.byKey.get(request.systemKey);
    if (!system) return { ok: false, kind: "not-found", message: `Points system ${request.systemKey} not found` };
    const requestKey = JSON.stringify([request.op, request.systemKey, request.idempotencyKey]);
    return this.context.transact((staged): WriteResult => {
      const known = knownAnswer(this.sql, requestKey, now - IDEMPOTENCY_MS);
      if (known !== null) return { ok: true, answer: JSON.parse(known) as WriteAnswer };
      const moved = this.move(
        loaded,
        staged,
        request.userId,
        system,
        (before) =>
          request.op === "grant" ? credit(system, before, request.amount) : spend(system, before, request.amount),
        { source: { kind: request.op, id: request.idempotencyKey }, reason: request.reason, at: now },
      );
      if (!moved.ok) {
        return moved.reason === "short"
          ? {
              ok: false,
              kind: "conflict",
              message: `Balance too low: ${moved.balance} ${system.key}, ${request.amount} asked`,
              balance: moved.balance,
            }
          : { ok: false, kind: "conflict", message: `Points system ${system.key} is not spendable` };
      }
      const after = moved.after;
      const answer: WriteAnswer = {
        balance: after.balance,
        earned: after.earned,
        level: presentLevel(levelOf(system, after.earned), loaded.catalog.defaultLanguage),
        entry_id: moved.entryId ?? "",
      };
      // A grant at the cap moved nothing and has no entry: it answers the balance as it is.
      if (moved.amount === 0) {
        const current = readBalance(this.sql, system.key) ?? ZERO_BALANCE;
        Object.assign(answer, {
          balance: current.balance,
          earned: current.earned,
          level: presentLevel(levelOf(system, current.earned), loaded.catalog.defaultLanguage),
        });
      }
      keepAnswer(this.sql, requestKey, JSON.stringify(answer), now);
      return { ok: true, answer };
    }, appId);
  }

  /** The player's balance in every system of the app (a system never credited shows 0). */
  async balances(appId: string, language?: string) {
    const { catalog } = await this.load(appId);
    const stored = readAllBalances(this.sql);
    const lang = (level: Parameters<typeof presentLevel>[0]) => presentLevel(level, catalog.defaultLanguage, language);
    return {
      systems: catalog.systems.map((system) => {
        const { balance, earned } = stored.get(system.key) ?? ZERO_BALANCE;
        return {
          key: system.key,
          name: localize(system.name, language, catalog.defaultLanguage),
          balance,
          earned,
          level: lang(levelOf(system, earned)),
          next_level: lang(nextLevelOf(system, earned)),
        };
      }),
    };
  }

  /** A page of one system's ledger, newest first; null when the app has no such system. */
  async ledger(appId: string, systemKey: string, cursor: string | null) {
    const { catalog } = await this.load(appId);
    if (!catalog.byKey.has(systemKey)) return null;
    const before = cursor === null ? null : Number(cursor);
    const { rows, more } = readLedger(this.sql, systemKey, Number.isSafeInteger(before) ? before : null);
    return { items: rows.map(presentEntry), next_cursor: more ? String(rows.at(-1)!.entry_id) : null };
  }

  /** Everything the area holds of the player, by system key (the player export, the console). */
  stored() {
    const balances = Object.fromEntries(
      [...readAllBalances(this.sql)].map(([system, b]) => [system, { balance: b.balance, earned: b.earned }]),
    );
    const ledger = readWholeLedger(this.sql).map((row) => ({ system: row.system, ...presentEntry(row) }));
    return { balances, ledger };
  }

  /** The operator's corrections (src/points/adjust.ts). */
  readonly corrections = { "points-adjust": (request: CorrectionRequest) => this.correctBalance(request) };

  /** Adds to or takes from a balance (never below zero), with the change a credit would send. */
  private async correctBalance({ appId, userId, now, input }: CorrectionRequest): Promise<CorrectionResult> {
    const { systemKey, amount, reason } = input as { systemKey: string; amount: number; reason: string };
    const loaded = await this.load(appId);
    const system = loaded.catalog.byKey.get(systemKey);
    if (!system) return { ok: false, kind: "not-found", message: `Points system ${systemKey} not found` };
    return this.context.transact((staged): CorrectionResult => {
      const before = readBalance(this.sql, system.key) ?? ZERO_BALANCE;
      const moved = this.move(loaded, staged, userId, system, (b) => adjust(system, b, amount), {
        source: { kind: "adjustment", id: null },
        reason,
        at: now,
      });
      if (!moved.ok)
        return {
          ok: false,
          kind: "conflict",
          message: `The balance would go below zero: ${before.balance} ${system.key}, ${-amount} taken`,
        };
      const after = readBalance(this.sql, system.key) ?? ZERO_BALANCE;
      const view = (b: Balance) => ({ system: system.key, balance: b.balance, earned: b.earned });
      return { ok: true, before: view(before), after: { ...view(after), entry_id: moved.entryId ?? null } };
    }, appId);
  }
}

/** The points area's name: its part of the user's object. */
export const POINTS = "points";

/** The points part of a user's object, over RPC. */
export const userPoints = (env: Env, appId: string, userId: string) =>
  callUserArea<UserPoints>(env, appId, userId, POINTS);
