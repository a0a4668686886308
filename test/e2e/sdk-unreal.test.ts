import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "./support";
import { sdkStudio } from "./sdk-studio";
import { connectPacket, PACKET, subscribePacket, wire, WireMqtt } from "./sdk-wire";

/**
 * Contract of SCILL's Unreal SDK (scillgame/scill-unreal aab925a, Source/ScillSDK/Private/...),
 * replayed byte for byte: what it sends (sdk-clients.md, "Content-Type of requests",
 * "Credentials", "MQTT") and what it reads back. Only the host differs: the plugin hard-codes
 * SCILL's (ScillClient.cpp:780-796), which a game changes to this service's.
 */

const JSON_UTF8 = "application/json; charset=utf-8";
/** Unreal's TJsonWriter<> pretty-prints with tabs (ScillApiHelpers.h:27, TPrettyJsonPrintPolicy). */
const pretty = (value: Record<string, unknown>) =>
  `{\n${Object.entries(value)
    .map(([k, v]) => `\t"${k}": ${JSON.stringify(v)}`)
    .join(",\n")}\n}`;
const bearer = (credential: string) => ({ Authorization: `Bearer ${credential}` });

const sockets: WireMqtt[] = [];
afterEach(() =>
  sockets.splice(0).forEach((s) => {
    s.close();
  }),
);

/** ScillClientBackend::GenerateAccessToken: AuthApiOperations.cpp:28-49, ScillClientBackend.cpp:14. */
async function unrealToken(apiKey: string, userId: string): Promise<string> {
  const r = await wire(
    "POST",
    "/api/v1/auth/access-token",
    { ...bearer(apiKey), "Content-Type": JSON_UTF8 },
    pretty({ user_id: userId }),
  );
  expect(r.status).toBe(200);
  return r.json.token;
}

/**
 * UScillClient::SendEvent (ScillClient.cpp:674-686): no `auth` (EventsApiOperations.cpp:74-78), user_id always written
 * (ScillStructs.cpp:677-686).
 */
const sendEvent = (token: string, payload: Record<string, unknown>) =>
  wire(
    "POST",
    "/api/v1/events",
    { ...bearer(token), "Content-Type": JSON_UTF8 },
    pretty({ user_id: "", session_id: "level-1", event_type: "single", ...payload }),
  );

