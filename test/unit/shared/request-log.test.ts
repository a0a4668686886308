import { describe, expect, it } from "vitest";
import { prettyRequestLine, sampleRate, shouldLogRequest } from "../../../src/shared/request-log";

describe("sampleRate", () => {
  it("reads a share between 0 and 1", () => {
    expect(sampleRate("0")).toBe(0);
    expect(sampleRate("0.25")).toBe(0.25);
    expect(sampleRate("1")).toBe(1);
  });

  it("logs everything when the setting is missing or not a share", () => {
    for (const raw of [undefined, "", " ", "abc", "-0.1", "1.5", "NaN"]) expect(sampleRate(raw)).toBe(1);
  });
});

describe("shouldLogRequest", () => {
  it("samples successful answers by the draw", () => {
    expect(shouldLogRequest(200, 0.25, 0.2)).toBe(true);
    expect(shouldLogRequest(200, 0.25, 0.3)).toBe(false);
    expect(shouldLogRequest(304, 0, 0)).toBe(false);
  });

  it("never samples errors", () => {
    for (const status of [400, 401, 403, 404, 409, 500, 503]) expect(shouldLogRequest(status, 0, 0.99)).toBe(true);
  });

  it("samples 429 like a success: a flood must not cost a line per refused request", () => {
    expect(shouldLogRequest(429, 0, 0.99)).toBe(false);
    expect(shouldLogRequest(429, 0.25, 0.2)).toBe(true);
  });
});

describe("prettyRequestLine", () => {
  it("is method, path, status and duration on one line", () => {
    expect(prettyRequestLine({ method: "GET", status: 200, duration_ms: 12 }, "/api/v1/leaderboards")).toBe(
      "GET /api/v1/leaderboards 200 12ms",
    );
    expect(prettyRequestLine({ method: "POST", status: 401, duration_ms: 0 }, "/api/v1/events")).toBe(
      "POST /api/v1/events 401 0ms",
    );
  });
});
