import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, DAY, iso, serviceNow } from "../helpers";
import { createPass, createLevel, levelOf } from "../battlepasses/support";

/**
 * Request bodies as clients really send them, byte for byte: the Content-Type each SCILL SDK sets
 * (sdk-clients.md, "Content-Type of requests"), empty bodies, and bytes that are not UTF-8.
 */

const encoder = new TextEncoder();

/** A request with exactly these headers and bytes (fetch adds no Content-Type to a byte body). */
async function send(
  method: string,
  path: string,
  options: { token?: string; contentType?: string; bytes?: Uint8Array } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.contentType !== undefined) headers["Content-Type"] = options.contentType;
  const response = await SELF.fetch(`https://gamification.test${path}`, { method, headers, body: options.bytes });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** `{"user_id":"<raw bytes>","event_name":"x"}` with bytes spliced in unencoded. */
const withRawUserId = (raw: number[]) =>
  new Uint8Array([
    ...encoder.encode('{"user_id":"'),
    ...raw,
    ...encoder.encode('","event_name":"level-up","meta_data":{"level":2}}'),
  ]);

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp("Bodies");
});

describe("bytes that are not UTF-8", () => {
  it("refuses them with 400 instead of decoding them to U+FFFD, so \\xff and \\xfe never become one user", async () => {
    for (const raw of [[0xff], [0xfe], [0xc3, 0x28]]) {
      const r = await send("POST", "/api/v1/events", {
        token: app.apiKey,
        contentType: "application/json",
        bytes: withRawUserId(raw),
      });
      expect(r).toEqual({
        status: 400,
        body: {
          status: 400,
          message: "Request body is not valid UTF-8",
          errors: [{ field: "body", problem: "must be UTF-8 encoded JSON" }],
        },
      });
    }
    const name = new Uint8Array([...encoder.encode('{"name":"'), 0xff, 0xfe, 0xfd, ...encoder.encode('"}')]);
    expect(
      (await send("POST", "/api/v1/admin/apps", { token: ADMIN, contentType: "application/json", bytes: name })).status,
    ).toBe(400);
  });

  it("accepts UTF-8 (with or without a byte order mark) and keeps every character", async () => {
    const userId = "spieler-ä-😀";
    const bytes = encoder.encode(JSON.stringify({ user_id: userId, event_name: "level-up", meta_data: { level: 2 } }));
    expect(
      (await send("POST", "/api/v1/events", { token: app.apiKey, contentType: "application/json", bytes })).body,
    ).toEqual({ status: 200, message: "OK" });
    const bom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...encoder.encode(JSON.stringify({ name: "Größe", default_language: "de" })),
    ]);
    const created = await send("POST", "/api/v1/admin/apps", {
      token: ADMIN,
      contentType: "application/json",
      bytes: bom,
    });
    expect(created).toMatchObject({ status: 201, body: { name: "Größe" } });
  });
});

describe("Content-Type of a body", () => {
  const body = encoder.encode(JSON.stringify({ name: "Typed", default_language: "en" }));

  it("answers 415 for a body that is not declared JSON, on every endpoint that takes one", async () => {
    const cases: [string, string, string | undefined][] = [
      ["POST", "/api/v1/admin/apps", "text/plain"],
      ["POST", "/api/v1/admin/apps", undefined],
      ["POST", "/api/v1/admin/apps", "application/x-www-form-urlencoded"],
      ["PUT", "/api/v1/user-additional-info", "text/plain;charset=UTF-8"],
      ["POST", "/api/v1/events", "text/plain"],
      ["POST", "/api/v1/events/batch", undefined],
      ["POST", "/v1/battle-pass/1/unlock/1", "multipart/form-data; boundary=x"],
    ];
    for (const [method, path, contentType] of cases) {
      const given =
        contentType === undefined ? "no Content-Type" : `Content-Type ${contentType.split(";")[0].toLowerCase()}`;
      expect({
        path,
        contentType,
        ...(await send(method, path, { token: app.apiKey, contentType, bytes: body })),
      }).toEqual({
        path,
        contentType,
        status: 415,
        body: {
          status: 415,
          message: `Request bodies must be JSON: send Content-Type application/json (got ${given})`,
        },
      });
    }
  });

  it("accepts application/json with parameters and application/*+json", async () => {
    for (const contentType of [
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON;charset=UTF-8",
      "application/vnd.api+json",
    ]) {
      expect((await send("POST", "/api/v1/admin/apps", { token: ADMIN, contentType, bytes: body })).status).toBe(201);
    }
  });

  it("never refuses a GET for its Content-Type (Unity and PHP send application/json on GETs)", async () => {
    const r = await send("GET", "/api/v1/auth/check", { token: app.apiKey, contentType: "text/plain" });
    expect(r).toMatchObject({ status: 200, body: { app_id: app.appId, credential: "api-key" } });
  });
});

