import { gunzipSync } from "node:zlib";
import { EventsApi } from "@scillgame/scill-js";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, eventually, http, newStudioApp, sdkConfiguration } from "./support";

/** As a studio points the SCILL SDK at this service: getEventsApi's set-up with our base URL. */
const eventsApi = (credential: string) => new EventsApi(sdkConfiguration(credential));

/** The app's event counts by name, once `expected` events have arrived through the background queue. */
async function countsOnceArrived(appId: string, expected: number) {
  return eventually(
    async () => {
      const r = await http("GET", `/api/v1/admin/apps/${appId}/analytics/events`, { token: ADMIN_TOKEN });
      if (r.status !== 200 || r.body.total < expected) return undefined;
      return Object.fromEntries(
        r.body.by_name.map((n: { event_name: string; count: number }) => [n.event_name, n.count]),
      );
    },
    20_000,
    `${expected} events in analytics`,
  );
}

describe("event intake, as a studio uses it", () => {
  it("counts events sent with an API key and with an access token, through the SCILL SDK", async () => {
    const studio = await newStudioApp("Events studio");
    const token = await studio.tokenFor("player-1");

    const byKey = await eventsApi(studio.apiKey).sendEvent({
      user_id: "player-1",
      session_id: "match-1",
      event_name: "kill-enemy",
      event_type: "single",
      meta_data: { amount: 2, weapon_used: "rifle" },
    });
    expect(byKey).toEqual({ status: 200, message: "OK" });

    const byToken = await eventsApi(token).sendEvent({
      session_id: "match-1",
      event_name: "collect-item",
      meta_data: { amount: 1, item_type: "gem" },
    });
    expect(byToken).toEqual({ status: 200, message: "OK" });

    expect(await countsOnceArrived(studio.appId, 2)).toEqual({ "kill-enemy": 1, "collect-item": 1 });
    const usage = await http("GET", `/api/v1/admin/apps/${studio.appId}/usage`, { token: ADMIN_TOKEN });
    expect(usage.body.items).toEqual([expect.objectContaining({ events: 2 })]);
  });

  it("applies an event sent twice with the same event_id once", async () => {
    const studio = await newStudioApp("Retrying studio");
    const event = { user_id: "p", event_name: "earn-points", meta_data: { amount: 5 }, event_id: "retry-1" };
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await http("POST", "/api/v1/events", { token: studio.apiKey, body: event })).toMatchObject({
        status: 200,
        body: { status: 200, message: "OK" },
      });
    }
    const again = await http("POST", "/api/v1/events/batch", { token: studio.apiKey, body: { events: [event] } });
    expect(again.body.results).toEqual([
      { index: 0, status: 200, message: "OK", event_id: "retry-1", duplicate: true },
    ]);

    // A later event marks the point by which the earlier ones have been delivered.
    await http("POST", "/api/v1/events", { token: studio.apiKey, body: { user_id: "p", event_name: "match-finish" } });
    expect(await countsOnceArrived(studio.appId, 2)).toEqual({ "earn-points": 1, "match-finish": 1 });
  });

  it("answers a batch with one bad event: the good ones accepted, the bad one named", async () => {
    const studio = await newStudioApp("Batch studio");
    const r = await http("POST", "/api/v1/events/batch", {
      token: studio.apiKey,
      body: {
        events: [
          { user_id: "a", event_name: "reach-checkpoint", meta_data: { checkpoint_id: "cp-1" } },
          { user_id: "a", event_name: "reach-checkpoint", meta_data: { checkpoint_id: 3 } },
          { user_id: "b", event_name: "finish-laps", meta_data: { lap_position: 1, required_time: 6125 } },
        ],
      },
    });
    expect(r).toMatchObject({
      status: 200,
      body: {
        status: 200,
        message: "1 of 3 events rejected",
        results: [
          { index: 0, status: 200, message: "OK" },
          {
            index: 1,
            status: 400,
            message: "Invalid event: meta_data.checkpoint_id must be a string, not an integer",
            errors: [{ field: "meta_data.checkpoint_id", problem: "must be a string, not an integer" }],
          },
          { index: 2, status: 200, message: "OK" },
        ],
      },
    });
    expect(await countsOnceArrived(studio.appId, 2)).toEqual({ "reach-checkpoint": 1, "finish-laps": 1 });
  });

  it("keeps the raw events in the archive: listed by hour, downloaded as gzip-compressed NDJSON", async () => {
    const studio = await newStudioApp("Archive studio");
    const sent = [
      { user_id: "p1", event_name: "kill-enemy", meta_data: { amount: 3, weapon_used: "bow" }, event_id: "a-1" },
      { user_id: "p2", event_name: "collect-item", meta_data: { amount: 1, item_type: "gem" } },
    ];
    const r = await http("POST", "/api/v1/events/batch", { token: studio.apiKey, body: { events: sent } });
    expect(r.body.results.map((x: { status: number }) => x.status)).toEqual([200, 200]);

    const files = await eventually(
      async () => {
        const listed = await http("GET", `/api/v1/admin/apps/${studio.appId}/analytics/event-files`, {
          token: ADMIN_TOKEN,
        });
        const events = listed.body.files.reduce((n: number, f: { events: number }) => n + f.events, 0);
        return events >= 2 ? listed.body.files : undefined;
      },
      20_000,
      "2 archived events",
    );
    const lines: Record<string, unknown>[] = [];
    for (const file of files) {
      expect(file.path).toMatch(/^date=\d{4}-\d{2}-\d{2}\/hour=\d{2}\/[0-9a-f]{32}\.ndjson\.gz$/);
      const download = await fetch(file.url, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(download.headers.get("content-type")).toBe("application/gzip");
      const text = gunzipSync(Buffer.from(await download.arrayBuffer())).toString("utf8");
      lines.push(
        ...text
          .trimEnd()
          .split("\n")
          .map((line) => JSON.parse(line)),
      );
    }
    // Two users' events may arrive in separate background batches, hence files: compared by event.
    // The archive names players by a pseudonym kept in their object (user_ref), never by user id.
    lines.sort((a, b) => String(a.event_name).localeCompare(String(b.event_name)));
    expect(
      lines.map(({ user_id, user_ref, event_name, meta_data, event_id, app_id }) => ({
        user_id,
        user_ref,
        event_name,
        meta_data,
        event_id,
        app_id,
      })),
    ).toEqual([
      {
        ...sent[1],
        user_id: undefined,
        user_ref: expect.stringMatching(/^[0-9a-f]{32}$/),
        event_id: null,
        app_id: studio.appId,
      },
      { ...sent[0], user_id: undefined, user_ref: expect.stringMatching(/^[0-9a-f]{32}$/), app_id: studio.appId },
    ]);
    expect(lines[0].user_ref).not.toBe(lines[1].user_ref);
  });

  it("refuses a float with the field named, through the SDK", async () => {
    const studio = await newStudioApp("Float studio");
    const refused = await eventsApi(studio.apiKey)
      .sendEvent({ user_id: "p", event_name: "reach-distance", meta_data: { distance: 12.5 } })
      .then(
        () => undefined,
        (response: Response) => response,
      );
    expect(refused?.status).toBe(400);
    expect(await refused!.json()).toMatchObject({
      status: 400,
      errors: [
        {
          field: "meta_data.distance",
          problem: "must be an integer, not a float (scale it to an integer, for example times 1000)",
        },
      ],
    });
  });
});
