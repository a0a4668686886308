import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { startBridge } from "../../scripts/mqtt-bridge.mjs";
import { baseUrl } from "./support";
import { sdkStudio } from "./sdk-studio";
import { connectPacket, PACKET, subscribePacket, wire, WireMqtt } from "./sdk-wire";

/**
 * Contract of SCILL's C# SDK (scillgame/scill-csharp 9afd052, src/SCILL), RestSharp 105 and
 * MQTTnet 3: what its generated APIs send (sdk-clients.md) and what its monitors read. A program
 * points the generated APIs at this service with `new Configuration { BasePath }`; the
 * SCILLClient/SCILLBackend wrappers hard-code SCILL's hosts (SCILLClient.cs:73-77).
 */

/**
 * RestSharp adds a JSON body with Content-Type application/json and sends none without a body (ApiClient.cs:139-142).
 */
const json = (credential: string) => ({ Authorization: `Bearer ${credential}`, "Content-Type": "application/json" });
const bare = (credential: string) => ({ Authorization: `Bearer ${credential}` });

const open: { end(): Promise<unknown> }[] = [];
const sockets: WireMqtt[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => {
    s.close();
  });
  await Promise.all(open.splice(0).map((c) => c.end()));
});

const within = <T>(promise: Promise<T>, ms = 15_000) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms)),
  ]);

/** SCILLBackend.GenerateAccessToken: AuthApi.cs:407-452. */
async function csharpToken(apiKey: string, userId: string) {
  const r = await wire("POST", "/api/v1/auth/access-token", json(apiKey), JSON.stringify({ user_id: userId }));
  expect(r.status).toBe(200);
  return r.json.token as string;
}

describe("SCILL's C# SDK against the service", () => {
  it("backend events with auth=api_key, client events with auth=access_token (SCILLBackend.cs:39-41, SCILLClient.cs:83; EventsApi.cs:362-412)", async () => {
    const studio = await sdkStudio("C# events");
    const token = await csharpToken(studio.apiKey, "cs-player");
    const personal = "/api/v1/challenges/personal";
    // Unlock POST and activate PUT without a body or Content-Type (ChallengesApi.cs:2181, 666-705).
    expect(
      (await wire("POST", `${personal}/unlock/${studio.appId}/${studio.challengeId}`, bare(token))).json,
    ).toMatchObject({ status: 200 });
    expect(
      (await wire("PUT", `${personal}/activate/${studio.appId}/${studio.challengeId}`, bare(token))).json,
    ).toMatchObject({ challenge: { type: "in-progress" } });
    const backend = await wire(
      "POST",
      "/api/v1/events?auth=api_key",
      json(studio.apiKey),
      JSON.stringify({
        user_id: "cs-player",
        session_id: "s1",
        event_name: "kill-enemy",
        event_type: "single",
        meta_data: { amount: 1 },
      }),
    );
    const client = await wire(
      "POST",
      "/api/v1/events?auth=access_token",
      json(token),
      JSON.stringify({ session_id: "s1", event_name: "kill-enemy", event_type: "single", meta_data: { amount: 1 } }),
    );
    expect([backend.json, client.json]).toEqual([
      { status: 200, message: "OK" },
      { status: 200, message: "OK" },
    ]);
    // GetPersonalChallengeById: GET without Content-Type (ChallengesApi.cs, personal/get/{appId}/{challengeId}).
    expect(
      (await wire("GET", `${personal}/get/${studio.appId}/${studio.challengeId}`, bare(token))).json,
    ).toMatchObject({ user_challenge_current_score: 2 });
  });

  it("unlocks a battle pass with no body, and with a purchase, reading BattlePassUnlockInfo (BattlePassesApi.cs:1946-1994)", async () => {
    const studio = await sdkStudio("C# passes");
    const token = await csharpToken(studio.apiKey, "cs-buyer");
    const path = `/api/v1/battle-passes/${studio.appId}/unlock/${studio.passId}`;
    const none = await wire("POST", path, bare(token));
    expect(none.json).toMatchObject({ battle_pass_id: studio.passId, user_id: "cs-buyer", purchase_price: 0 });
    expect(none.json.purchase_id).toMatch(/^\d+$/);
    const paid = await wire(
      "POST",
      path,
      json(token),
      JSON.stringify({ purchase_price: 4.99, purchase_currency: "EUR" }),
    );
    expect(paid.json.purchase_id).toBe(none.json.purchase_id);
  });

  it("monitors challenges over MQTT on WebSocket and battle passes over TCP (SCILLClient.cs:145-178, 192-226)", async () => {
    const studio = await sdkStudio("C# realtime");
    const token = await csharpToken(studio.apiKey, "cs-live");
    const topic = async (query: string) =>
      (await wire("GET", `/api/v1/auth/${query}`, bare(token))).json.topic as string;

    // Challenges: WithWebSocketServer(".../mqtt"); MQTTnet 3 offers the subprotocols mqtt, mqttv3.1, mqttv3 and a GUID
    // client id.
    const ws = await WireMqtt.open(["mqtt", "mqttv3.1", "mqttv3"]);
    sockets.push(ws);
    expect(ws.protocol).toBe("mqtt");
    ws.send(connectPacket(crypto.randomUUID().replace(/-/g, ""), 15));
    await ws.next(PACKET.CONNACK);
    const challengesTopic = await topic("user-challenges-topic-link");
    ws.send(subscribePacket(1, challengesTopic));
    await ws.next(PACKET.SUBACK);

    // Battle passes: WithTcpServer(host, 1883): locally the TCP bridge (npm run mqtt:bridge), with a native client.
    const bridge = await startBridge({ port: 0, url: `${baseUrl().replace(/^http/, "ws")}/mqtt` });
    open.push({ end: () => bridge.close() });
    const tcp = await mqtt.connectAsync(`mqtt://127.0.0.1:${bridge.port}`, {
      protocolVersion: 4,
      clientId: crypto.randomUUID().replace(/-/g, ""),
      keepalive: 15,
      clean: true,
      reconnectPeriod: 0,
    });
    open.push({ end: () => tcp.endAsync(true) });
    const passTopic = await topic(`user-battle-pass-topic-link?battle_pass_id=${studio.passId}`);
    await tcp.subscribeAsync(passTopic, { qos: 0 });
    const passMessage = new Promise<{ topic: string; payload: any }>((resolve) =>
      tcp.once("message", (t, payload) => resolve({ topic: t, payload: JSON.parse(payload.toString("utf8")) })),
    );

    await wire("POST", `/api/v1/battle-passes/${studio.appId}/unlock/${studio.passId}`, bare(token));
    await wire("POST", `/api/v1/challenges/personal/unlock/${studio.appId}/${studio.challengeId}`, bare(token));
    await wire(
      "POST",
      "/api/v1/events?auth=access_token",
      json(token),
      JSON.stringify({ event_name: "kill-enemy", meta_data: { amount: 1 } }),
    );

    // ChallengeWebhookPayload and BattlePassChallengeChangedPayload, deserialized as they come (SCILLClient.cs:161-169,
    // 209-217).
    const challenge = await ws.next(PACKET.PUBLISH);
    expect({ topic: challenge.topic, payload: JSON.parse(challenge.payload!) }).toMatchObject({
      topic: challengesTopic,
      payload: { webhook_type: "challenge-changed", new_challenge: { type: "unlocked", user_id: "cs-live" } },
    });
    expect(await within(passMessage)).toMatchObject({
      topic: passTopic,
      payload: { webhook_type: "battlepass-challenge-changed" },
    });
  });
});
