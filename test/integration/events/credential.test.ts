import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp } from "../helpers";
import { capturingBackground, callCapturing } from "./support";

/**
 * Event intake without `?auth=`: SCILL's Unreal and PHP SDKs never send it
 * (sdk-clients.md, "Credentials"; scill-unreal ScillApiEventsApiOperations.cpp:74-78), and an
 * Unreal game client sends its access token. The credential then says what it is.
 */

let app: Awaited<ReturnType<typeof createTestApp>>;
let token: string;

beforeAll(async () => {
  app = await createTestApp("Credential");
  token = await app.tokenFor("unreal-player");
});

const levelUp = (extra: Record<string, unknown> = {}) => ({
  event_name: "level-up",
  session_id: "match-9",
  meta_data: { level: 3 },
  ...extra,
});
const sentUsers = (sent: unknown[]) => sent.flatMap((m: any) => (m.kind === "event" ? [m.event.userId] : []));

describe("an event without auth", () => {
  it("with an access token counts for the token's user", async () => {
    const { sent, queue } = capturingBackground();
    expect(await callCapturing(queue, "POST", "/api/v1/events", { token, body: levelUp() })).toEqual({
      status: 200,
      body: { status: 200, message: "OK" },
    });
    expect(sentUsers(sent)).toEqual(["unreal-player"]);
  });

  it("with an access token takes Unreal's user_id as it writes it: empty, or the token's own user", async () => {
    const { sent, queue } = capturingBackground();
    for (const user_id of ["", "unreal-player"]) {
      expect((await callCapturing(queue, "POST", "/api/v1/events", { token, body: levelUp({ user_id }) })).status).toBe(
        200,
      );
    }
    expect(sentUsers(sent)).toEqual(["unreal-player", "unreal-player"]);
    const other = await call("POST", "/api/v1/events", { token, body: levelUp({ user_id: "someone-else" }) });
    expect(other).toMatchObject({
      status: 400,
      body: {
        errors: [{ field: "user_id", problem: "must not be sent with an access token: the token names the user" }],
      },
    });
  });

  it("with an API key needs the user_id in the body, as before", async () => {
    const { sent, queue } = capturingBackground();
    expect(
      (
        await callCapturing(queue, "POST", "/api/v1/events", {
          token: app.apiKey,
          body: levelUp({ user_id: "php-player" }),
        })
      ).status,
    ).toBe(200);
    expect(sentUsers(sent)).toEqual(["php-player"]);
    expect(await call("POST", "/api/v1/events", { token: app.apiKey, body: levelUp() })).toMatchObject({
      status: 400,
      body: { errors: [{ field: "user_id", problem: "is required when sending with an API key" }] },
    });
  });

  it("also in a batch, and a long credential that is not a JWT is tried as an API key", async () => {
    const batch = await call("POST", "/api/v1/events/batch", {
      token,
      body: { events: [levelUp(), levelUp({ user_id: "" })] },
    });
    expect(batch).toMatchObject({ status: 200, body: { message: "OK" } });
    const long = await call("POST", "/api/v1/events", { token: "x".repeat(80), body: levelUp({ user_id: "u" }) });
    expect(long).toMatchObject({
      status: 401,
      body: { status: 401, message: "This operation requires an API key, not an access token" },
    });
  });

  it("keeps an explicit auth as the choice", async () => {
    expect((await call("POST", "/api/v1/events?auth=api_key", { token, body: levelUp() })).status).toBe(401);
    expect((await call("POST", "/api/v1/events?auth=access_token", { token, body: levelUp() })).status).toBe(200);
  });
});
