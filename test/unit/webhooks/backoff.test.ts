import { describe, expect, it } from "vitest";
import {
  backoffSeconds,
  DEFAULT_RETRY_BASE_SECONDS,
  MAX_QUEUE_DELAY_SECONDS,
  parseRetryAfter,
  retryBaseSeconds,
  retryDelaySeconds,
  retrySpanSeconds,
  WEBHOOK_MAX_ATTEMPTS,
} from "../../../src/webhooks/core/backoff";
import { decide } from "../../../src/webhooks/core/outcome";

describe("retry schedule", () => {
  it("doubles from the base and stops at 12 hours", () => {
    const delays = Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, i) => backoffSeconds(i + 1, 60));
    expect(delays).toEqual([
      60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 43200, 43200, 43200, 43200, 43200, 43200, 43200, 43200,
      43200, 43200,
    ]);
  });

  it("spans more than three days with the production base", () => {
    expect(retrySpanSeconds(DEFAULT_RETRY_BASE_SECONDS)).toBe(493380);
    expect(retrySpanSeconds(DEFAULT_RETRY_BASE_SECONDS)).toBeGreaterThanOrEqual(3 * 86400);
  });

  it("matches max_retries + 1 of the webhooks consumer in wrangler.toml", async () => {
    const { readFile } = await import("node:fs/promises");
    const toml = await readFile(new URL("../../../wrangler.toml", import.meta.url), "utf8");
    const consumer = /queue = "gamification-webhooks"\s*\n([^[]*)/.exec(
      toml.slice(toml.indexOf("[[queues.consumers]]")),
    )![1];
    expect(Number(/max_retries = (\d+)/.exec(consumer)![1]) + 1).toBe(WEBHOOK_MAX_ATTEMPTS);
  });

  it("scales with the base, down to immediate retries", () => {
    expect([1, 2, 3, 10, 11, 20].map((n) => backoffSeconds(n, 1))).toEqual([1, 2, 4, 512, 720, 720]);
    expect([1, 5, 20].map((n) => backoffSeconds(n, 0))).toEqual([0, 0, 0]);
  });

  it("reads the base from the variable, falling back to 60 s", () => {
    expect(retryBaseSeconds(undefined)).toBe(60);
    expect(retryBaseSeconds("")).toBe(60);
    expect(retryBaseSeconds("abc")).toBe(60);
    expect(retryBaseSeconds("-1")).toBe(60);
    expect(retryBaseSeconds("0")).toBe(0);
    expect(retryBaseSeconds("2")).toBe(2);
  });

  it("lets Retry-After lengthen but never shorten the wait, within 12 hours", () => {
    expect(retryDelaySeconds(1, 60, 300)).toBe(300);
    expect(retryDelaySeconds(5, 60, 30)).toBe(960);
    expect(retryDelaySeconds(1, 60, null)).toBe(60);
    expect(retryDelaySeconds(1, 60, 10 * 86400)).toBe(MAX_QUEUE_DELAY_SECONDS);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });
  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 12:05:00 GMT", now)).toBe(300);
    expect(parseRetryAfter("Sun, 01 Jun 2025 11:00:00 GMT", now)).toBe(0);
  });
  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
  });
});

describe("outcome of an attempt", () => {
  it("counts any 2xx as success", () => {
    for (const status of [200, 201, 202, 204, 299]) expect(decide(status, 1, 60, null)).toEqual({ kind: "succeeded" });
  });
  it("stops on 410 Gone", () => {
    expect(decide(410, 3, 60, null)).toEqual({ kind: "gone" });
  });
  it("retries no answer, 3xx, 4xx (including 403) and 5xx with the backoff", () => {
    expect(decide(null, 1, 60, null)).toEqual({ kind: "retry", delaySeconds: 60 });
    expect(decide(302, 2, 60, null)).toEqual({ kind: "retry", delaySeconds: 120 });
    expect(decide(403, 3, 60, null)).toEqual({ kind: "retry", delaySeconds: 240 });
    expect(decide(404, 1, 60, null)).toEqual({ kind: "retry", delaySeconds: 60 });
    expect(decide(429, 1, 60, 600)).toEqual({ kind: "retry", delaySeconds: 600 });
    expect(decide(500, 21, 60, null)).toEqual({ kind: "retry", delaySeconds: 43200 });
  });
});
