import { describe, expect, it } from "vitest";
import { createTestApp, sendEvent } from "../helpers";
import { ConsoleClient } from "../console/support";
import { createSystem } from "../points/support";
import { createAchievement } from "./support";

describe("achievements in the console", () => {
  it("the event tester lists the player's notifications topic once, for points and achievements", async () => {
    const app = await createTestApp("Achievements tester");
    const browser = new ConsoleClient();
    await browser.signInAsOwner();
    const topics = async () =>
      JSON.parse((await browser.get(`/console/apps/${app.appId}/events/topics?user_id=ann`)).html).topics.map(
        (t: { label: string; topic: string }) => [t.label, t.topic.split("/")[1]],
      );
    expect(await topics()).toEqual([["challenges", "challenges"]]);
    await createAchievement(app.appId, { key: "a", kind: "manual" });
    expect((await topics()).map(([label]: string[]) => label)).toEqual(["challenges", "notifications (achievements)"]);
    await createSystem(app.appId, { key: "xp" });
    expect(await topics()).toEqual([
      ["challenges", "challenges"],
      ["notifications (points, achievements)", "notifications"],
    ]);
  });

  it("pages answer: the list with its ladder, a form, the dashboard's panel, the player's section", async () => {
    const app = await createTestApp("Achievements pages");
    const rung = await createAchievement(app.appId, {
      key: "slay-1",
      name: "First blood",
      kind: "metric",
      event_name: "slay",
      threshold: 1,
    });
    await createAchievement(app.appId, {
      key: "slay-5",
      name: "Slayer",
      kind: "metric",
      event_name: "slay",
      threshold: 5,
    });
    await sendEvent(app.apiKey, "ann", "slay");
    const browser = new ConsoleClient();
    await browser.signInAsOwner();
    const list = await browser.get(`/console/apps/${app.appId}/achievements`);
    expect(list.status).toBe(200);
    expect(list.html).toContain("Ladder: <code>slay</code>");
    expect((await browser.get(`/console/apps/${app.appId}/achievements/${rung.achievement_id}`)).status).toBe(200);
    expect((await browser.get(`/console/apps/${app.appId}/achievements/new`)).status).toBe(200);
    expect((await browser.get(`/console/apps/${app.appId}/achievements/999999`)).status).toBe(404);
    const dashboard = await browser.get(`/console/apps/${app.appId}`);
    expect(dashboard.html).toContain("First blood");
    const player = await browser.get(`/console/apps/${app.appId}/players/ann`);
    expect(player.html).toContain('id="achievements"');
    expect(player.html).toContain("Holds 1 of 2.");
  });
});
