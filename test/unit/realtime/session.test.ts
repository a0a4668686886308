import { describe, expect, it } from "vitest";
import {
  CloseCode,
  handlePacket,
  keepAliveDeadline,
  keepAliveExpired,
  LIMITS,
  newSession,
  protocolFailure,
  takePacketId,
  takenOver,
  type PacketDeps,
  type SessionState,
} from "../../../src/realtime/core/session";
import { MqttError, Reason } from "../../../src/realtime/mqtt/errors";
import type { ConnectPacket, ProtocolVersion } from "../../../src/realtime/mqtt/packets";

const ISSUED = new Set(["gamification/challenges/issued-1", "gamification/leaderboard/issued-2"]);
const NOW = 1_700_000_000_000;

const deps = (overrides: Partial<PacketDeps> = {}): PacketDeps => ({
  now: NOW,
  verifyToken: async (token) => token === "good-token",
  maySubscribe: async (topic) => ISSUED.has(topic),
  newClientId: () => "auto-1",
  ...overrides,
});

const connectPacket = (v: ProtocolVersion, extra: Partial<ConnectPacket> = {}): ConnectPacket => ({
  type: "connect",
  protocolVersion: v,
  clean: true,
  keepAlive: 30,
  clientId: "client-a",
  ...extra,
});

async function connected(v: ProtocolVersion, extra: Partial<ConnectPacket> = {}): Promise<SessionState> {
  const session = newSession("conn-1", NOW - 1000);
  const outcome = await handlePacket(session, connectPacket(v, extra), deps());
  expect(outcome.close).toBeUndefined();
  return session;
}

describe("CONNECT", () => {
  it("accepts an anonymous 3.1.1 client", async () => {
    const session = newSession("conn-1", NOW - 5000);
    const outcome = await handlePacket(session, connectPacket(4), deps());
    expect(outcome).toEqual({
      send: [{ type: "connack", sessionPresent: false, reasonCode: 0 }],
      clientIdTaken: "client-a",
    });
    expect(session).toMatchObject({
      phase: "connected",
      version: 4,
      clientId: "client-a",
      keepAlive: 30,
      lastSeen: NOW,
      window: LIMITS.maxInflight,
    });
  });

  it("tells an MQTT 5 client the broker's limits and assigns an id to an empty one", async () => {
    const session = newSession("conn-1", NOW);
    const outcome = await handlePacket(
      session,
      connectPacket(5, {
        clientId: "",
        clean: false,
        properties: { sessionExpiryInterval: 3600, receiveMaximum: 4, maximumPacketSize: 2000 },
      }),
      deps(),
    );
    expect(outcome.send).toEqual([
      {
        type: "connack",
        sessionPresent: false,
        reasonCode: 0,
        properties: {
          maximumQoS: 1,
          retainAvailable: 0,
          maximumPacketSize: LIMITS.maxIncomingPacket,
          sessionExpiryInterval: 0,
          assignedClientIdentifier: "auto-1",
        },
      },
    ]);
    expect(session).toMatchObject({ clientId: "auto-1", window: 4, maxPacketSize: 2000 });
  });

  it("accepts a valid access token as password and refuses an invalid one", async () => {
    const ok = await handlePacket(
      newSession("c", NOW),
      connectPacket(4, { username: "x", password: new TextEncoder().encode("good-token") }),
      deps(),
    );
    expect(ok.send).toEqual([{ type: "connack", sessionPresent: false, reasonCode: 0 }]);

    const v4 = await handlePacket(
      newSession("c", NOW),
      connectPacket(4, { username: "x", password: new TextEncoder().encode("bad") }),
      deps(),
    );
    expect(v4).toEqual({
      send: [{ type: "connack", sessionPresent: false, reasonCode: 0x04 }],
      close: { reason: Reason.BadUserNameOrPassword, message: "invalid access token", code: CloseCode.PolicyViolation },
    });

    const session = newSession("c", NOW);
    const v5 = await handlePacket(session, connectPacket(5, { password: new TextEncoder().encode("bad") }), deps());
    expect(v5.send).toEqual([
      {
        type: "connack",
        sessionPresent: false,
        reasonCode: 0x86,
        properties: { reasonString: "invalid access token" },
      },
    ]);
    expect(session.phase).toBe("awaiting-connect");
  });

  it("refuses wills, enhanced authentication and unusable client ids", async () => {
    const will = { topic: "w", payload: new Uint8Array(), qos: 0 as const, retain: false };
    expect((await handlePacket(newSession("c", NOW), connectPacket(4, { will }), deps())).send).toEqual([
      { type: "connack", sessionPresent: false, reasonCode: 0x05 },
    ]);
    expect((await handlePacket(newSession("c", NOW), connectPacket(5, { will }), deps())).send[0]).toMatchObject({
      reasonCode: Reason.NotAuthorized,
    });
    expect(
      (
        await handlePacket(
          newSession("c", NOW),
          connectPacket(5, { properties: { authenticationMethod: "SCRAM" } }),
          deps(),
        )
      ).send[0],
    ).toMatchObject({ reasonCode: Reason.BadAuthenticationMethod });
    expect(
      (await handlePacket(newSession("c", NOW), connectPacket(4, { clientId: "", clean: false }), deps())).send,
    ).toEqual([{ type: "connack", sessionPresent: false, reasonCode: 0x02 }]);
    expect(
      (
        await handlePacket(
          newSession("c", NOW),
          connectPacket(5, { clientId: "x".repeat(LIMITS.maxClientIdLength + 1) }),
          deps(),
        )
      ).send[0],
    ).toMatchObject({ reasonCode: Reason.ClientIdentifierNotValid });
  });
});

