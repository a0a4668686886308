import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/shared/domain-errors";
import { errorStatus } from "../../../src/shared/errors";
import {
  adminTokenProblem,
  DEVELOPMENT_SECRET_VALUES,
  topicSecret,
  weakTopicSecret,
} from "../../../src/shared/secrets";
import { signingKeys, signingKeysProblem } from "../../../src/auth/signing-keys";

const LONG = "x".repeat(32);
const keys = (secret: string) => JSON.stringify([{ kid: "k1", secret }]);

describe("development secret values", () => {
  it("are the ones .dev.vars.example publishes", () => {
    const example = readFileSync(new URL("../../../.dev.vars.example", import.meta.url), "utf8");
    const value = (name: string) => new RegExp(`^${name}=(.*)$`, "m").exec(example)?.[1];
    expect(value("ADMIN_TOKEN")).toBe(DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN);
    expect(value("TOPIC_SECRET")).toBe(DEVELOPMENT_SECRET_VALUES.TOPIC_SECRET);
    expect(JSON.parse(value("JWT_SIGNING_KEYS")!)).toEqual([
      { kid: "dev-1", secret: DEVELOPMENT_SECRET_VALUES.JWT_SIGNING_SECRET },
    ]);
    expect(value("ENVIRONMENT")).toBe("development");
  });
});

describe("adminTokenProblem", () => {
  it("refuses a missing token everywhere", () => {
    expect(adminTokenProblem({ ENVIRONMENT: "development" })).toBe("is not set");
    expect(adminTokenProblem({ ADMIN_TOKEN: "", ENVIRONMENT: "production" })).toBe("is not set");
  });

  it("refuses the development value and short tokens outside development", () => {
    expect(adminTokenProblem({ ADMIN_TOKEN: "dev-admin-token", ENVIRONMENT: "production" })).toBe(
      "is the development value",
    );
    expect(adminTokenProblem({ ADMIN_TOKEN: "x".repeat(31), ENVIRONMENT: "staging" })).toBe(
      "is shorter than 32 characters",
    );
    expect(adminTokenProblem({ ADMIN_TOKEN: "x".repeat(31) })).toBe("is shorter than 32 characters");
    expect(adminTokenProblem({ ADMIN_TOKEN: LONG, ENVIRONMENT: "production" })).toBeNull();
  });

  it("accepts anything set in development", () => {
    expect(adminTokenProblem({ ADMIN_TOKEN: "dev-admin-token", ENVIRONMENT: "development" })).toBeNull();
  });
});

describe("signing keys", () => {
  it("names what is wrong", () => {
    expect(signingKeysProblem({ JWT_SIGNING_KEYS: "", ENVIRONMENT: "development" })).toBe("is not set");
    const malformed = "must be a JSON array of {kid, secret}, each secret at least 32 characters";
    expect(signingKeysProblem({ JWT_SIGNING_KEYS: "not json", ENVIRONMENT: "development" })).toBe(malformed);
    expect(signingKeysProblem({ JWT_SIGNING_KEYS: keys("short"), ENVIRONMENT: "development" })).toBe(malformed);
    expect(signingKeysProblem({ JWT_SIGNING_KEYS: "[]", ENVIRONMENT: "development" })).toBe(malformed);
    expect(
      signingKeysProblem({
        JWT_SIGNING_KEYS: keys(DEVELOPMENT_SECRET_VALUES.JWT_SIGNING_SECRET),
        ENVIRONMENT: "production",
      }),
    ).toBe("holds the development signing secret");
    expect(
      signingKeysProblem({
        JWT_SIGNING_KEYS: keys(DEVELOPMENT_SECRET_VALUES.JWT_SIGNING_SECRET),
        ENVIRONMENT: "development",
      }),
    ).toBeNull();
    expect(signingKeysProblem({ JWT_SIGNING_KEYS: keys(LONG), ENVIRONMENT: "production" })).toBeNull();
  });

  it("answers 503 naming the secret when they cannot be used", () => {
    const attempt = () =>
      signingKeys({ JWT_SIGNING_KEYS: keys(DEVELOPMENT_SECRET_VALUES.JWT_SIGNING_SECRET), ENVIRONMENT: "production" });
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow(
      /^Service not configured: JWT_SIGNING_KEYS holds the development signing secret\. Set it with `wrangler secret put JWT_SIGNING_KEYS`/,
    );
    try {
      attempt();
    } catch (err) {
      expect([(err as DomainError).kind, errorStatus(err)]).toEqual(["unavailable", 503]);
    }
    expect(signingKeys({ JWT_SIGNING_KEYS: keys(LONG), ENVIRONMENT: "production" })).toEqual([
      { kid: "k1", key: new TextEncoder().encode(LONG) },
    ]);
  });
});

describe("topic secret", () => {
  it("is required everywhere", () => {
    expect(() => topicSecret({ TOPIC_SECRET: "" })).toThrow(/^Service not configured: TOPIC_SECRET is not set\./);
    expect(topicSecret({ TOPIC_SECRET: "anything" })).toBe("anything");
  });

  it("is reported when weak outside development", () => {
    expect(
      weakTopicSecret({ TOPIC_SECRET: DEVELOPMENT_SECRET_VALUES.TOPIC_SECRET, ENVIRONMENT: "production" }),
    ).toMatch(/^TOPIC_SECRET is the development value/);
    expect(weakTopicSecret({ TOPIC_SECRET: "short", ENVIRONMENT: "production" })).toBe(
      "TOPIC_SECRET is shorter than 32 characters",
    );
    expect(weakTopicSecret({ TOPIC_SECRET: LONG, ENVIRONMENT: "production" })).toBeNull();
    expect(weakTopicSecret({ TOPIC_SECRET: "short", ENVIRONMENT: "development" })).toBeNull();
  });
});
