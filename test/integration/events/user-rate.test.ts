import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UserEventRate } from "../../../src/events/user-rate";
import { userObject } from "../../../src/user/names";
import { ADMIN, advanceClock, call, createTestApp, serviceNow } from "../helpers";

const send = (apiKey: string, user: string) =>
  call("POST", "/api/v1/events", {
    token: apiKey,
    body: { user_id: user, event_name: "earn-points", meta_data: { amount: 1 } },
  });

afterEach(() => vi.restoreAllMocks());

describe("the player's window in the player's object", () => {
  it("is stored as sums per second at most once a second, so that a restarted object still refuses", async () => {
    const app = await createTestApp("Stored window");
    await call("PUT", `/api/v1/admin/apps/${app.appId}`, {
      token: ADMIN,
      body: { name: "Stored window", rate_limits: { per_user_per_minute: 3 } },
    });
    // The wall clock stands still: the three events arrive in one instant.
    vi.spyOn(Date, "now").mockReturnValue(Date.now());
    const answers = await Promise.all([1, 2, 3].map(() => send(app.apiKey, "ann")));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    await advanceClock(1);
    expect((await send(app.apiKey, "ann")).status).toBe(429);

    const now = await serviceNow();
    await runInDurableObject(userObject(env, app.appId, "ann"), (_instance, state) => {
      const stored = state.storage.sql.exec<{ n: number }>("SELECT n FROM event_rate").toArray();
      // The first event was stored at once; the others of the same second wait for the next store.
      expect(stored.reduce((sum, r) => sum + r.n, 0)).toBe(1);
      // A fresh window (as after a restart) reads what was stored.
      const restarted = new UserEventRate(state.storage.sql);
      expect(restarted.refusal(now, 1)).toBeGreaterThan(0);
      expect(restarted.refusal(now, 100)).toBeNull();
    });
  });

  it("stores what the last second counted with the next event a second later", async () => {
    const app = await createTestApp("Stored window, later");
    await call("PUT", `/api/v1/admin/apps/${app.appId}`, {
      token: ADMIN,
      body: { name: "Stored window, later", rate_limits: { per_user_per_minute: 10 } },
    });
    for (let i = 0; i < 3; i++) expect((await send(app.apiKey, "bob")).status).toBe(200);
    await advanceClock(2);
    expect((await send(app.apiKey, "bob")).status).toBe(200);
    await runInDurableObject(userObject(env, app.appId, "bob"), (_instance, state) => {
      const stored = state.storage.sql.exec<{ n: number }>("SELECT n FROM event_rate").toArray();
      expect(stored.reduce((sum, r) => sum + r.n, 0)).toBe(4);
    });
  });
});
