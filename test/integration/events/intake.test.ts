import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { capturingBackground, callCapturing } from "./support";

let app: Awaited<ReturnType<typeof createTestApp>>;
let token: string;

beforeAll(async () => {
  app = await createTestApp("Intake");
  token = await app.tokenFor("token-user");
});

const OK = { status: 200, body: { status: 200, message: "OK" } };
const invalid = (field: string, problem: string) => ({
  status: 400,
  body: { status: 400, message: `Invalid event: ${field} ${problem}`, errors: [{ field, problem }] },
});
const unauthorized = (message: string) => ({ status: 401, body: { status: 401, message } });

const killEnemy = (meta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  user_id: "u1",
  event_name: "kill-enemy",
  session_id: "match-1",
  meta_data: meta,
  ...extra,
});

describe("sending with an API key", () => {
  it("answers OK and hands the event over with its defaults", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events", {
      token: app.apiKey,
      body: { user_id: "u1", event_name: "kill-enemy", meta_data: { amount: 2, weapon_used: "rifle" } },
    });
    expect(r).toEqual(OK);
    expect(sent).toEqual([
      {
        kind: "event",
        event: {
          appId: app.appId,
          userId: "u1",
          teamId: null,
          eventName: "kill-enemy",
          eventType: "single",
          sessionId: "persistent",
          metaData: { amount: 2, weapon_used: "rifle" },
          eventId: null,
          receivedAt: expect.any(Number),
          credential: "api_key",
        },
        // How the archive names the player: a pseudonym from their object, the same for each of their events.
        userRef: expect.stringMatching(/^[0-9a-f]{32}$/),
        // The id the background handlers key it by, also when its object hands it on again.
        outboxId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        // The player's first event: their object reports them to the registry of the app's players.
        seen: { firstSeenAt: expect.any(Number), events: 1 },
        // The player's first event of the UTC day: counted among the day's active (and new) players.
        activeDay: { day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), firstDay: expect.any(String) },
      },
    ]);
    const { activeDay, event } = sent[0] as {
      activeDay: { day: string; firstDay: string };
      event: { receivedAt: number };
    };
    expect(activeDay).toEqual({
      day: new Date(event.receivedAt).toISOString().slice(0, 10),
      firstDay: new Date(event.receivedAt).toISOString().slice(0, 10),
    });
    expect((sent[0] as { seen: { firstSeenAt: number } }).seen.firstSeenAt).toBe(
      (sent[0] as { event: { receivedAt: number } }).event.receivedAt,
    );
  });

  it("takes auth=api_key explicitly, metadata as the alias of meta_data, group events and a team", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events?auth=api_key", {
      token: app.apiKey,
      body: {
        user_id: "u2",
        team_id: "red",
        event_name: "earn-points",
        event_type: "group",
        session_id: "s9",
        metadata: { amount: 5 },
      },
    });
    expect(r).toEqual(OK);
    expect(sent[0]).toMatchObject({
      event: {
        userId: "u2",
        teamId: "red",
        eventName: "earn-points",
        eventType: "group",
        sessionId: "s9",
        metaData: { amount: 5 },
      },
    });
  });

  it("answers on the path with a doubled leading slash, as SDK base URLs ending in / produce", async () => {
    const r = await call("POST", "//api/v1/events?auth=api_key", { token: app.apiKey, body: killEnemy({ amount: 1 }) });
    expect(r.body).toEqual(OK.body);
  });

  it("drops keys that the predefined event does not define, without checking them", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events", {
      token: app.apiKey,
      body: killEnemy({ amount: 1, speed: 2.5, away_score: "x", health: 3 }),
    });
    expect(r).toEqual(OK);
    expect(sent[0].kind === "event" && sent[0].event.metaData).toEqual({ amount: 1 });
  });

  it("keeps trigger-event's meta event_type apart from the top-level one", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events", {
      token: app.apiKey,
      body: {
        user_id: "u1",
        event_name: "trigger-event",
        event_type: "group",
        meta_data: { amount: 1, event_type: "door-opened" },
      },
    });
    expect(r).toEqual(OK);
    expect(sent[0]).toMatchObject({
      event: { eventType: "group", metaData: { amount: 1, event_type: "door-opened" } },
    });
  });

  it("accepts custom events with integer and string values", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events", {
      token: app.apiKey,
      body: { user_id: "u1", event_name: "open-chest", meta_data: { chest: "gold", coins: 120, ignored: null } },
    });
    expect(r).toEqual(OK);
    expect(sent[0]).toMatchObject({ event: { eventName: "open-chest", metaData: { chest: "gold", coins: 120 } } });
  });
});