describe("an empty body is no body, whatever its Content-Type", () => {
  it("unlocks a battle pass with an empty body (Unreal: application/json; charset=utf-8, and a form type libraries add)", async () => {
    const now = await serviceNow();
    const pass = await createPass(app.appId, {
      battle_pass_name: "Empty",
      start_date: iso(now - DAY),
      end_date: iso(now + DAY),
      is_active: true,
    });
    await createLevel(app.appId, pass.battle_pass_id, levelOf(["kill-enemy", 1]));
    for (const [user, contentType] of [
      ["u1", "application/json; charset=utf-8"],
      ["u2", "application/x-www-form-urlencoded"],
      ["u3", "application/json"],
      ["u4", undefined],
    ] as const) {
      const token = await app.tokenFor(user);
      const r = await send("POST", `/api/v1/battle-passes/${app.appId}/unlock/${pass.battle_pass_id}`, {
        token,
        contentType,
        bytes: new Uint8Array(),
      });
      expect({ contentType, status: r.status, user: r.body.user_id, price: r.body.purchase_price }).toEqual({
        contentType,
        status: 200,
        user,
        price: 0,
      });
    }
  });

  it("checks a required body as {}: each missing field named, never 'Malformed JSON'", async () => {
    const event = await send("POST", "/api/v1/events", {
      token: app.apiKey,
      contentType: "application/json",
      bytes: new Uint8Array(),
    });
    expect(event).toMatchObject({
      status: 400,
      body: {
        errors: [
          { field: "user_id", problem: "is required when sending with an API key" },
          { field: "event_name", problem: "is required" },
        ],
      },
    });
    const created = await send("POST", "/api/v1/admin/apps", {
      token: ADMIN,
      contentType: "text/plain",
      bytes: new Uint8Array(),
    });
    expect(created).toMatchObject({ status: 400, body: { errors: [{ field: "name" }] } });
  });

  it("still answers a malformed non-empty JSON body with 400", async () => {
    const r = await send("POST", "/api/v1/admin/apps", {
      token: ADMIN,
      contentType: "application/json",
      bytes: encoder.encode("{"),
    });
    expect(r).toMatchObject({ status: 400, body: { status: 400 } });
    const e = await send("POST", "/api/v1/events", {
      token: app.apiKey,
      contentType: "application/json",
      bytes: encoder.encode("{"),
    });
    expect(e).toEqual({
      status: 400,
      body: { status: 400, message: "Request body must be JSON", errors: [{ field: "body", problem: "must be JSON" }] },
    });
  });
});

describe("the OpenAPI document", () => {
  it("says 415 on every operation that takes a body, and how events read the credential without auth", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const withBody: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (!operation.requestBody) continue;
        withBody.push(`${method} ${path}`);
        expect({ op: `${method} ${path}`, has415: "415" in operation.responses }).toEqual({
          op: `${method} ${path}`,
          has415: true,
        });
      }
    }
    expect(withBody).toContain("post /api/v1/events");
    expect(withBody).toContain("post /api/v1/battle-passes/{appId}/unlock/{battlePassId}");
    const auth = doc.paths["/api/v1/events"].post.parameters.find((p: any) => p.name === "auth");
    expect(auth.description).toContain("When absent, the credential itself tells");
  });
});
