import { describe, expect, it } from "vitest";
import { deliveryTargets, type EndpointRef } from "../../../src/webhooks/core/targets";
import { canonicalWebhookType } from "../../../src/webhooks/core/webhook-types";
import { isDeliveryMessage } from "../../../src/webhooks/messages";

const endpoints: EndpointRef[] = [
  { webhookId: "12", webhookType: "challenge-changed", enabled: true },
  { webhookId: "3", webhookType: "battlepass-level-reward-claimed", enabled: false },
  { webhookId: "7", webhookType: "battlepass-level-reward-claimed", enabled: true },
  { webhookId: "9", webhookType: "challenge-changed", enabled: false },
  { webhookId: "15", webhookType: "challenge-changed", enabled: true },
];

describe("delivery targets", () => {
  it("are the enabled endpoints of the change's type", () => {
    expect(deliveryTargets(endpoints, "challenge-changed")).toEqual([
      { webhookId: "12", overrideUrl: null },
      { webhookId: "15", overrideUrl: null },
    ]);
  });

  it("are none when the app has no endpoint for the type", () => {
    expect(deliveryTargets(endpoints, "battlepass-expired")).toEqual([]);
    expect(deliveryTargets(endpoints, "battlepass-expired", "https://level.example/reward")).toEqual([]);
  });

  it("are the per-level URL alone, signed by the first endpoint of the type", () => {
    expect(deliveryTargets(endpoints, "battlepass-level-reward-claimed", "https://level.example/reward")).toEqual([
      { webhookId: "3", overrideUrl: "https://level.example/reward" },
    ]);
    expect(deliveryTargets(endpoints, "battlepass-level-reward-claimed", null)).toEqual([
      { webhookId: "7", overrideUrl: null },
    ]);
  });
});

describe("webhook types", () => {
  it("store the spec's spelling for the leaderboard alias", () => {
    expect(canonicalWebhookType("leaderboard-updated")).toBe("leaderoard-updated");
    expect(canonicalWebhookType("leaderoard-updated")).toBe("leaderoard-updated");
    expect(canonicalWebhookType("challenge-changed")).toBe("challenge-changed");
  });
});

describe("queue message shape", () => {
  const valid = {
    messageId: "msg_1",
    appId: "1",
    webhookId: "2",
    webhookType: "challenge-changed",
    overrideUrl: null,
    body: "{}",
    createdAt: 0,
  };
  it("accepts what enqueue sends and refuses anything else", () => {
    expect(isDeliveryMessage(valid)).toBe(true);
    expect(isDeliveryMessage({ ...valid, overrideUrl: "https://a.example/x" })).toBe(true);
    expect(isDeliveryMessage({ ...valid, webhookId: "abc" })).toBe(false);
    expect(isDeliveryMessage({ ...valid, webhookType: "leaderboard-updated" })).toBe(false);
    expect(isDeliveryMessage({ ...valid, body: {} })).toBe(false);
    expect(isDeliveryMessage(null)).toBe(false);
    expect(isDeliveryMessage("msg")).toBe(false);
  });
});
