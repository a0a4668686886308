import { afterEach, describe, expect, it } from "vitest";
import { adminCreate, eventually } from "./support";
import { sdkStudio } from "./sdk-studio";
import { connectPacket, PACKET, subscribePacket, wire, WireMqtt } from "./sdk-wire";

/**
 * Contract of SCILL's Unity SDK (scillgame/scill-unity fa687a7): its REST client in
 * csharp-sdk/src/SCILL and its MQTT client in unity-package/Runtime/Scripts/ScillHelpers,
 * replayed as they send (sdk-clients.md) and read back as they read. A game points it at this
 * service with Resources/SCILLConfig.json (SCILLSettings.cs:16-44); nothing else changes but the
 * broker line (ScillMqtt.cs:48).
 */

/** Uri.EscapeDataString, which Unity applies to the bearer (ApiClient.cs:170-175, :424-430). */
const escapeDataString = (s: string) => s.replace(/[^A-Za-z0-9\-_.~]/g, (c) => encodeURIComponent(c));
/** CreateBaseApiRequest sets Content-Type application/json on every request, GETs included (ApiClient.cs:177-185). */
const unityHeaders = (credential: string) => ({
  Authorization: `Bearer ${escapeDataString(credential)}`,
  "Content-Type": "application/json",
});
/**
 * JsonConvert.SerializeObject(body, Formatting.Indented), with DataMember(EmitDefaultValue = false) dropping unset
 * fields (ApiClient.cs:144).
 */
const indented = (value: unknown) => JSON.stringify(value, null, 2).replace(/\n/g, "\r\n");

const sockets: WireMqtt[] = [];
afterEach(() =>
  sockets.splice(0).forEach((s) => {
    s.close();
  }),
);

