/**
 * The fair-play settings of an app (docs/fair-play.md): which events only the studio's backend
 * may send, and how many events a minute intake accepts per player and per app.
 */
export interface RateLimits {
  /** Events one player may send in any 60 seconds (exact, counted in the player's object). */
  perUserPerMinute: number;
  /** Events the whole app may send in a minute (approximate, counted per isolate and reconciled). */
  perAppPerMinute: number;
}

/**
 * What an app gets unless it sets its own: far above any honest game (50 events a second from one
 * player, held for a minute; 100,000 a second from the whole app), low enough that one flooding
 * client cannot take the service from everybody else.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = { perUserPerMinute: 3_000, perAppPerMinute: 6_000_000 };

/** The columns of `apps` that hold the settings (NULL limits: the defaults). */
export interface AppSettingsColumns {
  backend_only_events: string;
  rate_limit_per_user_per_minute: number | null;
  rate_limit_per_app_per_minute: number | null;
}

export const rateLimitsOf = (row: AppSettingsColumns): RateLimits => ({
  perUserPerMinute: row.rate_limit_per_user_per_minute ?? DEFAULT_RATE_LIMITS.perUserPerMinute,
  perAppPerMinute: row.rate_limit_per_app_per_minute ?? DEFAULT_RATE_LIMITS.perAppPerMinute,
});

export const backendOnlyEventsOf = (row: AppSettingsColumns): string[] =>
  JSON.parse(row.backend_only_events) as string[];
