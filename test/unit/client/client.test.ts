import { describe, expect, it } from "vitest";
import {
  ApiError,
  createAdminClient,
  createBackendClient,
  createGameClient,
  cursor,
  pages,
  tokenExpiry,
} from "../../../packages/client/src/index";

/** The client's own logic against a scripted fetch: what it sends, how it reads answers, when it retries. */

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

function scripted(answers: Response[]) {
  const requests: {
    method: string;
    url: string;
    authorization: string | null;
    actor: string | null;
    at: number;
    body: string;
  }[] = [];
  const fetch = async (request: Request) => {
    requests.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get("Authorization"),
      actor: request.headers.get("X-Actor"),
      at: Date.now(),
      body: await request.text(),
    });
    const answer = answers.shift();
    if (!answer) throw new Error("no more answers");
    return answer;
  };
  return { requests, fetch };
}

/** A JWT whose payload says `exp`; the signature is not read by the client. */
const jwt = (exp: number) =>
  `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: "ann", exp }))
    .replace(/=+$/, "")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")}.c2ln`;

describe("the TypeScript client", () => {
  it("sends the credential as a bearer token and the admin's actor, to the base URL without its trailing slash", async () => {
    const { requests, fetch } = scripted([json(200, { items: [], currentPage: 1, pageSize: 25, total: 0 })]);
    const admin = createAdminClient({
      baseUrl: "https://games.example/",
      adminToken: "admin-secret",
      actor: "deploy-bot",
      fetch,
    });
    expect(await admin.get("/api/v1/admin/apps")).toEqual({ items: [], currentPage: 1, pageSize: 25, total: 0 });
    expect(requests).toEqual([
      {
        method: "GET",
        url: "https://games.example/api/v1/admin/apps",
        authorization: "Bearer admin-secret",
        actor: "deploy-bot",
        at: expect.any(Number),
        body: "",
      },
    ]);
  });

  it("reads an error's body into ApiError, and the request id and Retry-After from the headers when the body lacks them", async () => {
    const { fetch } = scripted([
      json(503, { status: 503, message: "ADMIN_TOKEN is not set", request_id: "req-1" }, { "X-Request-Id": "req-1" }),
      json(429, { status: 429, message: "Too many events" }, { "Retry-After": "7", "X-Request-Id": "req-2" }),
      new Response("gateway down", { status: 502, statusText: "Bad Gateway" }),
    ]);
    const game = createGameClient({ baseUrl: "https://games.example", accessToken: "t", fetch });
    const errors: ApiError[] = [];
    for (let i = 0; i < 3; i++) await game.get("/api/v1/auth/check").catch((e: ApiError) => errors.push(e));
    expect(errors.map((e) => [e.status, e.message, e.errors, e.request_id, e.retry_after_seconds, e.body])).toEqual([
      [
        503,
        "ADMIN_TOKEN is not set",
        [],
        "req-1",
        undefined,
        { status: 503, message: "ADMIN_TOKEN is not set", request_id: "req-1" },
      ],
      [429, "Too many events", [], "req-2", 7, { status: 429, message: "Too many events" }],
      [502, "502 Bad Gateway", [], undefined, undefined, "gateway down"],
    ]);
    expect(errors[0]).toBeInstanceOf(ApiError);
    expect(errors[0].request).toEqual({ method: "GET", url: "https://games.example/api/v1/auth/check" });
  });

  it("retries a 429 after its Retry-After with the same body, up to the attempts asked for", async () => {
    const limited = () =>
      json(429, { status: 429, message: "Too many events", retry_after_seconds: 1 }, { "Retry-After": "1" });
    const { requests, fetch } = scripted([limited(), json(200, { status: 200, message: "OK" }), limited(), limited()]);
    const backend = createBackendClient({
      baseUrl: "https://games.example",
      apiKey: "key",
      fetch,
      retry: { attempts: 2 },
    });
    const event = { user_id: "ann", event_name: "earn-points", meta_data: { amount: 1 } };
    expect(await backend.sendEvent(event)).toEqual({ status: 200, message: "OK" });
    expect(requests.map((r) => r.body)).toEqual([JSON.stringify(event), JSON.stringify(event)]);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(1000);
    // Two attempts in all: the second 429 is thrown.
    const error = await backend.sendEvent(event).catch((e: ApiError) => e);
    expect([(error as ApiError).status, (error as ApiError).retry_after_seconds, requests.length]).toEqual([429, 1, 4]);
  });

  it("does not retry without being asked, nor other statuses", async () => {
    const { requests, fetch } = scripted([
      json(429, { status: 429, message: "Too many", retry_after_seconds: 1 }),
      json(500, { status: 500, message: "Boom", request_id: "r" }),
    ]);
    const plain = createBackendClient({ baseUrl: "https://games.example", apiKey: "key", fetch });
    await expect(plain.get("/api/v1/auth/check")).rejects.toMatchObject({ status: 429 });
    const retrying = createBackendClient({ baseUrl: "https://games.example", apiKey: "key", fetch, retry: true });
    await expect(retrying.get("/api/v1/auth/check")).rejects.toMatchObject({ status: 500, request_id: "r" });
    expect(requests).toHaveLength(2);
  });

  it("mints again for actingFor after a failed mint, and reads a token's expiry", async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    expect(tokenExpiry(jwt(exp))).toEqual(new Date(exp * 1000));
    expect(() => tokenExpiry("not-a-jwt")).toThrow(new TypeError("not a JWT"));
    const { requests, fetch } = scripted([
      json(503, { status: 503, message: "JWT_SIGNING_KEYS is not set" }),
      json(200, { token: jwt(exp) }),
      json(200, { app_id: "1", user_id: "ann", credential: "access-token" }),
    ]);
    const ann = createBackendClient({ baseUrl: "https://games.example", apiKey: "key", fetch }).actingFor("ann");
    await expect(ann.get("/api/v1/auth/check")).rejects.toMatchObject({ status: 503 });
    expect(await ann.get("/api/v1/auth/check")).toEqual({ app_id: "1", user_id: "ann", credential: "access-token" });
    expect(requests.map((r) => [r.method, new URL(r.url).pathname, r.authorization])).toEqual([
      ["POST", "/api/v1/auth/access-token", "Bearer key"],
      ["POST", "/api/v1/auth/access-token", "Bearer key"],
      ["GET", "/api/v1/auth/check", `Bearer ${jwt(exp)}`],
    ]);
  });

  it("pages until total items were read, and stops a cursor on a null, absent or repeated cursor", async () => {
    const asked: unknown[] = [];
    const read: number[] = [];
    for await (const n of pages(
      async (page) => {
        asked.push(page);
        return {
          items: [1, 2, 3, 4, 5].slice((page.currentPage - 1) * page.pageSize, page.currentPage * page.pageSize),
          total: 5,
        };
      },
      { pageSize: 2 },
    ))
      read.push(n);
    expect([read, asked]).toEqual([
      [1, 2, 3, 4, 5],
      [
        { currentPage: 1, pageSize: 2 },
        { currentPage: 2, pageSize: 2 },
        { currentPage: 3, pageSize: 2 },
      ],
    ]);

    const cursors: (string | undefined)[] = [];
    const items: string[] = [];
    const next: Record<string, string | null> = { start: "b", b: "c", c: null };
    for await (const item of cursor(async (after) => {
      cursors.push(after);
      return { items: [`after ${after ?? "start"}`], next: next[after ?? "start"] };
    }))
      items.push(item);
    expect([items, cursors]).toEqual([
      ["after start", "after b", "after c"],
      [undefined, "b", "c"],
    ]);
    const repeated: string[] = [];
    for await (const item of cursor(async () => ({ items: ["same"], next: "x" }))) if (repeated.push(item) > 5) break;
    expect(repeated).toEqual(["same", "same"]);
  });
});
