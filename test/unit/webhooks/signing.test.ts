import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { newWebhookSecret, secretProblem, signingKey, webhookSignature } from "../../../src/webhooks/core/signing";

const body = JSON.stringify({
  webhook_type: "challenge-changed",
  user_token: "t",
  new_challenge: { challenge_id: "1" },
});
const id = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";

describe("Standard Webhooks signature", () => {
  it("verifies with the standardwebhooks library for a whsec_ secret", async () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await webhookSignature(secret, id, timestamp, body);
    const headers = { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("verifies with the library's raw format for any other secret", async () => {
    const secret = "my-shared-secret";
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await webhookSignature(secret, id, timestamp, body);
    const headers = { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
    expect(new Webhook(secret, { format: "raw" }).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(`whsec_${btoa("another-secret-of-24-bytes")}`).verify(body, headers)).toThrow(
      "No matching signature",
    );
  });

  it("matches the standard's published test vector", async () => {
    // From the Standard Webhooks reference implementations' tests.
    const signature = await webhookSignature(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("is bound to the id, the timestamp and the body", async () => {
    const secret = "my-shared-secret";
    const base = await webhookSignature(secret, id, 1700000000, body);
    expect(await webhookSignature(secret, "msg_other", 1700000000, body)).not.toBe(base);
    expect(await webhookSignature(secret, id, 1700000001, body)).not.toBe(base);
    expect(await webhookSignature(secret, id, 1700000000, `${body} `)).not.toBe(base);
  });
});

describe("secrets", () => {
  it("generates secrets in the standard's form", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(secretProblem(secret)).toBeNull();
    expect(signingKey(secret)).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("accepts printable ASCII of 8 to 256 characters", () => {
    expect(secretProblem("12345678")).toBeNull();
    expect(secretProblem("x".repeat(256))).toBeNull();
    expect(secretProblem("1234567")).toMatch(/8 to 256/);
    expect(secretProblem("x".repeat(257))).toMatch(/8 to 256/);
    expect(secretProblem("has a space")).toMatch(/printable ASCII/);
    expect(secretProblem("geheimnisß123")).toMatch(/printable ASCII/);
  });

  it("requires valid base64 of 24 to 64 bytes after whsec_", () => {
    expect(secretProblem("whsec_not*base64*at*all")).toMatch(/base64/);
    expect(secretProblem(`whsec_${btoa("too short")}`)).toMatch(/24 to 64 bytes/);
    expect(secretProblem(`whsec_${btoa("x".repeat(65))}`)).toMatch(/24 to 64 bytes/);
  });

  it("uses the ASCII bytes of a secret without the prefix", () => {
    expect([...signingKey("abcdefgh")]).toEqual([97, 98, 99, 100, 101, 102, 103, 104]);
  });
});
