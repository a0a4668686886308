import type { SeenReport } from "../apps/player-registry";
import type { Change } from "../changes/types";
import type { UserEvent } from "./event";
import type { ActiveDay, BackgroundMessage } from "./messages";
import type { AreaTables, AreaSql } from "../shared/object-tables";

/** Whether a change of this type and topic reaches anybody: a webhook endpoint of the app, an MQTT subscriber. */
export type Receives = (change: Pick<Change, "webhookType" | "topic" | "webhookUrl">) => boolean;

const EVERYBODY: Receives = () => true;

/**
 * What one state change of a user's object produced. Areas report into it inside the transaction;
 * the object stages it in the outbox in that same transaction, hands it on after, and moves its
 * alarm when a timer moved. Only the changes somebody `receives` are staged, so areas ask before
 * building one (a payload per counted challenge is most of an event's work otherwise).
 */
export class Staged {
  constructor(readonly receives: Receives = EVERYBODY) {}

  readonly changes: Change[] = [];
  readonly background: BackgroundMessage[] = [];
  /** A timer of an area started, moved or ended. */
  timersMoved = false;
  /** For an event: the leaderboards it went past the player's pace of (see BackgroundMessage). */
  readonly paceExceeded: string[] = [];
  /** For an event: the player's report to the registry of the app's players, when one is due. */
  seen: SeenReport | null = null;
  /** For an event: the player's first event of its UTC day (see BackgroundMessage). */
  activeDay: ActiveDay | null = null;
  /** Rewards one area hands another (see `credit`), drained before the transaction ends. */
  readonly credits: Credit[] = [];

  /**
   * Hands a reward to the area named `target` (a claimed challenge's points, to the points area)
   * without importing it: the object gives the collected credits to every area's `acceptCredits`
   * inside the same transaction, so that the reward lands with the change that earned it or not at all.
   */
  credit(credit: Credit): void {
    this.credits.push(credit);
  }

  /** The credits collected so far, emptied. */
  takeCredits(): Credit[] {
    return this.credits.splice(0, this.credits.length);
  }
}

/** A reward one area of the user's object hands another (`Staged.credit`). */
export interface Credit {
  /** The area it is meant for: "points". */
  target: string;
  appId: string;
  userId: string;
  /** The system's key; null: the system the app credits a challenge's challenge_xp to, if any. */
  system: string | null;
  amount: number;
  /** What earned it: `{kind: "challenge", id: challengeId}` and the like. */
  source: { kind: string; id: string | null };
  reason: string;
  /** Service time of the change that earned it. */
  at: number;
}

/** What the user's object gives each of its areas. */
export interface UserObjectContext {
  /** The area's own tables (`ObjectTables.sqlFor`): created at the area's first write. */
  readonly sql: AreaSql;
  readonly env: Env;
  /**
   * Runs `work` synchronously in one transaction and stages what it reported with it; then hands
   * it on (webhooks, MQTT, background queue) and moves the alarm. Every state change of every flow
   * (event, action, list, alarm) goes through here. With the app's id, `staged.receives` tells who
   * listens to the user's changes; without it, every change counts as received.
   */
  transact<T>(work: (staged: Staged) => T, appId?: string): Promise<T>;
}

/**
 * The contract every area of the user's object implements, so that the object runs them all the
 * same way. An event: `prepareEvent` for each area (I/O: its catalog, a token), then inside one
 * transaction `applyEvent` for each. Areas with timers say when the next one is due and apply due
 * ones when the object's alarm fires. Operations of an area's own (list, unlock, claim...) are
 * its methods, each a `prepare` followed by `context.transact`.
 */
export interface UserArea<Prepared = unknown> {
  prepareEvent(event: UserEvent): Promise<Prepared>;
  /** Synchronous, inside the event's transaction: applies the event and reports into `staged`. */
  applyEvent(prepared: Prepared, event: UserEvent, staged: Staged): void;
  /** Service time of the area's next timer, or null. */
  nextTimerAt?(): number | null;
  /** The object's alarm fired: apply what is due (through `context.transact`). */
  onAlarm?(): Promise<void>;
  /**
   * Synchronous, inside the erasure's transaction, before every table of the object is emptied
   * (src/players/user-erasure.ts): reports what the player's leaving takes back from the app's
   * totals (holder counts) and forgets what the area keeps of them outside its tables.
   */
  onErase?(player: ErasedUser, staged: Staged): void;
  /**
   * The corrections an operator can make to the area's state of the player, by name (unique
   * across areas): each runs like the player's own operation (prepare, then `context.transact`),
   * so it stages the same webhooks and MQTT messages, and answers the state before and after.
   * src/players/corrections.ts adds the reason, the audit entry and the routes.
   */
  readonly corrections?: Readonly<Record<string, UserCorrection>>;
  /**
   * Before a transaction of the app's (`context.transact` with an app id): loads what
   * `acceptCredits` reads (its catalog), since the transaction itself does no I/O.
   */
  prepareCredits?(appId: string): Promise<void>;
  /**
   * Synchronous, at the end of every transaction in which areas reported credits (`Staged.credit`):
   * applies those meant for this area (by `target`) and reports into `staged` like any change.
   */
  acceptCredits?(credits: Credit[], staged: Staged): void;
}

/** What a correction is asked: the player, the service time, and its validated input. */
export interface CorrectionRequest {
  appId: string;
  userId: string;
  now: number;
  input: Record<string, unknown>;
}

/** A correction made (the state before and after, as the audit log keeps them), or why it cannot be. */
export type CorrectionResult =
  | { ok: true; before: Record<string, unknown>; after: Record<string, unknown> }
  | { ok: false; kind: "invalid" | "not-found" | "conflict"; message: string };

export type UserCorrection = (request: CorrectionRequest) => Promise<CorrectionResult>;

export interface ErasedUser {
  appId: string;
  userId: string;
}

/** An area as the object registers it: its tables, and how it is made for one object. */
export interface UserAreaClass {
  readonly tables: AreaTables;
  // biome-ignore lint/suspicious/noExplicitAny: each area prepares an event into a type of its own
  new (context: UserObjectContext): UserArea<any>;
}
