import { describe, expect, it } from "vitest";
import { call } from "../helpers";
import { ASSET_URLS } from "../../../src/shared/asset-urls.generated";

/** Every operation of the spec (service.md), with its exact method and path. */
const SPEC = [
  "GET /api/v1/challenges/personal/all/{}",
  "GET /api/v1/challenges/personal/unresolved/{}",
  "GET /api/v1/challenges/personal/get-in-progress-challenges/{}",
  "GET /api/v1/challenges/personal/unlock/{}/{}",
  "GET /api/v1/challenges/personal/activate/{}/{}",
  "DELETE /api/v1/challenges/personal/cancel/{}/{}",
  "GET /api/v1/challenges/personal/claim/{}/{}",
  "DELETE /api/v1/reset-challenges/{}/{}",
  "GET /api/v1/auth/user-challenges-topic-link",
  "GET /api/v1/leaderboards/{}",
  "GET /api/v1/leaderboards",
  "GET /api/v1/leaderboards-members/{}/{}",
  "GET /api/v1/leaderboards-members/{}/{}/{}",
  "POST /api/v1/events",
  "GET /v1/api/battle-passes/{}",
  "GET /v1/api/battle-passes/{}/unlocked",
  "GET /v1/battle-passes/{}/{}",
  "GET /v1/battle-pass-levels/{}/{}",
  "POST /v1/battle-pass/{}/unlock/{}",
  "POST /v1/api/battle-pass-levels/{}/claim/{}",
  "POST /v1/api/battle-pass-levels/{}/activate/{}",
];

/** Every operation of SCILL's OpenAPI document (scill.yaml), which the published SDKs call. */
const SCILL = [
  "POST /api/v1/auth/access-token",
  "GET /api/v1/auth/user-challenge-topic-link",
  "GET /api/v1/auth/user-challenges-topic-link",
  "GET /api/v1/auth/user-battle-pass-topic-link",
  "GET /api/v1/auth/leaderboard-topic-link",
  "GET /api/v1/user-additional-info",
  "PUT /api/v1/user-additional-info",
  "POST /api/v1/events",
  "GET /api/v1/public/documentation",
  "GET /api/v1/challenges/personal/get/{}",
  "GET /api/v1/challenges/personal/unresolved/{}",
  "GET /api/v1/challenges/personal/all/{}",
  "GET /api/v1/challenges/personal/get/{}/{}",
  "GET /api/v1/challenges/personal/get-in-progress-challenges/{}",
  "POST /api/v1/challenges/personal/unlock/{}/{}",
  "PUT /api/v1/challenges/personal/activate/{}/{}",
  "PUT /api/v1/challenges/personal/cancel/{}/{}",
  "PUT /api/v1/challenges/personal/claim/{}/{}",
  "GET /api/v1/challenges/web-socket/generate-token",
  "POST /api/v1/reset-challenges/{}/{}",
  "GET /api/v1/battle-passes/{}",
  "GET /api/v1/battle-passes/{}/active",
  "GET /api/v1/battle-passes/{}/unlocked",
  "GET /api/v1/battle-passes/{}/single/{}",
  "GET /api/v1/battle-pass-levels/{}/{}",
  "GET /api/v1/battle-pass-levels/{}",
  "POST /api/v1/battle-pass-levels/{}/activate/{}",
  "POST /api/v1/battle-pass-levels/{}/claim/{}",
  "GET /api/v2/leaderboards/{}",
  "GET /api/v2/leaderboards",
  "GET /api/v2/leaderboards-members/{}/{}",
  "GET /api/v2/leaderboards-members/{}/{}/{}",
  "DELETE /api/v2/leaderboards-reset/{}/{}",
  "POST /api/v1/battle-passes/{}/unlock/{}",
  "GET /api/v1/leaderboards/{}",
  "GET /api/v1/leaderboards",
  "GET /api/v1/leaderboards-members/{}/{}",
  "GET /api/v1/leaderboards-members/{}/{}/{}",
  "DELETE /api/v1/reset-leaderboard/{}/{}/{}",
];

