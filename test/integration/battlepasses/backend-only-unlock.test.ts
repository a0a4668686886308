import { describe, expect, it } from "vitest";
import { call, createTestApp, DAY, HOUR, iso, serviceNow } from "../helpers";
import { createLevel, createPass, levelOf } from "./support";

describe("a pass unlocked by the studio's backend only", () => {
  it("refuses a game client's unlock with 403 on both paths, and takes the API key's", async () => {
    const app = await createTestApp("Backend-only unlock");
    const now = await serviceNow();
    const pass = await createPass(app.appId, {
      battle_pass_name: "Premium",
      start_date: iso(now - HOUR),
      end_date: iso(now + DAY),
      backend_only_unlock: true,
    });
    expect(pass).toMatchObject({ backend_only_unlock: true });
    await createLevel(app.appId, pass.battle_pass_id, levelOf(["kill-enemy", 1]));
    const token = await app.tokenFor("buyer");
    const message = `Battle pass ${pass.battle_pass_id} is unlocked by the studio's backend only (backend_only_unlock): unlock it with an API key after checking the purchase`;
    for (const path of [
      `/v1/battle-pass/${app.appId}/unlock/${pass.battle_pass_id}`,
      `/api/v1/battle-passes/${app.appId}/unlock/${pass.battle_pass_id}`,
    ]) {
      expect(await call("POST", path, { token, body: { purchase_price: 0, purchase_currency: "EUR" } })).toMatchObject({
        status: 403,
        body: { status: 403, message },
      });
    }
    expect((await call("GET", `/api/v1/battle-passes/${app.appId}/unlocked`, { token })).body).toEqual([]);

    const byBackend = await call("POST", `/api/v1/battle-passes/${app.appId}/unlock/${pass.battle_pass_id}`, {
      token: app.apiKey,
      body: { user_id: "buyer", purchase_price: 499, purchase_currency: "EUR" },
    });
    expect(byBackend).toMatchObject({ status: 200, body: { user_id: "buyer", purchase_price: 499 } });
    expect((await call("GET", `/api/v1/battle-passes/${app.appId}/unlocked`, { token })).body).toEqual([
      expect.objectContaining({ battle_pass_id: pass.battle_pass_id }),
    ]);
  });
});
