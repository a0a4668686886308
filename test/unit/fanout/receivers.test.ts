import { describe, expect, it } from "vitest";
import { hasReceiver } from "../../../src/fanout/receivers";
import type { Change, WebhookType } from "../../../src/changes/types";
import type { EndpointRef } from "../../../src/webhooks/core/targets";

const change = (webhookType: WebhookType, extra: Partial<Change> = {}): Change => ({
  appId: "1",
  webhookType,
  payload: { webhook_type: webhookType },
  topic: { kind: "user-challenges", appId: "1", userId: "ann" },
  userId: "ann",
  ...extra,
});

const endpoints: EndpointRef[] = [
  { webhookId: "4", webhookType: "challenge-changed", enabled: true },
  { webhookId: "5", webhookType: "battlepass-challenge-changed", enabled: false },
  { webhookId: "6", webhookType: "battlepass-level-reward-claimed", enabled: false },
];

describe("whether a change has a receiver", () => {
  it("is false when the app has no endpoint for its type and nobody watches the user", () => {
    expect(hasReceiver(change("challenge-changed"), [], false)).toBe(false);
    expect(hasReceiver(change("battlepass-expired"), endpoints, false)).toBe(false);
  });

  it("is true for an enabled endpoint of its type, false when the only one is disabled", () => {
    expect(hasReceiver(change("challenge-changed"), endpoints, false)).toBe(true);
    expect(hasReceiver(change("battlepass-challenge-changed"), endpoints, false)).toBe(false);
  });

  it("is true for a per-level URL only while an endpoint of its type can sign it", () => {
    const reward = (url: string) => change("battlepass-level-reward-claimed", { webhookUrl: url });
    expect(hasReceiver(reward("https://level.example/reward"), endpoints, false)).toBe(true);
    expect(hasReceiver(reward("https://level.example/reward"), [], false)).toBe(false);
  });

  it("is true when the user has an MQTT subscriber and the change has a topic", () => {
    expect(hasReceiver(change("challenge-changed"), [], true)).toBe(true);
    expect(hasReceiver(change("battlepass-expired", { topic: null }), [], true)).toBe(false);
  });
});