describe("sending with an access token", () => {
  it("takes the user from the token", async () => {
    const { sent, queue } = capturingBackground();
    const r = await callCapturing(queue, "POST", "/api/v1/events?auth=access_token", {
      token,
      body: { event_name: "collect-item", meta_data: { amount: 1, item_type: "gem" } },
    });
    expect(r).toEqual(OK);
    expect(sent[0]).toMatchObject({ event: { appId: app.appId, userId: "token-user", eventName: "collect-item" } });
  });

  it("refuses a user_id in the body", async () => {
    const r = await call("POST", "/api/v1/events?auth=access_token", {
      token,
      body: { user_id: "someone-else", event_name: "collect-item", meta_data: { amount: 1, item_type: "gem" } },
    });
    expect(r).toMatchObject(invalid("user_id", "must not be sent with an access token: the token names the user"));
  });
});

describe("each failure class answers 400 naming the field", () => {
  const send = (body: unknown) => call("POST", "/api/v1/events", { token: app.apiKey, body });

  it("a missing required field", async () => {
    expect(await send(killEnemy({ weapon_used: "rifle" }))).toMatchObject(
      invalid("meta_data.amount", "is required for event 'kill-enemy'"),
    );
  });
  it("a float in a number field", async () => {
    expect(await send(killEnemy({ amount: 1.5 }))).toMatchObject(
      invalid("meta_data.amount", "must be an integer, not a float (scale it to an integer, for example times 1000)"),
    );
  });
  it("a string in a number field", async () => {
    expect(await send(killEnemy({ amount: "3" }))).toMatchObject(
      invalid("meta_data.amount", "must be an integer, not a string"),
    );
  });
  it("a boolean in a number field", async () => {
    expect(await send(killEnemy({ amount: true }))).toMatchObject(
      invalid("meta_data.amount", "must be an integer, not a boolean"),
    );
  });
  it("an integer outside the safe range", async () => {
    const r = await call("POST", "/api/v1/events", {
      token: app.apiKey,
      rawBody: '{"user_id":"u1","event_name":"kill-enemy","meta_data":{"amount":9007199254740993}}',
    });
    expect(r).toMatchObject(
      invalid("meta_data.amount", "must be a safe integer (between -9007199254740991 and 9007199254740991)"),
    );
  });
  it("a non-string in a string field", async () => {
    expect(await send(killEnemy({ amount: 1, weapon_used: 7 }))).toMatchObject(
      invalid("meta_data.weapon_used", "must be a string, not an integer"),
    );
  });
  it("a float or a boolean in a custom event", async () => {
    expect(await send({ user_id: "u1", event_name: "lap-time", meta_data: { seconds: 61.25 } })).toMatchObject(
      invalid(
        "meta_data.seconds",
        "must be an integer or a string, not a float (scale it to an integer, for example times 1000)",
      ),
    );
    expect(await send({ user_id: "u1", event_name: "lap-time", meta_data: { best: false } })).toMatchObject(
      invalid("meta_data.best", "must be an integer or a string, not a boolean"),
    );
  });
  it("the field name of the alias when metadata is used", async () => {
    expect(await send({ user_id: "u1", event_name: "kill-enemy", metadata: { amount: 0.5 } })).toMatchObject({
      status: 400,
      body: { errors: [{ field: "metadata.amount", problem: expect.stringContaining("not a float") }] },
    });
  });
  it("a missing user_id with an API key", async () => {
    expect(await send({ event_name: "kill-enemy", meta_data: { amount: 1 } })).toMatchObject(
      invalid("user_id", "is required when sending with an API key"),
    );
  });
  it("a missing event_name, a wrong event_type and meta_data that is not an object, all at once", async () => {
    const r = await send({ user_id: "u1", event_type: "many", meta_data: [1] });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: "event_name", problem: "is required" },
      { field: "event_type", problem: "must be 'single' or 'group'" },
      { field: "meta_data", problem: "must be an object of property names to integer or string values, not an array" },
    ]);
    expect(r.body.message).toBe(
      "Invalid event: event_name is required; event_type must be 'single' or 'group'; meta_data must be an object of property names to integer or string values, not an array",
    );
  });
  it("a body that is not a JSON object", async () => {
    expect(await call("POST", "/api/v1/events", { token: app.apiKey, rawBody: "{not json" })).toMatchObject({
      status: 400,
      body: { status: 400, message: "Request body must be JSON", errors: [{ field: "body", problem: "must be JSON" }] },
    });
    expect(await send([1, 2])).toMatchObject(invalid("body", "must be a JSON object, not an array"));
  });
  it("an unknown auth mode", async () => {
    const r = await call("POST", "/api/v1/events?auth=password", { token: app.apiKey, body: killEnemy({ amount: 1 }) });
    expect(r).toMatchObject({
      status: 400,
      body: {
        status: 400,
        message: "Invalid query: auth must be 'api_key' or 'access_token'",
        errors: [{ field: "auth", problem: "must be 'api_key' or 'access_token'" }],
      },
    });
  });
});

