import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import type { BackgroundMessage } from "../../../src/user/messages";
import { consume } from "./support";

const at = (iso: string) => Date.parse(iso);
const eventMessage = (appId: string, eventName: string, receivedAt: number): BackgroundMessage => ({
  kind: "event",
  event: {
    appId,
    userId: "u1",
    teamId: null,
    eventName,
    eventType: "single",
    sessionId: "s1",
    metaData: {},
    eventId: null,
    receivedAt,
    credential: "api_key",
  },
});
const files = (appId: string, query: string) =>
  call("GET", `/api/v1/admin/apps/${appId}/analytics/event-files?${query}`, { token: ADMIN });
const FILE_PATH = /^date=\d{4}-\d{2}-\d{2}\/hour=\d{2}\/[0-9a-f]{32}\.ndjson\.gz$/;

let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  app = await createTestApp("Event files");
  // Hours 09, 10 (two batches) and 12 of one day, and the next day's 00.
  await consume([
    eventMessage(app.appId, "a", at("2025-05-01T09:15:00Z")),
    eventMessage(app.appId, "b", at("2025-05-01T10:05:00Z")),
  ]);
  await consume([
    eventMessage(app.appId, "c", at("2025-05-01T10:45:00Z")),
    eventMessage(app.appId, "d", at("2025-05-01T12:00:00Z")),
  ]);
  await consume([eventMessage(app.appId, "e", at("2025-05-02T00:30:00Z"))]);
});

describe("GET /api/v1/admin/apps/{appId}/analytics/event-files", () => {
  it("lists the files of the hours a range touches, oldest first, with a URL each", async () => {
    const r = await files(app.appId, "from=2025-05-01T10:30:00Z&to=2025-05-01T12:00:01Z");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      app_id: app.appId,
      from: "2025-05-01T10:00:00.000Z",
      to: "2025-05-01T13:00:00.000Z",
      next_after: null,
    });
    expect(r.body.files.map((f: { hour: string; events: number }) => [f.hour, f.events])).toEqual([
      ["2025-05-01T10:00:00.000Z", 1],
      ["2025-05-01T10:00:00.000Z", 1],
      ["2025-05-01T12:00:00.000Z", 1],
    ]);
    for (const file of r.body.files) {
      expect(file.path).toMatch(FILE_PATH);
      expect(file.url).toBe(
        `https://gamification.test/api/v1/admin/apps/${app.appId}/analytics/event-files/${file.path}`,
      );
      expect(file.size).toBeGreaterThan(20);
      expect(Date.parse(file.uploaded)).not.toBeNaN();
    }
    const day = await files(app.appId, "from=2025-05-01&to=2025-05-02");
    expect(day.body.files.map((f: { hour: string }) => f.hour.slice(11, 13))).toEqual(["09", "10", "10", "12", "00"]);
  });

  it("pages with after = next_after", async () => {
    const seen: string[] = [];
    let after = "";
    for (;;) {
      const r = await files(
        app.appId,
        `from=2025-05-01&to=2025-05-02&limit=2${after ? `&after=${encodeURIComponent(after)}` : ""}`,
      );
      expect(r.status).toBe(200);
      seen.push(...r.body.files.map((f: { path: string }) => f.path));
      if (r.body.next_after === null) break;
      expect(r.body.files).toHaveLength(2);
      after = r.body.next_after;
    }
    expect(seen).toEqual(
      (await files(app.appId, "from=2025-05-01&to=2025-05-02")).body.files.map((f: { path: string }) => f.path),
    );
    expect(seen).toHaveLength(5);
  });

  it("downloads a file as stored: gzip-compressed NDJSON", async () => {
    const listed = await files(app.appId, "from=2025-05-01T09:00:00Z&to=2025-05-01T10:00:00Z");
    const [file] = listed.body.files;
    const response = await SELF.fetch(file.url, { headers: { Authorization: `Bearer ${ADMIN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/gzip");
    const text = await new Response(response.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      expect.objectContaining({ app_id: app.appId, event_name: "a", received_at: "2025-05-01T09:15:00.000Z" }),
    ]);
  });

  it("answers 404 for a file of another app, an unknown file or a path outside the layout", async () => {
    const other = await createTestApp("Other files");
    const [file] = (await files(app.appId, "from=2025-05-01&to=2025-05-01")).body.files;
    const base = (appId: string) => `/api/v1/admin/apps/${appId}/analytics/event-files`;
    expect(await call("GET", `${base(other.appId)}/${file.path}`, { token: ADMIN })).toMatchObject({
      status: 404,
      body: { status: 404, message: `No event file ${file.path} for app ${other.appId}` },
    });
    const missing = "date=2025-05-01/hour=09/00000000000000000000000000000000.ndjson.gz";
    expect((await call("GET", `${base(app.appId)}/${missing}`, { token: ADMIN })).status).toBe(404);
    expect((await call("GET", `${base(app.appId)}/date=2025-05-01/hour=09/x.txt`, { token: ADMIN })).status).toBe(404);
    expect((await call("GET", `${base("424242")}/${file.path}`, { token: ADMIN })).body).toEqual({
      status: 404,
      message: "App 424242 not found",
    });
  });

  it("refuses a malformed range or after, and callers without the admin token", async () => {
    expect(await files(app.appId, "from=2025-13-01")).toMatchObject({
      status: 400,
      body: { errors: [{ field: "from" }] },
    });
    expect(await files(app.appId, "after=../../app=1/x")).toMatchObject({
      status: 400,
      body: { status: 400, errors: [{ field: "after", problem: "must be the next_after of a previous page" }] },
    });
    expect(await files(app.appId, "limit=0")).toMatchObject({ status: 400, body: { errors: [{ field: "limit" }] } });
    expect(
      (await call("GET", `/api/v1/admin/apps/${app.appId}/analytics/event-files`, { token: app.apiKey })).status,
    ).toBe(401);
  });
});
