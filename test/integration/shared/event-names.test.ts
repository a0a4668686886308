import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { challengeBody, createCategory } from "../challenges/support";
import { applyCatalog } from "../catalog/support";
import { createPass } from "../battlepasses/support";

/**
 * The one rule of event names: every configuration write refuses a name that event intake
 * refuses (a space at either end, a control character), with the same plain problem.
 */

let app: Awaited<ReturnType<typeof createTestApp>>;
const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin/apps/${app.appId}${path}`, { token: ADMIN, body });

const SPACE = "must not start or end with a space";
const CONTROL = "must not contain control characters";
const refused = (field: string, problem: string) => ({
  status: 400,
  body: {
    status: 400,
    message: `Invalid body: ${field.replace(/\.(\d+)(?=\.|$)/g, "[$1]")} ${problem}`,
    errors: [{ field, problem }],
  },
});
const answer = (r: Awaited<ReturnType<typeof call>>) => ({ status: r.status, body: r.body });

beforeAll(async () => {
  app = await createTestApp("Event names");
});

describe("an event name with a space at either end or a control character", () => {
  it("is refused by challenges, level challenges, leaderboards and the app's backend-only events", async () => {
    const category = await createCategory(app.appId);
    const pass = await createPass(app.appId, {
      battle_pass_name: "S1",
      start_date: "2030-01-01T00:00:00Z",
      end_date: "2030-02-01T00:00:00Z",
    });
    for (const [name, problem] of [
      [" kill", SPACE],
      ["kill ", SPACE],
      ["kill\u0007", CONTROL],
    ] as const) {
      expect(
        answer(await admin("POST", "/challenges", challengeBody(category.category_id, { event_name: name }))),
      ).toEqual(refused("event_name", problem));
      expect(answer(await admin("POST", "/leaderboards", { name: "Board", event_name: name }))).toEqual(
        refused("event_name", problem),
      );
      const level = await admin("POST", `/battle-passes/${pass.battle_pass_id}/levels`, {
        challenges: [
          { challenge_name: "Kill", challenge_goal: 1, event_name: "kill-enemy" },
          { challenge_name: "Kill", challenge_goal: 1, event_name: name },
        ],
      });
      expect(answer(level)).toEqual(refused("challenges.1.event_name", problem));
      expect(
        answer(await admin("PUT", "", { name: "Event names", backend_only_events: ["grant-coins", name] })),
      ).toEqual(refused("backend_only_events.1", problem));
    }
    expect(
      (await admin("POST", "/challenges", challengeBody(category.category_id, { event_name: "Kill Enemy" }))).status,
    ).toBe(201);
  });

  it("is refused by a catalog document", async () => {
    const r = await applyCatalog(app.appId, {
      version: 1,
      leaderboards: [{ key: "board", name: "Board", event_name: "kill\u0000" }],
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      status: 400,
      message: `Invalid body: leaderboards[0].event_name ${CONTROL}`,
      errors: [{ field: "leaderboards.0.event_name", problem: CONTROL }],
    });
  });

  it("is refused by intake with the same problem, where any other name is taken as before", async () => {
    const send = async (event_name: string) =>
      answer(await call("POST", "/api/v1/events", { token: app.apiKey, body: { user_id: "u1", event_name } }));
    const invalidEvent = (problem: string) => ({
      status: 400,
      body: {
        status: 400,
        message: `Invalid event: event_name ${problem}`,
        errors: [{ field: "event_name", problem }],
      },
    });
    expect(await send(" kill")).toEqual(invalidEvent(SPACE));
    expect(await send("kill\u0007")).toEqual(invalidEvent(CONTROL));
    expect(await send("Kill Enemy")).toEqual({ status: 200, body: { status: 200, message: "OK" } });
  });
});