describe("SUBSCRIBE and UNSUBSCRIBE", () => {
  it("grants issued topics at QoS 0 or 1 and refuses others with 0x80 in 3.1.1", async () => {
    const session = await connected(4);
    const outcome = await handlePacket(
      session,
      {
        type: "subscribe",
        packetId: 3,
        subscriptions: [
          { topicFilter: "gamification/challenges/issued-1", qos: 2 },
          { topicFilter: "gamification/challenges/#", qos: 0 },
          { topicFilter: "gamification/leaderboard/issued-2", qos: 0 },
          { topicFilter: "gamification/challenges/made-up", qos: 1 },
        ],
      },
      deps(),
    );
    expect(outcome).toEqual({
      send: [{ type: "suback", packetId: 3, reasonCodes: [1, 0x80, 0, 0x80] }],
      resubscribed: true,
    });
    expect(session.subs).toEqual([
      { topic: "gamification/challenges/issued-1", qos: 1 },
      { topic: "gamification/leaderboard/issued-2", qos: 0 },
    ]);
  });

  it("refuses with 0x87 in MQTT 5, keeps subscription identifiers and replaces a repeated subscription", async () => {
    const session = await connected(5);
    await handlePacket(
      session,
      { type: "subscribe", packetId: 1, subscriptions: [{ topicFilter: "gamification/challenges/issued-1", qos: 1 }] },
      deps(),
    );
    const outcome = await handlePacket(
      session,
      {
        type: "subscribe",
        packetId: 2,
        properties: { subscriptionIdentifiers: [12] },
        subscriptions: [
          { topicFilter: "gamification/challenges/issued-1", qos: 0 },
          { topicFilter: "+/+", qos: 0 },
        ],
      },
      deps(),
    );
    expect(outcome.send).toEqual([{ type: "suback", packetId: 2, reasonCodes: [0, 0x87] }]);
    expect(session.subs).toEqual([{ topic: "gamification/challenges/issued-1", qos: 0, id: 12 }]);
  });

  it("limits the subscriptions of one connection", async () => {
    const many = Array.from({ length: LIMITS.maxSubscriptions + 1 }, (_, i) => `gamification/challenges/t${i}`);
    const session = await connected(5);
    const outcome = await handlePacket(
      session,
      { type: "subscribe", packetId: 1, subscriptions: many.map((topicFilter) => ({ topicFilter, qos: 0 as const })) },
      deps({ maySubscribe: async () => true }),
    );
    expect(outcome.send[0]).toMatchObject({
      reasonCodes: [...Array(LIMITS.maxSubscriptions).fill(0), Reason.QuotaExceeded],
    });
  });

  it("answers UNSUBSCRIBE per filter in MQTT 5 and without codes in 3.1.1", async () => {
    for (const v of [4, 5] as const) {
      const session = await connected(v);
      await handlePacket(
        session,
        {
          type: "subscribe",
          packetId: 1,
          subscriptions: [{ topicFilter: "gamification/challenges/issued-1", qos: 1 }],
        },
        deps(),
      );
      const outcome = await handlePacket(
        session,
        { type: "unsubscribe", packetId: 2, topicFilters: ["gamification/challenges/issued-1", "other"] },
        deps(),
      );
      expect(outcome).toEqual({
        send: [v === 5 ? { type: "unsuback", packetId: 2, reasonCodes: [0, 0x11] } : { type: "unsuback", packetId: 2 }],
        resubscribed: true,
      });
      expect(session.subs).toEqual([]);
    }
  });
});

