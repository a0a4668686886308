import { describe, expect, it } from "vitest";
import { isLoopbackHost, webhookUrlProblem, withSecretKey } from "../../../src/rules/webhook-url";

describe("webhook URL rules", () => {
  it("accepts https anywhere", () => {
    expect(webhookUrlProblem("https://game.example.com/hooks", false)).toBeNull();
    expect(webhookUrlProblem("https://127.0.0.1:8443/hooks?x=1", false)).toBeNull();
  });

  it("refuses plain http, other schemes and relative URLs", () => {
    expect(webhookUrlProblem("http://game.example.com/hooks", false)).toBe("must use https");
    expect(webhookUrlProblem("http://127.0.0.1:9000/hooks", false)).toBe("must use https");
    expect(webhookUrlProblem("ftp://game.example.com/hooks", true)).toMatch(/must use https/);
    expect(webhookUrlProblem("/hooks", true)).toBe("must be an absolute URL");
    expect(webhookUrlProblem("not a url", true)).toBe("must be an absolute URL");
    expect(webhookUrlProblem(`https://example.com/${"x".repeat(2100)}`, true)).toMatch(/at most 2048/);
  });

  it("accepts plain http to loopback addresses only when allowed", () => {
    for (const url of [
      "http://127.0.0.1:9000/h",
      "http://127.8.9.10/h",
      "http://localhost:3000/h",
      "http://[::1]:3000/h",
      "http://127.1/h",
    ]) {
      expect(webhookUrlProblem(url, true), url).toBeNull();
      expect(webhookUrlProblem(url, false), url).toBe("must use https");
    }
    for (const url of [
      "http://10.0.0.1/h",
      "http://128.0.0.1/h",
      "http://localhost.example.com/h",
      "http://[::2]/h",
      "http://0.0.0.0/h",
    ]) {
      expect(webhookUrlProblem(url, true), url).toBe("must use https (plain http only to a loopback address)");
    }
  });

  it("knows loopback hosts", () => {
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("127.255.255.255")).toBe(true);
    expect(isLoopbackHost("127.0.0.1.example.com")).toBe(false);
  });
});

describe("secret_key in the URL", () => {
  it("adds a query when there is none", () => {
    expect(withSecretKey("https://a.example/hook", "s3cret")).toBe("https://a.example/hook?secret_key=s3cret");
    expect(withSecretKey("https://a.example/hook?", "s3cret")).toBe("https://a.example/hook?secret_key=s3cret");
  });

  it("appends to an existing query without touching it", () => {
    expect(withSecretKey("https://a.example/hook?game=space%20racer&x=a+b", "s3cret")).toBe(
      "https://a.example/hook?game=space%20racer&x=a+b&secret_key=s3cret",
    );
  });

  it("encodes the secret and drops a fragment", () => {
    expect(withSecretKey("https://a.example/hook#frag", "whsec_a+b/c=")).toBe(
      "https://a.example/hook?secret_key=whsec_a%2Bb%2Fc%3D",
    );
    expect(new URL(withSecretKey("https://a.example/h?k=1", "a&b=c")).searchParams.get("secret_key")).toBe("a&b=c");
  });
});
