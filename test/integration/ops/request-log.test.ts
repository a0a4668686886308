import { env, runInDurableObject } from "cloudflare:test";
import { AREA_CRON_TASKS } from "../../../src/registry/areas";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runScheduled } from "../../../src/cron";
import { configureLog } from "../../../src/shared/log";
import { userObject } from "../../../src/user/names";
import { ADMIN, call, callWith, createTestApp } from "../helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every structured line written to the console while the test runs. */
function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  for (const method of ["log", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((line: unknown) => {
      lines.push(line as Record<string, unknown>);
    });
  }
  return lines;
}

const requestLines = (lines: Record<string, unknown>[], requestId: string | null) =>
  lines.filter((l) => l.msg === "request" && l.request_id === requestId);

/** A D1 that fails every statement, for a path's unexpected errors. */
const brokenDb = {
  prepare: () => {
    throw new Error("D1 is on fire");
  },
  batch: () => Promise.reject(new Error("D1 is on fire")),
} as unknown as D1Database;

describe("the request log line", () => {
  it("names request id, method, route pattern, status, duration and app, and nothing else", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("ann");
    const lines = captureLogs();
    const r = await call("GET", "/api/v1/leaderboards-members/user/ann?language=en", { token });
    const id = r.headers.get("X-Request-Id");
    expect(requestLines(lines, id)).toEqual([
      {
        level: "info",
        msg: "request",
        request_id: id,
        method: "GET",
        route: "/api/v1/leaderboards-members/:memberType/:memberId",
        status: 200,
        duration_ms: expect.any(Number),
        app_id: app.appId,
      },
    ]);
  });

  it("names the app of an admin path, and no route for an unknown path", async () => {
    const app = await createTestApp();
    const lines = captureLogs();
    const admin = await call("GET", `/api/v1/admin/apps/${app.appId}`, { token: ADMIN });
    expect(requestLines(lines, admin.headers.get("X-Request-Id"))).toMatchObject([
      { route: "/api/v1/admin/apps/:appId", status: 200, app_id: app.appId },
    ]);
    const unknown = await call("GET", "/api/v1/nothing-here");
    expect(requestLines(lines, unknown.headers.get("X-Request-Id"))).toMatchObject([
      { route: null, status: 404, app_id: null },
    ]);
  });

  it("is on every answer, 401s and CORS preflights included, and CORS exposes it", async () => {
    const lines = captureLogs();
    const denied = await call("GET", "/api/v1/admin/apps", { token: "wrong" });
    expect(denied.status).toBe(401);
    const id = denied.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(requestLines(lines, id)).toMatchObject([{ level: "info", route: "/api/v1/admin/apps", status: 401 }]);

    const cors = await call("GET", "/health", { headers: { Origin: "https://game.example" } });
    expect(cors.headers.get("Access-Control-Expose-Headers")).toBe(
      "X-Request-Id,Retry-After,RateLimit,RateLimit-Policy",
    );
    const preflight = await call("OPTIONS", "/api/v1/events", {
      headers: { Origin: "https://game.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("X-Request-Id")).not.toBeNull();
    expect(new Set([id, cors.headers.get("X-Request-Id"), preflight.headers.get("X-Request-Id")]).size).toBe(3);
  });

  it("is sampled by LOG_SAMPLE_RATE, errors never", async () => {
    const lines = captureLogs();
    const ok = await callWith({ LOG_SAMPLE_RATE: "0" } as unknown as Partial<Env>, "GET", "/health");
    const denied = await callWith({ LOG_SAMPLE_RATE: "0" } as unknown as Partial<Env>, "GET", "/api/v1/admin/apps");
    expect(requestLines(lines, ok.headers.get("X-Request-Id"))).toEqual([]);
    expect(requestLines(lines, denied.headers.get("X-Request-Id"))).toMatchObject([{ status: 401 }]);
  });

  it("never carries a credential, a query or a path value", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("secret-user-name");
    const lines = captureLogs();
    await call("GET", `/api/v1/leaderboards-members/user/secret-user-name?token=${token}&secret_key=hush-hush`, {
      token,
    });
    await call("POST", "/api/v1/auth/access-token", { token: app.apiKey, body: { user_id: "secret-user-name" } });
    await call("GET", "/api/v1/admin/apps", { token: `${ADMIN}-wrong` });
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const secret of [token, app.apiKey, ADMIN, "hush-hush", "secret-user-name"])
      expect(text).not.toContain(secret);
  });
});