describe("other packets", () => {
  it("answers PINGREQ and records the time", async () => {
    const session = await connected(4);
    session.lastSeen = 0;
    expect(await handlePacket(session, { type: "pingreq" }, deps())).toEqual({ send: [{ type: "pingresp" }] });
    expect(session.lastSeen).toBe(NOW);
  });

  it("closes on DISCONNECT without answering", async () => {
    expect(await handlePacket(await connected(5), { type: "disconnect" }, deps())).toEqual({
      send: [],
      close: { reason: 0, message: "client disconnected", code: CloseCode.Normal },
    });
  });

  it("closes a publishing client, telling an MQTT 5 one why", async () => {
    const publish = {
      type: "publish" as const,
      topic: "gamification/challenges/issued-1",
      payload: new Uint8Array(),
      qos: 0 as const,
      retain: false,
      dup: false,
    };
    expect(await handlePacket(await connected(4), publish, deps())).toEqual({
      send: [],
      close: { reason: Reason.NotAuthorized, message: "clients may not publish", code: CloseCode.PolicyViolation },
    });
    expect((await handlePacket(await connected(5), publish, deps())).send).toEqual([
      { type: "disconnect", reasonCode: Reason.NotAuthorized, properties: { reasonString: "clients may not publish" } },
    ]);
  });

  it("closes on packets only a server sends, or that answer QoS 2", async () => {
    for (const packet of [
      { type: "pubrel" as const, packetId: 1 },
      { type: "connack" as const, sessionPresent: false, reasonCode: 0 },
      { type: "auth" as const },
    ]) {
      expect((await handlePacket(await connected(5), packet, deps())).close).toMatchObject({
        reason: Reason.ProtocolError,
        code: CloseCode.ProtocolError,
      });
    }
  });
});

describe("QoS 1 window", () => {
  it("hands out ids up to the window, frees them on PUBACK and skips ids in flight", async () => {
    const session = await connected(5, { properties: { receiveMaximum: 2 } });
    expect(takePacketId(session)).toBe(1);
    expect(takePacketId(session)).toBe(2);
    expect(takePacketId(session)).toBeNull();
    expect(await handlePacket(session, { type: "puback", packetId: 1 }, deps())).toEqual({
      send: [],
      windowFreed: true,
    });
    expect(await handlePacket(session, { type: "puback", packetId: 99 }, deps())).toEqual({ send: [] });
    session.nextPacketId = 2;
    expect(takePacketId(session)).toBe(3);
    expect(session.inflight).toEqual([2, 3]);
  });

  it("wraps from 65535 to 1", async () => {
    const session = await connected(4);
    session.nextPacketId = 65535;
    expect(takePacketId(session)).toBe(65535);
    expect(takePacketId(session)).toBe(1);
  });
});

describe("keep-alive and endings", () => {
  it("allows one and a half keep-alives of silence, and a bounded wait for CONNECT", async () => {
    expect(keepAliveDeadline(newSession("c", NOW))).toBe(NOW + LIMITS.connectTimeoutMs);
    const session = await connected(4, { keepAlive: 10 });
    expect(keepAliveDeadline(session)).toBe(NOW + 15_000);
    session.keepAlive = 0;
    expect(keepAliveDeadline(session)).toBeNull();
  });

  it("tells MQTT 5 clients why they are dropped", async () => {
    expect(keepAliveExpired(await connected(5)).send).toEqual([
      { type: "disconnect", reasonCode: Reason.KeepAliveTimeout, properties: { reasonString: "keep-alive timeout" } },
    ]);
    expect(keepAliveExpired(await connected(4)).send).toEqual([]);
    expect(keepAliveExpired(newSession("c", NOW)).close).toMatchObject({ reason: Reason.KeepAliveTimeout });
    expect(takenOver(await connected(5)).send[0]).toMatchObject({ reasonCode: Reason.SessionTakenOver });
  });

  it("closes a socket that never sent CONNECT saying so, not as a keep-alive timeout", async () => {
    expect(keepAliveExpired(newSession("c", NOW))).toEqual({
      send: [],
      close: { reason: Reason.KeepAliveTimeout, message: "no CONNECT within 10 s", code: 1000 },
    });
    expect(keepAliveExpired(await connected(4)).close).toMatchObject({ message: "keep-alive timeout" });
  });

  it("answers an unsupported protocol level with the 3.1.1 CONNACK code 1", () => {
    expect(
      protocolFailure(
        newSession("c", NOW),
        new MqttError(Reason.UnsupportedProtocolVersion, "Unsupported protocol level 3"),
      ).send,
    ).toEqual([{ type: "connack", sessionPresent: false, reasonCode: 1 }]);
  });

  it("closes on a malformed packet, with DISCONNECT 0x81 for MQTT 5", async () => {
    const outcome = protocolFailure(
      await connected(5),
      new MqttError(Reason.MalformedPacket, "Truncated topic filter"),
    );
    expect(outcome).toEqual({
      send: [
        {
          type: "disconnect",
          reasonCode: Reason.MalformedPacket,
          properties: { reasonString: "Truncated topic filter" },
        },
      ],
      close: { reason: Reason.MalformedPacket, message: "Truncated topic filter", code: CloseCode.ProtocolError },
    });
    expect(protocolFailure(await connected(4), new MqttError(Reason.PacketTooLarge, "too big")).close?.code).toBe(
      CloseCode.TooBig,
    );
  });
});