async function documentedOperations(): Promise<Set<string>> {
  const doc = (await call("GET", "/openapi.json")).body;
  const operations = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of Object.keys(item))
      operations.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`);
  }
  return operations;
}

describe("the interface of the spec and of SCILL", () => {
  it("documents every operation in the OpenAPI 3.1 document", async () => {
    const documented = await documentedOperations();
    expect(SPEC.filter((op) => !documented.has(op))).toEqual([]);
    expect(SCILL.filter((op) => !documented.has(op))).toEqual([]);
  });

  it("serves every operation: without a credential each answers 401 (the public catalog 200), never 'no route'", async () => {
    const PUBLIC = "GET /api/v1/public/documentation";
    for (const op of new Set([...SPEC, ...SCILL])) {
      const [method, path] = op.split(" ");
      const concrete = path.replace(/\{\}/g, "1");
      const r = await call(method, concrete, method === "GET" || method === "DELETE" ? {} : { body: {} });
      if (op === PUBLIC) expect(r.status).toBe(200);
      else
        expect({ op, status: r.status, message: r.body.message }).toEqual({
          op,
          status: 401,
          message: "Missing Authorization header",
        });
    }
  });

  it("reads the document and the reference page", async () => {
    const doc = await call("GET", "/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.components.securitySchemes).sort()).toEqual(["AccessToken", "AdminToken", "ApiKey"]);
    // The explorer is a page that loads Scalar's API reference, a static asset of this origin, which
    // renders /openapi.json in the browser (test/browser/docs.test.ts).
    const page = await call("GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
    expect(page.headers.get("Cache-Control")).toBe("no-cache");
    expect(page.headers.get("Content-Security-Policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(ASSET_URLS["explorer.js"]).toMatch(/^\/static\/explorer-[0-9a-f]{16}\/explorer\.js$/);
    expect(page.body).toContain(`<script type="module" src="${ASSET_URLS["explorer.js"]}"></script>`);
    expect(page.body).toContain('<div id="explorer"></div>');
    // Nothing in the page names another host.
    expect(page.body.match(/https?:\/\/[^"' <]+/g)).toBeNull();
  });
});

describe("fair play in the document", () => {
  it("describes the new paths, fields, 403 on every access-token path and 429 with its headers where intake can refuse", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const documented = await documentedOperations();
    const added = [
      "POST /api/v1/admin/apps/{}/users/{}/ban",
      "GET /api/v1/admin/apps/{}/users/{}/ban",
      "DELETE /api/v1/admin/apps/{}/users/{}/ban",
      "GET /api/v1/admin/apps/{}/bans",
      "DELETE /api/v1/admin/apps/{}/leaderboards/{}/members/{}/{}",
      "GET /api/v1/admin/apps/{}/leaderboards/{}/flagged",
      "POST /api/v1/admin/apps/{}/leaderboards/{}/flagged/{}/accept",
      "POST /api/v1/admin/apps/{}/leaderboards/{}/flagged/{}/dismiss",
    ];
    expect(added.filter((op) => !documented.has(op))).toEqual([]);

    for (const path of ["/api/v1/events", "/api/v1/events/batch"]) {
      const limited = doc.paths[path].post.responses["429"];
      expect(Object.keys(limited.headers).sort()).toEqual([
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
        "X-Request-Id",
      ]);
      expect(doc.paths[path].post.responses["403"]).toBeDefined();
    }
    // 429 only where intake can answer it.
    const with429 = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.responses?.["429"])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(with429.sort()).toEqual(["POST /api/v1/events", "POST /api/v1/events/batch"]);

    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const takesToken = (op.security ?? []).some((s: object) => "AccessToken" in s);
        if (takesToken)
          expect({ op: `${method} ${path}`, has403: Boolean(op.responses["403"]) }).toEqual({
            op: `${method} ${path}`,
            has403: true,
          });
      }
    }
    expect(doc.paths["/api/v1/auth/access-token"].post.responses["403"].description).toBe("The player is banned");

    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.AppInput.properties)).toEqual(
      expect.arrayContaining(["backend_only_events", "rate_limits"]),
    );
    expect(Object.keys(schemas.LeaderboardInput.properties)).toEqual(
      expect.arrayContaining(["authoritative", "min_value", "max_value", "max_events_per_minute"]),
    );
    expect(Object.keys(schemas.BattlePassInput.properties)).toContain("backend_only_unlock");
    expect(Object.keys(schemas.ApiKeyInput.properties)).toContain("end_tokens_on_revoke");
    expect(schemas.FlaggedSubmission.required.sort()).toEqual([
      "event_name",
      "flag_id",
      "flagged_at",
      "member_id",
      "member_type",
      "reason",
      "value",
    ]);
    expect(schemas.Error.properties.retry_after_seconds).toBeDefined();
  });
});
