/** The five webhook types of the spec; the leaderboard one keeps the spec's spelling. */
export const SPEC_WEBHOOK_TYPES = [
  "challenge-changed",
  "battlepass-challenge-changed",
  "battlepass-level-reward-claimed",
  "battlepass-expired",
  "leaderoard-updated",
] as const;

/**
 * Every type an endpoint can receive, in the order of the OpenAPI document's webhooks (the areas', then the
 * players'): the spec's, beyond it the live-ops types, `points-changed` (a player's balance in a points system
 * moved, src/points), the streaks' (src/streaks), `achievement-unlocked` (a player earned or was granted an
 * achievement, src/achievements), the leagues' `league-standings-changed`, `league-season-ended` and
 * `league-result` (src/leagues), and `user-erased` (a player's erasure completed, src/players).
 */
export const WEBHOOK_TYPES = [
  ...SPEC_WEBHOOK_TYPES,
  "points-changed",
  "streak-extended",
  "streak-freeze-used",
  "streak-freeze-earned",
  "streak-lost",
  "streak-milestone",
  "achievement-unlocked",
  "league-standings-changed",
  "league-season-ended",
  "league-result",
  "user-erased",
] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** Where a change is pushed over MQTT: the topic endpoints hand out the same references. */
export type TopicRef =
  | { kind: "user-challenges"; appId: string; userId: string }
  | { kind: "user-battle-pass"; appId: string; userId: string; battlePassId: string }
  | { kind: "leaderboard"; appId: string; leaderboardId: string }
  /** The standings of one cohort of a league's season (src/leagues). */
  | { kind: "league-cohort"; appId: string; leagueId: string; cohortId: string }
  /** The player's one topic of the live-ops areas (points...): each message carries its webhook_type. */
  | { kind: "user-notifications"; appId: string; userId: string };

/**
 * One thing that changed, as the areas (challenges, battle passes, leaderboards) report it.
 * `payload` is the exact JSON of the spec for this webhook type; it is also the MQTT message.
 */
export interface Change {
  appId: string;
  webhookType: WebhookType;
  payload: Record<string, unknown>;
  topic: TopicRef | null;
  /** The player the payload names, or null: erasing a player deletes and cancels the deliveries that name them. */
  userId: string | null;
  /** A URL that takes precedence over the app's endpoints for this type (per-level reward webhooks). */
  webhookUrl?: string;
}

/**
 * Where an area hands the changes it made outside a user's object (cron, background consumers):
 * the wiring passes the fan-out to webhooks and MQTT (src/fanout/dispatch.ts). Resolves once the
 * webhooks are queued durably.
 */
export type ChangeSink = (changes: Change[]) => Promise<void>;

/**
 * Which of an app's leaderboards anyone receives the changes of: a subscriber of the board's topic,
 * or an endpoint of the app for leaderboard webhooks. The wiring answers it (src/fanout/audience.ts);
 * the leaderboard consumer ranks members, and builds changes, only for the boards it names.
 */
export type LeaderboardAudience = (appId: string, boardIds: string[]) => Promise<Set<string>>;