/** The shared studio, with a category sorted before its own: the challenge's category is at index 1. */
async function unityStudio(name: string) {
  const studio = await sdkStudio(name);
  const early = await adminCreate(`/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
    category_slug: "early",
    category_name: "Early",
    category_position: 0,
  });
  await adminCreate(`/api/v1/admin/apps/${studio.appId}/challenges`, {
    category_id: early.category_id,
    challenge_name: "Collect",
    challenge_goal: 3,
    event_name: "collect-item",
  });
  return studio;
}

/** SCILLBackend's GenerateAccessToken (AuthApi.cs:388-398), with the API key. */
async function unityToken(apiKey: string, userId: string) {
  const r = await wire("POST", "/api/v1/auth/access-token", unityHeaders(apiKey), indented({ user_id: userId }));
  expect(r.status).toBe(200);
  return r.json.token as string;
}

/** SCILLClient.SendEventAsync: `auth=access_token` (SCILLClient.cs:71; EventsApi.cs:250-264). */
const sendEvent = (token: string, payload: Record<string, unknown>) =>
  wire(
    "POST",
    "/api/v1/events?auth=access_token",
    unityHeaders(token),
    indented({ session_id: "match-1", event_type: "single", ...payload }),
  );

describe("SCILL's Unity SDK against the service", () => {
  it("lists with include_categories, acts with empty JSON bodies, and reads category_position as the list index", async () => {
    const studio = await unityStudio("Unity challenges");
    const token = await unityToken(studio.apiKey, "unity-player");
    expect(escapeDataString(token)).toBe(token);
    const personal = "/api/v1/challenges/personal";
    // GetPersonalChallenges with include_categories as csv (ChallengesApi.cs:857-871), Content-Type on a GET.
    const listed = await wire(
      "GET",
      `${personal}/get/${studio.appId}?include_categories=main%2C${studio.categoryId}&language=en`,
      unityHeaders(token),
    );
    expect(listed.json.map((c: any) => [c.category_slug, c.category_position])).toEqual([["main", 1]]);
    // Unlock POST and activate PUT with application/json and no body (ChallengesApi.cs:952-958, 596-602).
    for (const [method, verb, type] of [
      ["POST", "unlock", "unlocked"],
      ["PUT", "activate", "in-progress"],
    ]) {
      const r = await wire(
        method,
        `${personal}/${verb}/${studio.appId}/${studio.challengeId}`,
        unityHeaders(token),
        "",
      );
      expect({ status: r.status, type: r.json.challenge?.type }).toEqual({ status: 200, type });
    }
    expect((await sendEvent(token, { event_name: "kill-enemy", meta_data: { amount: 2 } })).json).toEqual({
      status: 200,
      message: "OK",
    });
    const one = await wire("GET", `${personal}/get/${studio.appId}/${studio.challengeId}`, unityHeaders(token));
    expect(one.json).toMatchObject({ type: "in-progress", user_challenge_current_score: 2 });
  });

  it("gets the deprecated websocket token, and passes the CORS preflight of a WebGL build", async () => {
    const studio = await unityStudio("Unity WebGL");
    const token = await unityToken(studio.apiKey, "unity-web");
    // GenerateWebsocketAccessToken (ChallengesApi.cs:698-703): the user's challenge topic.
    const socket = await wire("GET", "/api/v1/challenges/web-socket/generate-token", unityHeaders(token));
    expect(socket.json.socket_token).toBe(
      (await wire("GET", "/api/v1/auth/user-challenges-topic-link", unityHeaders(token))).json.topic,
    );
    // A browser asks before every request with Authorization and Content-Type.
    const preflight = await wire(
      "OPTIONS",
      `/api/v1/challenges/personal/activate/${studio.appId}/${studio.challengeId}`,
      {
        Origin: "https://game.example.com",
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization,content-type",
      },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toBe("authorization,content-type");
  });

  it("unlocks a battle pass with an empty JSON body and reads BattlePassUnlockInfo (BattlePassesApi.cs:817-839)", async () => {
    const studio = await unityStudio("Unity passes");
    const token = await unityToken(studio.apiKey, "unity-buyer");
    const r = await wire(
      "POST",
      `/api/v1/battle-passes/${studio.appId}/unlock/${studio.passId}`,
      unityHeaders(token),
      "",
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      battle_pass_id: studio.passId,
      user_id: "unity-buyer",
      purchase_price: 0,
      battle_pass_completed: false,
    });
    expect(r.json.purchase_id).toMatch(/^\d+$/);
  });

  it("lists every board from rank 1 although it sends currentPosition = pageSize, and resets at the v1 path", async () => {
    const studio = await unityStudio("Unity boards");
    for (const [user, score] of [
      ["u1", 30],
      ["u2", 20],
      ["u3", 10],
    ] as const) {
      const token = await unityToken(studio.apiKey, user);
      expect((await sendEvent(token, { event_name: "achieve-score", meta_data: { score } })).status).toBe(200);
    }
    // GetLeaderboardsAsync with ApiVersion v2 (default): LeaderboardsApi.cs:571-585 sends currentPosition = pageSize.
    const first = await eventually(
      async () => {
        const r = await wire(
          "GET",
          "/api/v2/leaderboards?currentPage=1&pageSize=2&currentPosition=2",
          unityHeaders(studio.apiKey),
        );
        const members = r.json[0].leaderboard_results_by_member_type.user.members;
        return members.length === 2 ? members : undefined;
      },
      15_000,
      "two ranked users",
    );
    expect(first.map((m: any) => [m.member_id, m.rank])).toEqual([
      ["u1", 1],
      ["u2", 2],
    ]);
    // ResetLeaderboardRankings with ApiVersion v1: DELETE /api/v1/leaderboards-reset/... (LeaderboardsApi.cs:713-723).
    const reset = await wire(
      "DELETE",
      `/api/v1/leaderboards-reset/${studio.appId}/${studio.boardId}`,
      unityHeaders(studio.apiKey),
    );
    expect(reset.json).toEqual({ status: 200, message: "OK" });
  });

  it("connects without a WebSocket subprotocol and with an empty client id, and reads each topic's messages as ScillMqtt.cs does", async () => {
    const studio = await unityStudio("Unity realtime");
    const token = await unityToken(studio.apiKey, "unity-live");
    const topic = async (query: string) =>
      (await wire("GET", `/api/v1/auth/${query}`, unityHeaders(token))).json.topic as string;
    const challengesTopic = await topic("user-challenges-topic-link");
    const passTopic = await topic(`user-battle-pass-topic-link?battle_pass_id=${studio.passId}`);
    const boardTopic = await topic(`leaderboard-topic-link?leaderboard_id=${studio.boardId}`);

    // NativeWebSocket offers no subprotocol (ScillMqtt.cs:48); CONNECT: empty ClientId (ScillMqttPacketConnect.cs:27),
    // keep-alive 300, clean (ScillMqtt.cs:103-106).
    const mqtt = await WireMqtt.open([]);
    sockets.push(mqtt);
    mqtt.send(connectPacket("", 300));
    expect((await mqtt.next(PACKET.CONNACK)).bytes).toEqual(Buffer.from([0x20, 0x02, 0x00, 0x00]));
    [challengesTopic, passTopic, boardTopic].forEach((t, i) => {
      mqtt.send(subscribePacket(i + 1, t));
    });
    for (let i = 0; i < 3; i++) await mqtt.next(PACKET.SUBACK);

    await wire("POST", `/api/v1/battle-passes/${studio.appId}/unlock/${studio.passId}`, unityHeaders(token), "");
    await wire(
      "POST",
      `/api/v1/challenges/personal/unlock/${studio.appId}/${studio.challengeId}`,
      unityHeaders(token),
      "",
    );
    await sendEvent(token, { event_name: "kill-enemy", meta_data: { amount: 1 } });
    await sendEvent(token, { event_name: "achieve-score", meta_data: { score: 77 } });

    const on = (t: string) =>
      eventually(async () => mqtt.frames.find((f) => f.topic === t), 15_000, `a message on ${t}`);
    // ChallengeWebhookPayload (ScillMqtt.cs:212-214): category_position indexes the list the game holds.
    expect(JSON.parse((await on(challengesTopic)).payload!)).toMatchObject({
      webhook_type: "challenge-changed",
      category_position: 1,
    });
    // Battle-pass messages must carry webhook_type, read before deserializing (ScillMqtt.cs:176-186).
    expect(JSON.parse((await on(passTopic)).payload!)).toMatchObject({ webhook_type: "battlepass-challenge-changed" });
    // LeaderboardUpdatePayload whatever its type (ScillMqtt.cs:159-169; Model/LeaderboardUpdatePayload.cs:53-77).
    const board = JSON.parse((await on(boardTopic)).payload!);
    expect(board).toMatchObject({
      webhook_type: "leaderboard-ranking-changed",
      leaderboard_data: { leaderboard_id: studio.boardId },
      member_data: { member_id: "unity-live", score: 77, rank: 1 },
      old_leaderboard_ranking: { rank: -1 },
      new_leaderboard_ranking: { score: 77, rank: 1 },
    });
    expect(mqtt.frames.every((f) => f.qos === undefined || f.qos === 0)).toBe(true);
  });
});
