import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, advanceClock, call, createTestApp } from "../helpers";
import { TEST_SECRETS } from "../../support/secrets";

const keys = JSON.parse(TEST_SECRETS.JWT_SIGNING_KEYS) as { kid: string; secret: string }[];
const unauthorized = (message: string) => ({ status: 401, body: { status: 401, message } });

/** A token as an attacker or a misconfigured signer would make it. */
async function craftToken(
  claims: { sub?: string; app_id?: string; iss?: string; aud?: string; exp?: number },
  kid: string,
  secret: string,
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ app_id: claims.app_id })
    .setProtectedHeader({ alg: "HS256", kid })
    .setSubject(claims.sub ?? "u1")
    .setIssuer(claims.iss ?? "open-gamification")
    .setAudience(claims.aud ?? "open-gamification-clients")
    .setExpirationTime(claims.exp ?? now + 3600)
    .sign(new TextEncoder().encode(secret));
}

const b64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

let app: Awaited<ReturnType<typeof createTestApp>>;
let token: string;

beforeAll(async () => {
  app = await createTestApp("Credential matrix");
  token = await app.tokenFor("u1");
});

describe("admin token", () => {
  it("is required", async () => {
    expect(await call("GET", "/api/v1/admin/apps")).toMatchObject(unauthorized("Missing Authorization header"));
  });
  it("must be a Bearer credential", async () => {
    expect(
      await call("GET", "/api/v1/admin/apps", { headers: { Authorization: "Basic YWxhZGRpbjpvcGVu" } }),
    ).toMatchObject(unauthorized("Authorization header must be 'Bearer <credential>'"));
  });
  it("refuses a wrong token, an API key and an access token", async () => {
    for (const credential of ["not-the-admin-token", app.apiKey, token]) {
      expect(await call("GET", "/api/v1/admin/apps", { token: credential })).toMatchObject(
        unauthorized("Invalid admin token"),
      );
    }
  });
  it("answers 401 with a WWW-Authenticate challenge", async () => {
    const r = await call("GET", "/api/v1/admin/apps", { token: "wrong" });
    expect(r.headers.get("WWW-Authenticate")).toBe('Bearer realm="gamification"');
  });
});

describe("API key", () => {
  const mint = (credential?: string) =>
    call("POST", "/api/v1/auth/access-token", { token: credential, body: { user_id: "u2" } });

  it("mints a token", async () => {
    const r = await mint(app.apiKey);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["token"]);
  });
  it("is required", async () => {
    expect(await mint()).toMatchObject(unauthorized("Missing Authorization header"));
  });
  it("refuses an unknown key and the admin token", async () => {
    expect(await mint("gk_unknownunknownunknownunknown")).toMatchObject(unauthorized("Invalid or revoked API key"));
    expect(await mint(ADMIN)).toMatchObject(unauthorized("Invalid or revoked API key"));
  });
  it("refuses an access token where a key is needed", async () => {
    expect(await mint(token)).toMatchObject(unauthorized("This operation requires an API key, not an access token"));
  });
  it("stops working on the request right after revocation", async () => {
    const other = await createTestApp("Revocation");
    expect((await mint(other.apiKey)).status).toBe(200);
    const revoked = await call("DELETE", `/api/v1/admin/apps/${other.appId}/api-keys/${other.keyId}`, { token: ADMIN });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect(await mint(other.apiKey)).toMatchObject(unauthorized("Invalid or revoked API key"));
  });
});

