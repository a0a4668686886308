import { describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import {
  applied,
  applyCatalog,
  catalogVersion,
  configuration,
  demoCatalog,
  exportCatalog,
  planCatalog,
} from "./support";

/** The app's fair-play settings in its catalog document: exported, planned, applied like its objects. */

const SETTINGS = { backend_only_events: ["grant-coins"], rate_limits: { per_user_per_minute: 600 } };
const NOTHING = { create: 0, update: 0, delete: 0, unmanaged: 0, blocked: 0 };

const appSettings = async (appId: string) => {
  const { backend_only_events, rate_limits } = (await call("GET", `/api/v1/admin/apps/${appId}`, { token: ADMIN }))
    .body;
  return { backend_only_events, rate_limits };
};

describe("the app's settings in the catalog", () => {
  it("are exported as the app stores them, leaving out the rate limits it never set", async () => {
    const { appId } = await createTestApp("Settings export");
    expect((await exportCatalog(appId)).settings).toEqual({ backend_only_events: [], rate_limits: {} });
    const put = await call("PUT", `/api/v1/admin/apps/${appId}`, {
      token: ADMIN,
      body: {
        name: "Settings export",
        backend_only_events: ["grant-coins", "purchase-completed"],
        rate_limits: { per_app_per_minute: 50_000 },
      },
    });
    expect(put.status).toBe(200);
    expect((await exportCatalog(appId)).settings).toEqual({
      backend_only_events: ["grant-coins", "purchase-completed"],
      rate_limits: { per_app_per_minute: 50_000 },
    });
  });

  it("are planned as one update of app_settings with each field that changes, changing nothing", async () => {
    const { appId } = await createTestApp("Settings plan");
    const before = await configuration(appId);
    const r = await planCatalog(appId, { version: 1, settings: SETTINGS });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      app_id: appId,
      prune: false,
      applied: false,
      summary: { ...NOTHING, update: 1 },
      changes: [
        {
          action: "update",
          object: "app_settings",
          ref: "settings",
          fields: [
            { field: "backend_only_events", before: [], after: ["grant-coins"] },
            { field: "rate_limits", before: {}, after: { per_user_per_minute: 600 } },
          ],
        },
      ],
      unmanaged: [],
      blocked: [],
    });
    expect(await configuration(appId)).toEqual(before);
  });

  it("are applied with the rest of the document: the app's settings, one catalog version, an audit entry by the apply's actor", async () => {
    const { appId } = await createTestApp("Settings apply");
    const version = await catalogVersion(appId);
    const doc = { ...demoCatalog(), settings: SETTINGS };
    const r = await call("PUT", `/api/v1/admin/apps/${appId}/catalog`, {
      token: ADMIN,
      body: doc,
      headers: { "X-Actor": "deploy-bot" },
    });
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ ...NOTHING, create: 16, update: 1 });
    expect(r.body.changes[0]).toEqual({
      action: "update",
      object: "app_settings",
      ref: "settings",
      fields: expect.any(Array),
    });
    expect(await appSettings(appId)).toEqual({
      backend_only_events: ["grant-coins"],
      rate_limits: { per_user_per_minute: 600, per_app_per_minute: 6_000_000 },
    });
    expect(await catalogVersion(appId)).toBe(version + 1);

    const log = await call("GET", `/api/v1/admin/apps/${appId}/audit-log?resource=app`, { token: ADMIN });
    expect(log.body.items).toEqual([
      {
        entry_id: expect.stringMatching(/^\d+$/),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        app_id: appId,
        actor: { kind: "admin-token", id: null, name: "deploy-bot" },
        origin: { channel: "admin-api", ip: null, request_id: r.headers.get("X-Request-Id") },
        resource: "app",
        resource_id: "settings",
        action: "update",
        outcome: "done",
        before: { backend_only_events: [], rate_limits: {} },
        after: { backend_only_events: ["grant-coins"], rate_limits: { per_user_per_minute: 600 } },
      },
    ]);

    expect((await applied(appId, doc)).summary).toEqual(NOTHING);
    expect(await catalogVersion(appId)).toBe(version + 1);
  });

  it("change what the app takes at once: after the apply a client's backend-only event answers 403, an API key's still counts", async () => {
    const app = await createTestApp("Settings in force");
    const token = await app.tokenFor("player-1");
    const grant = { event_name: "grant-coins", meta_data: { amount: 100 } };
    // Sent before the apply, so the catalog this isolate caches holds the old settings.
    expect((await call("POST", "/api/v1/events", { token, body: grant })).status).toBe(200);
    await applied(app.appId, { version: 1, settings: { backend_only_events: ["grant-coins"] } });
    expect(await call("POST", "/api/v1/events", { token, body: grant })).toMatchObject({
      status: 403,
      body: {
        status: 403,
        message:
          "Event 'grant-coins' may only be sent by the studio's backend with an API key: the app lists it in backend_only_events",
      },
    });
    expect(
      (await call("POST", "/api/v1/events", { token: app.apiKey, body: { ...grant, user_id: "player-1" } })).status,
    ).toBe(200);
  });

  it("are left as they are by a document without settings, even with prune", async () => {
    const { appId } = await createTestApp("Settings kept");
    await applied(appId, { version: 1, settings: SETTINGS });
    const version = await catalogVersion(appId);
    expect((await applied(appId, { version: 1 }, { prune: true })).summary).toEqual(NOTHING);
    expect((await exportCatalog(appId)).settings).toEqual(SETTINGS);
    expect(await catalogVersion(appId)).toBe(version);
  });

  it("answer 400 with the path of each problem when invalid, by the admin API's rules, and change nothing", async () => {
    const { appId } = await createTestApp("Settings invalid");
    const before = await configuration(appId);
    const invalid = {
      version: 1,
      settings: {
        name: "Space Racer",
        backend_only_events: ["grant-coins", 7, ""],
        rate_limits: { per_user_per_minute: 0 },
      },
    };
    for (const r of [await planCatalog(appId, invalid), await applyCatalog(appId, invalid)]) {
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([
        { field: "settings.backend_only_events.1", problem: "must be a string, not a number" },
        { field: "settings.backend_only_events.2", problem: "must not be empty" },
        { field: "settings.rate_limits.per_user_per_minute", problem: "must be at least 1" },
        { field: "settings.name", problem: "is not a known field" },
      ]);
    }
    expect(await configuration(appId)).toEqual(before);
  });
});