describe("SCILL's Unreal SDK against the service", () => {
  it("a game client sends events with its access token and no auth, and they count (EventsApiOperations.cpp:76-97)", async () => {
    const studio = await sdkStudio("Unreal events");
    const token = await unrealToken(studio.apiKey, "ue-player");
    const personal = `/api/v1/challenges/personal`;
    // Activate and unlock: PUT/POST without a body or Content-Type (ChallengesApiOperations.cpp:44-52, 683-691); paths
    // end in "?" (:39, :678).
    expect(
      (await wire("POST", `${personal}/unlock/${studio.appId}/${studio.challengeId}?`, bearer(token))).json,
    ).toMatchObject({ status: 200, challenge: { type: "unlocked" } });
    expect(
      (await wire("PUT", `${personal}/activate/${studio.appId}/${studio.challengeId}?`, bearer(token))).json,
    ).toMatchObject({ status: 200, challenge: { type: "in-progress" } });

    for (const userId of ["", "ue-player"]) {
      const r = await sendEvent(token, { user_id: userId, event_name: "kill-enemy", meta_data: { amount: 1 } });
      expect({ status: r.status, body: r.json }).toEqual({ status: 200, body: { status: 200, message: "OK" } });
    }
    // GetPersonalChallenges: GET .../get/{appId}? with no query (ChallengesApiOperations.cpp:469-498); the SDK reads
    // categories[].challenges[].
    const listed = await wire("GET", `${personal}/get/${studio.appId}?`, bearer(token));
    expect(listed.json[0].challenges.map((c: any) => [c.challenge_id, c.type, c.user_challenge_current_score])).toEqual(
      [[studio.challengeId, "in-progress", 2]],
    );
  });

  it("unlocks a battle pass with an empty body sent as application/json; charset=utf-8 (BattlePassesApiOperations.cpp:539-574)", async () => {
    const studio = await sdkStudio("Unreal passes");
    const token = await unrealToken(studio.apiKey, "ue-buyer");
    const path = `/api/v1/battle-passes/${studio.appId}/unlock/${studio.passId}?`;
    const empty = await wire("POST", path, { ...bearer(token), "Content-Type": JSON_UTF8 }, "");
    expect(empty.status).toBe(200);
    // BattlePassUnlockInfo, as ScillApiBattlePassUnlockInfo.cpp reads it.
    expect(empty.json).toMatchObject({
      battle_pass_id: studio.passId,
      user_id: "ue-buyer",
      purchase_price: 0,
      battle_pass_completed: false,
    });
    expect(empty.json.purchase_id).toMatch(/^\d+$/);
    // UScillClient::UnlockBattlePass always writes the purchase (ScillClient.cpp:214-225).
    const withPayload = await wire(
      "POST",
      path,
      { ...bearer(token), "Content-Type": JSON_UTF8 },
      pretty({ purchase_price: 0, purchase_currency: "EUR" }),
    );
    expect(withPayload.json.purchase_id).toBe(empty.json.purchase_id);
  });

  it("receives challenge and leaderboard changes over MQTT as ScillMqtt.cpp reads them", async () => {
    const studio = await sdkStudio("Unreal realtime");
    const token = await unrealToken(studio.apiKey, "ue-live");
    const topic = async (query: string) =>
      (await wire("GET", `/api/v1/auth/${query}`, bearer(token))).json.topic as string;
    const challengesTopic = await topic("user-challenges-topic-link");
    const boardTopic = await topic(`leaderboard-topic-link?leaderboard_id=${studio.boardId}`);

    // ScillMqtt.cpp:16: subprotocol "mqtt"; :203-208 CONNECT 3.1.1, empty client id, keep-alive 300, clean, no
    // credentials.
    const mqtt = await WireMqtt.open(["mqtt"]);
    sockets.push(mqtt);
    expect(mqtt.protocol).toBe("mqtt");
    mqtt.send(connectPacket("", 300));
    expect((await mqtt.next(PACKET.CONNACK)).bytes).toEqual(Buffer.from([0x20, 0x02, 0x00, 0x00]));
    // SubscribeToTopic at QoS 0, one topic per SUBSCRIBE (ScillMqtt.cpp:150-166).
    mqtt.send(subscribePacket(1, challengesTopic));
    mqtt.send(subscribePacket(2, boardTopic));
    expect((await mqtt.next(PACKET.SUBACK)).bytes).toEqual(Buffer.from([0x90, 0x03, 0x00, 0x01, 0x00]));
    expect((await mqtt.next(PACKET.SUBACK)).bytes).toEqual(Buffer.from([0x90, 0x03, 0x00, 0x02, 0x00]));

    await wire("POST", `/api/v1/challenges/personal/unlock/${studio.appId}/${studio.challengeId}?`, bearer(token));
    // callbacksChallengeChanges: any message on the topic is a ChallengeWebhookPayload (ScillMqtt.cpp:104-112).
    const challengeMessage = await mqtt.next(PACKET.PUBLISH);
    expect(challengeMessage).toMatchObject({ topic: challengesTopic, qos: 0 });
    expect(JSON.parse(challengeMessage.payload!)).toMatchObject({
      webhook_type: "challenge-changed",
      category_position: 0,
      new_challenge: { challenge_id: studio.challengeId, type: "unlocked", user_id: "ue-live" },
    });

    expect((await sendEvent(token, { event_name: "achieve-score", meta_data: { score: 420 } })).status).toBe(200);
    // callbacksLeaderboardChanges dispatches only `leaderboard-ranking-changed` (or `leaderboard-changed`):
    // ScillMqtt.cpp:113-137.
    const boardMessage = await eventually(
      async () => mqtt.frames.find((f) => f.topic === boardTopic),
      15_000,
      "a leaderboard message",
    );
    const payload = JSON.parse(boardMessage.payload!);
    expect(payload.webhook_type).toBe("leaderboard-ranking-changed");
    // ScillApiLeaderboardV2UpdatePayload fields.
    expect(payload).toMatchObject({
      leaderboard_data: { leaderboard_id: studio.boardId },
      member_data: { member_id: "ue-live", member_type: "user", score: 420, rank: 1 },
      old_leaderboard_ranking: { score: 0, rank: -1 },
      new_leaderboard_ranking: { score: 420, rank: 1 },
    });
  });
});
