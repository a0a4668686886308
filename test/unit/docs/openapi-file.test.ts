import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { WEBHOOK_TYPES } from "../../../src/changes/types";

/**
 * The committed openapi.json (written by `npm run openapi`; test/integration/docs/openapi-file.test.ts
 * checks that it is the document the Worker serves; test/scripts/openapi-tools.test.ts lints it and
 * generates a client from it).
 */

const root = fileURLToPath(new URL("../../..", import.meta.url));
const file = path.join(root, "openapi.json");
const document = JSON.parse(readFileSync(file, "utf8"));
const METHODS = ["get", "put", "post", "delete", "patch"];

const operations = (section: Record<string, Record<string, any>>) =>
  Object.entries(section).flatMap(([key, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ op: `${m.toUpperCase()} ${key}`, operation: item[m] })),
  );
const all = [...operations(document.paths), ...operations(document.webhooks)];

describe("the committed OpenAPI document", () => {
  it("gives every operation and webhook a unique operationId; aliases name an operation that is not an alias", () => {
    expect(all.filter(({ operation }) => typeof operation.operationId !== "string").map(({ op }) => op)).toEqual([]);
    const ids = all.map(({ operation }) => operation.operationId as string);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const byId = new Map(all.map(({ operation }) => [operation.operationId, operation]));
    for (const { op, operation } of all.filter(({ operation }) => operation["x-alias-of"] !== undefined)) {
      const target = byId.get(operation["x-alias-of"]);
      expect({
        op,
        target: target?.operationId,
        targetIsAlias: target?.["x-alias-of"],
        deprecated: operation.deprecated,
      }).toEqual({
        op,
        target: operation["x-alias-of"],
        targetIsAlias: undefined,
        deprecated: undefined,
      });
    }
  });

  it("carries SCILL's operationIds where SCILL describes the operation", () => {
    const idOf = (method: string, path: string) => document.paths[path]?.[method]?.operationId;
    expect({
      generateAccessToken: idOf("post", "/api/v1/auth/access-token"),
      sendEvent: idOf("post", "/api/v1/events"),
      getAllPersonalChallenges: idOf("get", "/api/v1/challenges/personal/all/{appId}"),
      unlockPersonalChallenge: idOf("post", "/api/v1/challenges/personal/unlock/{appId}/{challengeId}"),
      claimPersonalChallengeReward: idOf("put", "/api/v1/challenges/personal/claim/{appId}/{challengeId}"),
      getLeaderboardV2: idOf("get", "/api/v2/leaderboards/{leaderboardId}"),
      getBattlePassLevels: idOf("get", "/api/v1/battle-pass-levels/{appId}/{battlePassId}"),
      resetLeaderboardV2Rankings: idOf("delete", "/api/v2/leaderboards-reset/{appId}/{leaderboardId}"),
    }).toEqual({
      generateAccessToken: "generateAccessToken",
      sendEvent: "sendEvent",
      getAllPersonalChallenges: "getAllPersonalChallenges",
      unlockPersonalChallenge: "unlockPersonalChallenge",
      claimPersonalChallengeReward: "claimPersonalChallengeReward",
      getLeaderboardV2: "getLeaderboardV2",
      getBattlePassLevels: "getBattlePassLevels",
      resetLeaderboardV2Rankings: "resetLeaderboardV2Rankings",
    });
    const claimByGet = document.paths["/api/v1/challenges/personal/claim/{appId}/{challengeId}"].get;
    expect([claimByGet.operationId, claimByGet["x-alias-of"]]).toEqual([
      "claimPersonalChallengeRewardViaGet",
      "claimPersonalChallengeReward",
    ]);
    const specLevels = document.paths["/v1/battle-pass-levels/{appId}/{battlePassId}"].get;
    expect([specLevels.operationId, specLevels["x-alias-of"]]).toEqual([
      "getBattlePassLevelsSpecPath",
      "getBattlePassLevels",
    ]);
  });

  it("says the credentials of every operation: none, or 400, 401 and 404 among its answers; X-Request-Id and 5XX on every answer", () => {
    for (const { op, operation } of operations(document.paths)) {
      const codes = Object.keys(operation.responses);
      expect({ op, security: Array.isArray(operation.security) }).toEqual({ op, security: true });
      if (operation.security.length > 0)
        expect({ op, has: ["400", "401", "404"].filter((c) => codes.includes(c)) }).toEqual({
          op,
          has: ["400", "401", "404"],
        });
      expect({ op, last: codes.at(-1) }).toEqual({ op, last: "5XX" });
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        expect({ op, status, header: response.headers?.["X-Request-Id"] }).toEqual({
          op,
          status,
          header: { $ref: "#/components/headers/X-Request-Id" },
        });
      }
    }
    expect(Object.keys(document.components.securitySchemes)).toEqual(["ApiKey", "AccessToken", "AdminToken"]);
    expect(
      Object.values<any>(document.components.securitySchemes).map((s) => [s.type, s.scheme, s.bearerFormat]),
    ).toEqual([
      ["http", "bearer", "API key"],
      ["http", "bearer", "JWT"],
      ["http", "bearer", "Admin token"],
    ]);
    const version = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
    expect([document.info.version, document.info.license.identifier, document.servers]).toEqual([
      version,
      "Apache-2.0",
      [{ url: "/", description: "The deployment that serves this document" }],
    ]);
    expect(Object.keys(document.paths).filter((p) => p.startsWith("/api/v1/admin/dev/"))).toEqual([]);
  });

  it("describes the body of every webhook type in the webhooks section, signed rather than sent with a credential", () => {
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_TYPES]);
    for (const [type, item] of Object.entries<any>(document.webhooks)) {
      const schema =
        document.components.schemas[
          item.post.requestBody.content["application/json"].schema.$ref.replace("#/components/schemas/", "")
        ];
      expect({ type, webhook_type: schema.properties.webhook_type.enum, security: item.post.security }).toEqual({
        type,
        webhook_type: [type],
        security: [],
      });
    }
  });
});
