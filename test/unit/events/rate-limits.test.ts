import { describe, expect, it } from "vitest";
import {
  knownRefusal,
  rateLimited,
  rateLimitHeaders,
  refusalMessage,
  rememberRefusal,
  retryAfterSeconds,
} from "../../../src/events/rate-limits";
import { admitAppEvents, appRefusal, refundAppEvents } from "../../../src/events/app-rate";

const T = 1_700_000_000_000;

describe("the answer past a rate limit", () => {
  it("rounds the wait up to whole seconds, at least one", () => {
    expect(retryAfterSeconds({ policy: "per-user", limit: 20, retryAfterMs: 59_001 })).toBe(60);
    expect(retryAfterSeconds({ policy: "per-user", limit: 20, retryAfterMs: 1 })).toBe(1);
  });

  it("names the policy, its quota and window in the IETF fields, and the same wait in Retry-After", () => {
    const refusal = { policy: "per-app" as const, limit: 6000, retryAfterMs: 12_300 };
    expect(rateLimitHeaders(refusal)).toEqual({
      "Retry-After": "13",
      "RateLimit-Policy": '"per-app";q=6000;w=60',
      RateLimit: '"per-app";r=0;t=13',
    });
    expect(refusalMessage(refusal, "ann")).toBe(
      "Too many events: this app may send 6000 a minute (rate_limits.per_app_per_minute); try again in 13 s",
    );
    const error = rateLimited({ policy: "per-user", limit: 20, retryAfterMs: 30_000 }, "ann");
    expect([error.status, error.message, error.fields]).toEqual([
      429,
      "Too many events: player ann may send 20 a minute (rate_limits.per_user_per_minute); try again in 30 s",
      { retry_after_seconds: 30 },
    ]);
  });
});

describe("refusals this isolate remembers", () => {
  it("last until the instant the player's object would take an event again, for the same limit only", () => {
    rememberRefusal("1", "ann", T, { policy: "per-user", limit: 20, retryAfterMs: 5000 });
    expect(knownRefusal("1", "ann", T + 1000, 20)).toEqual({ policy: "per-user", limit: 20, retryAfterMs: 4000 });
    expect(knownRefusal("1", "ann", T + 5000, 20)).toBeNull();
    expect(knownRefusal("1", "ann", T + 1000, 40)).toBeNull();
    expect(knownRefusal("1", "bob", T + 1000, 20)).toBeNull();
    expect(knownRefusal("2", "ann", T + 1000, 20)).toBeNull();
  });
});

describe("the per-app count of one isolate", () => {
  it("admits what fits, gives refunds back, and frees a second's events a minute later", () => {
    expect(admitAppEvents("app-a", T, 5, 3).admitted).toBe(3);
    expect(admitAppEvents("app-a", T + 1500, 5, 4)).toMatchObject({ admitted: 2, remaining: 0 });
    // The oldest second (T, 3 events) leaves the window at T + 60 s.
    expect(appRefusal("app-a", T + 2000, 5)).toBe(58_000);
    refundAppEvents("app-a", T + 1500, 1);
    expect(appRefusal("app-a", T + 2000, 5)).toBeNull();
    expect(admitAppEvents("app-a", T + 2000, 5, 1).admitted).toBe(1);
    // Other apps count apart.
    expect(admitAppEvents("app-b", T, 5, 5).admitted).toBe(5);
  });
});
