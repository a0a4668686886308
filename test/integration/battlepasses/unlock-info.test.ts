import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, DAY, HOUR, iso, serviceNow } from "../helpers";
import { createLevel, createPass, levelOf } from "./support";

/**
 * Unlocking answers SCILL's BattlePassUnlockInfo (scill.yaml): everything the answer had, plus a
 * `purchase_id`, digits, stable per (user, battle pass), on the spec's path and on SCILL's.
 */

let app: Awaited<ReturnType<typeof createTestApp>>;
let passId: string;
let otherPassId: string;

beforeAll(async () => {
  app = await createTestApp("Unlock info");
  const now = await serviceNow();
  const running = { start_date: iso(now - HOUR), end_date: iso(now + 30 * DAY), is_active: true };
  passId = (await createPass(app.appId, { battle_pass_name: "Season", ...running })).battle_pass_id;
  otherPassId = (await createPass(app.appId, { battle_pass_name: "Other", ...running })).battle_pass_id;
  for (const id of [passId, otherPassId]) await createLevel(app.appId, id, levelOf(["kill-enemy", 1]));
});

const SPEC = (passId: string) => `/v1/battle-pass/${app.appId}/unlock/${passId}`;
const SCILL = (passId: string) => `/api/v1/battle-passes/${app.appId}/unlock/${passId}`;

describe("the unlock answer", () => {
  it("carries a purchase_id of digits, the same on both paths and on every later unlock of the user", async () => {
    const token = await app.tokenFor("buyer");
    const first = await call("POST", SPEC(passId), { token, body: { purchase_price: 4.99, purchase_currency: "EUR" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      battle_pass_id: passId,
      user_id: "buyer",
      purchase_price: 4.99,
      purchase_currency: "EUR",
      battle_pass_completed: false,
    });
    expect(first.body.purchase_id).toMatch(/^\d{1,19}$/);
    const again = await call("POST", SCILL(passId), { token, body: {} });
    expect(again.body.purchase_id).toBe(first.body.purchase_id);
    // The backend unlocking for the same user with the API key names the same purchase.
    const byKey = await call("POST", SCILL(passId), { token: app.apiKey, body: { user_id: "buyer" } });
    expect(byKey.body.purchase_id).toBe(first.body.purchase_id);
  });

  it("differs between users and between passes", async () => {
    const ids = [];
    for (const [user, pass] of [
      ["ann", passId],
      ["bob", passId],
      ["ann", otherPassId],
    ]) {
      const r = await call("POST", SCILL(pass), { token: await app.tokenFor(user), body: {} });
      ids.push(r.body.purchase_id);
    }
    expect(new Set(ids).size).toBe(3);
  });

  it("is documented as SCILL's BattlePassUnlockInfo", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const schema =
      doc.paths["/api/v1/battle-passes/{appId}/unlock/{battlePassId}"].post.responses["200"].content["application/json"]
        .schema;
    expect(schema).toEqual({ $ref: "#/components/schemas/BattlePassUnlockInfo" });
    expect(JSON.stringify(doc.components.schemas.BattlePassUnlockInfo)).toContain("purchase_id");
  });
});