describe("access token", () => {
  const readInfo = (credential?: string) => call("GET", "/api/v1/user-additional-info", { token: credential });

  it("is a JWT longer than 64 characters with the pinned algorithm, kid and claims", async () => {
    expect(token.length).toBeGreaterThan(64);
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(atob(part.replace(/-/g, "+").replace(/_/g, "/"))));
    expect(header).toEqual({ alg: "HS256", kid: "test-2", typ: "JWT" });
    expect(payload).toMatchObject({
      sub: "u1",
      app_id: app.appId,
      iss: "open-gamification",
      aud: "open-gamification-clients",
    });
    expect(payload.exp - payload.iat).toBe(86400);
  });
  it("reads user info", async () => {
    expect(await readInfo(token)).toMatchObject({ status: 200, body: { username: null, avatarImage: null } });
  });
  it("is required", async () => {
    expect(await readInfo()).toMatchObject(unauthorized("Missing Authorization header"));
  });
  it("refuses an API key where a token is needed", async () => {
    expect(await readInfo(app.apiKey)).toMatchObject(
      unauthorized("This operation requires an access token, not an API key"),
    );
  });
  it("refuses a tampered token", async () => {
    const [h, p, s] = token.split(".");
    const forgedPayload = b64url({ ...JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/"))), sub: "someone-else" });
    expect(await readInfo(`${h}.${forgedPayload}.${s}`)).toMatchObject(unauthorized("Access token is invalid"));
    const flipped = s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1);
    expect(await readInfo(`${h}.${p}.${flipped}`)).toMatchObject(unauthorized("Access token is invalid"));
  });
  it("refuses a credential that is not a JWT at all", async () => {
    expect(await readInfo("x".repeat(80))).toMatchObject(unauthorized("Access token is invalid"));
    expect(await readInfo(`${"a".repeat(40)}.${"b".repeat(40)}.c`)).toMatchObject(
      unauthorized("Access token is invalid"),
    );
  });
  it("refuses alg none", async () => {
    const none = `${b64url({ alg: "none", typ: "JWT", kid: "test-2" })}.${b64url({ sub: "u1", app_id: app.appId, iss: "open-gamification", aud: "open-gamification-clients", exp: 9999999999 })}.`;
    expect(await readInfo(none + "x".repeat(10))).toMatchObject(unauthorized("Access token is invalid"));
  });
  it("refuses a token of an unknown key, issuer or audience", async () => {
    expect(
      await readInfo(await craftToken({ app_id: app.appId }, "gone", "some-other-secret-0123456789abcdef")),
    ).toMatchObject(unauthorized("Access token is signed with an unknown key"));
    expect(
      await readInfo(await craftToken({ app_id: app.appId, iss: "elsewhere" }, keys[0].kid, keys[0].secret)),
    ).toMatchObject(unauthorized("Access token is invalid"));
    expect(
      await readInfo(await craftToken({ app_id: app.appId, aud: "elsewhere" }, keys[0].kid, keys[0].secret)),
    ).toMatchObject(unauthorized("Access token is invalid"));
  });
  it("refuses a token without its app", async () => {
    expect(await readInfo(await craftToken({}, keys[0].kid, keys[0].secret))).toMatchObject(
      unauthorized("Access token lacks its app or user"),
    );
  });
  it("verifies a token signed with the previous key until that key is removed", async () => {
    const previous = await craftToken({ app_id: app.appId, sub: "rotated" }, keys[1].kid, keys[1].secret);
    expect(await readInfo(previous)).toMatchObject({ status: 200 });
  });
  it("expires", async () => {
    const shortLived = await app.tokenFor("u3");
    await advanceClock(86_401);
    expect(await readInfo(shortLived)).toMatchObject(unauthorized("Access token has expired"));
  });
});

describe("a credential of another app", () => {
  it("answers a path naming another app as not found", async () => {
    const other = await createTestApp("Other app");
    // Minted now: the expiry test above moved the clock past the first token's lifetime.
    const token = await app.tokenFor("u1");
    const notFound = { status: 404, body: { status: 404, message: `App ${other.appId} not found` } };
    expect(await call("GET", `/api/v1/challenges/personal/all/${other.appId}`, { token })).toMatchObject(notFound);
    expect(await call("GET", `/v1/api/battle-passes/${other.appId}`, { token })).toMatchObject(notFound);
    expect(await call("DELETE", `/api/v1/reset-challenges/${other.appId}/u1`, { token: app.apiKey })).toMatchObject(
      notFound,
    );
    // The same paths with the credential's own app are fine.
    expect((await call("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token })).status).toBe(200);
  });
});