describe("bad credentials answer 401", () => {
  const body = killEnemy({ amount: 1 });

  it("no credential", async () => {
    expect(await call("POST", "/api/v1/events", { body })).toMatchObject(unauthorized("Missing Authorization header"));
  });
  it("an unknown API key", async () => {
    expect(await call("POST", "/api/v1/events", { token: "gk_not-a-key", body })).toMatchObject(
      unauthorized("Invalid or revoked API key"),
    );
  });
  it("an access token where an API key is expected", async () => {
    expect(await call("POST", "/api/v1/events?auth=api_key", { token, body })).toMatchObject(
      unauthorized("This operation requires an API key, not an access token"),
    );
  });
  it("an API key where an access token is expected", async () => {
    expect(await call("POST", "/api/v1/events?auth=access_token", { token: app.apiKey, body })).toMatchObject(
      unauthorized("This operation requires an access token, not an API key"),
    );
  });
  it("a forged access token", async () => {
    const forged = `${token.slice(0, -4)}AAAA`;
    expect(
      await call("POST", "/api/v1/events?auth=access_token", { token: forged, body: { event_name: "x" } }),
    ).toMatchObject(unauthorized("Access token is invalid"));
  });
  it("a revoked API key", async () => {
    const other = await createTestApp("Revoked");
    await call("DELETE", `/api/v1/admin/apps/${other.appId}/api-keys/${other.keyId}`, { token: ADMIN });
    expect(await call("POST", "/api/v1/events", { token: other.apiKey, body })).toMatchObject(
      unauthorized("Invalid or revoked API key"),
    );
  });
});

describe("the OpenAPI document", () => {
  it("describes the event routes and the event payload", async () => {
    const doc = await call("GET", "/openapi.json");
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/events",
        "/api/v1/events/batch",
        "/api/v1/public/documentation",
        "/api/v1/admin/apps/{appId}/analytics/events",
        "/api/v1/admin/apps/{appId}/usage",
      ]),
    );
    const send = doc.body.paths["/api/v1/events"].post;
    expect(send.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/EventPayload" });
    expect(send.parameters).toEqual([expect.objectContaining({ name: "auth", in: "query" })]);
    expect(Object.keys(doc.body.components.schemas.EventPayload.properties)).toEqual([
      "user_id",
      "team_id",
      "event_name",
      "event_type",
      "session_id",
      "meta_data",
      "metadata",
      "event_id",
    ]);
  });
});
