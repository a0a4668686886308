import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { userObject } from "../../../src/user/names";
import { call, createTestApp, sendEvent } from "../helpers";
import { connectClient, json, subscribe, topicLink } from "../realtime/support";
import { createLeague, endSeason, joinInOrder } from "./support";

const watchedTopic = (topic: string) =>
  env.DB.prepare("SELECT 1 AS one FROM watched_topics WHERE topic = ?").bind(topic).first();

describe("leagues over MQTT", () => {
  it("the cohort topic delivers standings changes; the result reaches the player's notifications topic", async () => {
    const app = await createTestApp("Leagues MQTT");
    const league = await createLeague(app.appId);
    const token = await app.tokenFor("m1");
    const noCohort = await call("GET", `/api/v1/auth/league-topic-link?league_id=${league.league_id}`, { token });
    expect(noCohort.status).toBe(404);
    expect(noCohort.body.message).toBe(`The player has no cohort in league ${league.league_id} this season yet`);
    expect((await call("GET", "/api/v1/auth/league-topic-link?league_id=999999", { token })).status).toBe(404);

    await joinInOrder(app.apiKey, league.league_id, ["m1"], () => 3);
    const cohort = await topicLink(token, `league-topic-link?league_id=${league.league_id}`);
    expect(cohort).toMatch(/^gamification\/league\/[0-9a-f]{48}$/);
    const client = await connectClient(4);
    expect(await subscribe(client, [cohort])).toEqual([1]);
    await vi.waitFor(async () => expect(await watchedTopic(cohort)).not.toBeNull(), { timeout: 15_000, interval: 50 });

    await sendEvent(app.apiKey, "m2", "earn-xp", { xp: 7 });
    const arrived = await client.next();
    expect(arrived).toMatchObject({ type: "publish", topic: cohort });
    expect(json((arrived as { payload: Uint8Array }).payload)).toMatchObject({
      webhook_type: "league-standings-changed",
      app_id: app.appId,
      league_id: league.league_id,
      tier: "bronze",
      size: 3,
      promote: 1,
      demote: 0,
      members: [
        { member_id: "m2", rank: 1, score: 7, zone: "promotion" },
        { member_id: "m1", rank: 2, score: 3, zone: "safe" },
      ],
    });
    client.close();

    const notifications = await topicLink(token, "user-notifications-topic-link");
    const player = await connectClient(4);
    expect(await subscribe(player, [notifications])).toEqual([1]);
    await vi.waitFor(
      async () =>
        expect(
          await runInDurableObject(userObject(env, app.appId, "m1"), (_i, state) =>
            state.storage.sql.exec("SELECT topic FROM rt_watchers").toArray(),
          ),
        ).toHaveLength(1),
      { timeout: 15_000, interval: 50 },
    );
    const season = await endSeason(league.league_id, app.apiKey, "m1");
    const result = await player.next();
    expect(result).toMatchObject({ type: "publish", topic: notifications });
    expect(json((result as { payload: Uint8Array }).payload)).toEqual({
      webhook_type: "league-result",
      app_id: app.appId,
      league_id: league.league_id,
      user_id: "m1",
      member_id: "m1",
      season_id: new Date(season).toISOString(),
      tier: "bronze",
      cohort_id: expect.any(String),
      rank: 2,
      score: 3,
      outcome: "stayed",
      next_tier: "bronze",
      rewards: null,
    });
    player.close();
  });
});
