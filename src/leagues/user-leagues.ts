import { appTrust, banInForce, type AppTrust } from "../auth/trust";
import { eventAmount, matchesEvent } from "../rules/counter";
import type { Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import { callUserArea } from "../user/names";
import type { AreaTables, AreaSql } from "../shared/object-tables";
import { leaguesCatalog } from "./catalog";
import { aggregate, type SeasonResult } from "./core/decide";
import type { LeagueDef, LeaguesCatalog } from "./core/model";
import { seasonAt } from "./core/season";
import { lastResultOf } from "./store";

/**
 * A player's leagues in their object's SQLite: per league, the season they last played with its
 * score and tie-breakers, and the out-of-range values dropped; and the seasons whose result they
 * claimed.
 */
export const leaguesTables: AreaTables = {
  area: "leagues",
  migrations: [
    `CREATE TABLE lg_membership (
       league_id TEXT PRIMARY KEY,
       season INTEGER NOT NULL,
       score INTEGER NOT NULL,
       reached_at INTEGER NOT NULL,
       joined_at INTEGER NOT NULL,
       dropped INTEGER NOT NULL DEFAULT 0
     ) WITHOUT ROWID;
     CREATE TABLE lg_claims (
       league_id TEXT NOT NULL,
       season INTEGER NOT NULL,
       claimed_at INTEGER NOT NULL,
       PRIMARY KEY (league_id, season)
     ) WITHOUT ROWID;`,
  ],
};

interface MembershipRow {
  league_id: string;
  season: number;
  score: number;
  reached_at: number;
  joined_at: number;
  dropped: number;
  [key: string]: SqlStorageValue;
}

const readMembership = (sql: AreaSql, leagueId: string): MembershipRow | null =>
  sql.exec<MembershipRow>("SELECT * FROM lg_membership WHERE league_id = ?", leagueId).toArray()[0] ?? null;

/** Claims are kept this long: past every result's claim window. */
const CLAIM_RETENTION_MS = 60 * 86_400_000;

interface Loaded {
  catalog: LeaguesCatalog;
  trust: AppTrust;
}

/** Whether a league takes the event at all: its name and filters, and on an authoritative league only the backend's events. */
export const leagueTakes = (league: LeagueDef, event: UserEvent) =>
  matchesEvent(league, event) && !(league.authoritative && event.credential === "access_token");

/**
 * The leagues area of the user's Durable Object (src/user/area.ts): the player's score in each
 * league's current season, exact because the object is its one writer. Each change of a score (and
 * a player's arrival in a season) is handed to the background consumer, which places the player in
 * a cohort and writes the standings in batches. A banned player earns nothing.
 */
export class UserLeagues implements UserArea<Loaded | null> {
  static readonly tables = leaguesTables;

  constructor(private readonly context: UserObjectContext) {}

  private get sql() {
    return this.context.sql;
  }

  async prepareEvent(event: UserEvent): Promise<Loaded | null> {
    const catalog = await leaguesCatalog(this.context.env.DB, event.appId);
    if (!catalog.leagues.some((l) => l.eventName === event.eventName)) return null;
    return { catalog, trust: await appTrust(this.context.env.DB, event.appId) };
  }

  applyEvent(loaded: Loaded | null, event: UserEvent, staged: Staged): void {
    if (!loaded) return;
    if (banInForce(loaded.trust, event.userId, event.receivedAt)) return;
    for (const league of loaded.catalog.leagues) {
      if (!leagueTakes(league, event)) continue;
      const value = eventAmount(league, event)!;
      const stored = readMembership(this.sql, league.id);
      if (
        (league.minValue !== null && value < league.minValue) ||
        (league.maxValue !== null && value > league.maxValue)
      ) {
        this.sql.exec(
          `INSERT INTO lg_membership (league_id, season, score, reached_at, joined_at, dropped) VALUES (?, 0, 0, 0, 0, 1)
           ON CONFLICT (league_id) DO UPDATE SET dropped = dropped + 1`,
          league.id,
        );
        continue;
      }
      const season = seasonAt(league.schedule, event.receivedAt);
      const same = stored !== null && stored.season === season.startsAt;
      const score = aggregate(league.aggregation, same ? stored.score : null, value);
      if (same && score === stored.score) continue;
      const joinedAt = same ? stored.joined_at : event.receivedAt;
      this.sql.exec(
        `INSERT INTO lg_membership (league_id, season, score, reached_at, joined_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (league_id) DO UPDATE SET season = excluded.season, score = excluded.score,
           reached_at = excluded.reached_at, joined_at = excluded.joined_at`,
        league.id,
        season.startsAt,
        score,
        event.receivedAt,
        joinedAt,
      );
      staged.background.push({
        kind: "league-score",
        appId: event.appId,
        leagueId: league.id,
        userId: event.userId,
        season: season.startsAt,
        endsAt: season.endsAt,
        score,
        reachedAt: event.receivedAt,
        joinedAt,
      });
    }
  }

  /** The player's membership of one league as the object holds it, or null. */
  membership(leagueId: string) {
    const row = readMembership(this.sql, leagueId);
    return row === null
      ? null
      : {
          season: row.season,
          score: row.score,
          reached_at: row.reached_at,
          joined_at: row.joined_at,
          dropped: row.dropped,
        };
  }

  /** Whether the player claimed the result of a season. */
  claimed(leagueId: string, season: number): boolean {
    return (
      this.sql.exec("SELECT 1 AS one FROM lg_claims WHERE league_id = ? AND season = ?", leagueId, season).toArray()
        .length > 0
    );
  }

  /**
   * Claims the player's last result once, crediting its points_rewards in the same transaction: a
   * second claim is a conflict, and so is a claim after the next season has ended.
   */
  async claim(appId: string, userId: string, leagueId: string, now: number): Promise<ClaimOutcome> {
    const catalog = await leaguesCatalog(this.context.env.DB, appId);
    const league = catalog.byId.get(leagueId);
    if (!league) return { ok: false, kind: "not-found", message: `League ${leagueId} not found` };
    const last = await lastResultOf(this.context.env.DB, Number(appId), league, userId);
    if (last === null)
      return {
        ok: false,
        kind: "not-found",
        message: "No result to claim: the player has not finished a season of this league",
      };
    if (now >= last.claimableUntil)
      return {
        ok: false,
        kind: "conflict",
        message: `The result of season ${last.result.season_id} could be claimed until ${new Date(last.claimableUntil).toISOString()}`,
      };
    return this.context.transact((staged): ClaimOutcome => {
      if (this.claimed(leagueId, last.season))
        return {
          ok: false,
          kind: "conflict",
          message: `The result of season ${last.result.season_id} is already claimed`,
        };
      this.sql.exec("DELETE FROM lg_claims WHERE claimed_at < ?", now - CLAIM_RETENTION_MS);
      this.sql.exec(
        "INSERT INTO lg_claims (league_id, season, claimed_at) VALUES (?, ?, ?)",
        leagueId,
        last.season,
        now,
      );
      for (const reward of last.result.rewards?.points_rewards ?? [])
        staged.credit({
          target: "points",
          appId,
          userId,
          system: reward.system,
          amount: reward.amount,
          source: { kind: "league", id: leagueId },
          reason: `League ${league.key}, season ${last.result.season_id}: rank ${last.result.rank} in ${last.result.tier}`,
          at: now,
        });
      return { ok: true, result: last.result, claimableUntil: last.claimableUntil };
    }, appId);
  }

  /** Everything the area holds of the player (the export, the admin's view). */
  stored() {
    const memberships = this.sql
      .exec<MembershipRow>("SELECT * FROM lg_membership ORDER BY league_id")
      .toArray()
      .map((r) => ({
        league_id: r.league_id,
        season_id: r.season === 0 ? null : new Date(r.season).toISOString(),
        score: r.score,
        dropped_values: r.dropped,
      }));
    const claims = this.sql
      .exec<{ league_id: string; season: number; claimed_at: number }>(
        "SELECT league_id, season, claimed_at FROM lg_claims ORDER BY claimed_at",
      )
      .toArray()
      .map((r) => ({
        league_id: r.league_id,
        season_id: new Date(r.season).toISOString(),
        claimed_at: new Date(r.claimed_at).toISOString(),
      }));
    return { memberships, claims };
  }
}

export type ClaimOutcome =
  | { ok: true; result: SeasonResult; claimableUntil: number }
  | { ok: false; kind: "not-found" | "conflict"; message: string };

/** The leagues area's name: its part of the user's object. */
export const LEAGUES = "leagues";

export const userLeagues = (env: Env, appId: string, userId: string) =>
  callUserArea<UserLeagues>(env, appId, userId, LEAGUES);
