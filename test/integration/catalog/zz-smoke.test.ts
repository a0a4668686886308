import { it, expect } from "vitest";
import { parse } from "yaml";
import demo from "../../../scripts/demo/catalog.yaml?raw";
import { ADMIN, call, createTestApp } from "../helpers";

it("smoke", async () => {
  const a = await createTestApp("A");
  const doc = parse(demo);
  const applied = await call("PUT", `/api/v1/admin/apps/${a.appId}/catalog`, { token: ADMIN, body: doc });
  console.log(applied.status, JSON.stringify(applied.body).slice(0, 1500));
  const exported = await call("GET", `/api/v1/admin/apps/${a.appId}/catalog`, { token: ADMIN });
  console.log(JSON.stringify(exported.body).slice(0, 800));
  const again = await call("POST", `/api/v1/admin/apps/${a.appId}/catalog/plan`, { token: ADMIN, body: doc });
  console.log(JSON.stringify(again.body));
  const b = await createTestApp("B");
  const putB = await call("PUT", `/api/v1/admin/apps/${b.appId}/catalog`, { token: ADMIN, body: exported.body });
  console.log("B", putB.status, JSON.stringify(putB.body).slice(0, 600));
  const exportedB = await call("GET", `/api/v1/admin/apps/${b.appId}/catalog`, { token: ADMIN });
  expect(exportedB.body).toEqual(exported.body);
  const schema = await call("GET", `/api/v1/public/catalog-schema.json`);
  expect(schema.status).toBe(200);
});