describe("the pretty format (LOG_FORMAT=pretty)", () => {
  afterEach(() => configureLog({}));
  const pretty = { LOG_FORMAT: "pretty" } as Partial<Env>;

  it("writes one short line per request: method, path without its query, status and duration", async () => {
    const lines = captureLogs();
    await callWith(pretty, "GET", "/health?token=hush-hush");
    await callWith(pretty, "GET", "/api/v1/admin/apps", { token: "wrong" });
    expect(lines).toEqual([
      expect.stringMatching(/^GET \/health 200 \d+ms$/),
      expect.stringMatching(/^GET \/api\/v1\/admin\/apps 401 \d+ms$/),
    ]);
  });

  it("writes an unexpected error as text with its stack, then the request's line", async () => {
    const lines = captureLogs();
    const r = await callWith({ ...pretty, DB: brokenDb, DEV_CLOCK: "off" }, "GET", "/api/v1/admin/apps", {
      token: ADMIN,
    });
    const id = r.headers.get("X-Request-Id");
    expect(r).toMatchObject({ status: 500, body: { status: 500, message: "Internal error", request_id: id } });
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: unexpected error request_id=${id} method=GET route=/api/v1/admin/apps error=Error: D1 is on fire\n +at `,
        ),
      ),
      expect.stringMatching(/^GET \/api\/v1\/admin\/apps 500 \d+ms$/),
    ]);
  });
});

describe("an unexpected error", () => {
  it("answers 500 with the request id in body and header, and logs its stack once", async () => {
    const lines = captureLogs();
    const r = await callWith({ DB: brokenDb, DEV_CLOCK: "off" }, "GET", "/api/v1/admin/apps", { token: ADMIN });
    const id = r.headers.get("X-Request-Id");
    expect(r).toMatchObject({ status: 500, body: { status: 500, message: "Internal error", request_id: id } });
    expect(lines.filter((l) => l.request_id === id)).toEqual([
      {
        level: "error",
        msg: "unexpected error",
        request_id: id,
        method: "GET",
        route: "/api/v1/admin/apps",
        error: { name: "Error", message: "D1 is on fire", stack: expect.stringContaining("Error: D1 is on fire") },
      },
      {
        level: "error",
        msg: "request",
        request_id: id,
        method: "GET",
        route: "/api/v1/admin/apps",
        status: 500,
        duration_ms: expect.any(Number),
        app_id: null,
      },
    ]);
  });
});

describe("background failures", () => {
  it("of the cron are logged per task, in the same shape", async () => {
    const lines = captureLogs();
    await runScheduled({ ...env, DB: brokenDb }, Date.now());
    const tasks = [
      "event-retention",
      // The areas' tasks, in the registry's order (src/registry/areas.ts).
      ...Object.keys(AREA_CRON_TASKS),
      "holder-receipts-retention",
      "audit-log-retention",
      "erasure-retention",
      "ban-expiry",
    ];
    expect(lines).toEqual([
      ...tasks.map((task) => ({
        level: "error",
        msg: "cron task failed",
        source: "cron",
        task,
        error: { name: "Error", message: "D1 is on fire", stack: expect.any(String) },
      })),
      {
        level: "error",
        msg: "recording the cron run failed",
        source: "cron",
        error: { name: "Error", message: "D1 is on fire", stack: expect.any(String) },
      },
    ]);
  });

  it("of a user object's alarm are logged, and the alarm still fails so the runtime retries it", async () => {
    const app = await createTestApp();
    const stub = userObject(env, app.appId, "ann");
    const lines = captureLogs();
    const objectId = await runInDurableObject(stub, async (instance) => {
      (instance as unknown as { area: { challenges: { onAlarm: () => Promise<void> } } }).area.challenges.onAlarm =
        () => Promise.reject(new Error("alarm broke"));
      await expect(instance.alarm()).rejects.toThrow("alarm broke");
      return stub.id.toString();
    });
    expect(lines).toEqual([
      {
        level: "error",
        msg: "user object alarm failed; the runtime retries it",
        source: "alarm",
        object: objectId,
        error: { name: "Error", message: "alarm broke", stack: expect.any(String) },
      },
    ]);
  });
});
