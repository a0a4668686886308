import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatCatalog, formatPlan, resolveSecrets } from "../../../scripts/lib/catalog-client.mjs";

describe("the catalog CLI", () => {
  it("puts secrets from the environment in place of references, and keeps references to unset variables", () => {
    const doc = {
      version: 1,
      webhooks: [
        { key: "a", webhook_type: "challenge-changed", url: "https://x.example/a", secret_key: { env: "SECRET_A" } },
        { key: "b", webhook_type: "challenge-changed", url: "https://x.example/b", secret_key: { env: "SECRET_B" } },
        { key: "c", webhook_type: "challenge-changed", url: "https://x.example/c", secret_key: "in-clear-123" },
      ],
    };
    const { doc: resolved, notes } = resolveSecrets(doc, { SECRET_A: "from-the-env-1" });
    expect(resolved.webhooks.map((w) => w.secret_key)).toEqual(["from-the-env-1", { env: "SECRET_B" }, "in-clear-123"]);
    expect(notes).toEqual([
      "webhook b: SECRET_B is not set, so its current secret is kept (a new endpoint gets a generated one)",
    ]);
    expect(doc.webhooks[0].secret_key).toEqual({ env: "SECRET_A" });
  });

  it("writes YAML with a schema comment and quoted strings that read back the same, or JSON with $schema", () => {
    const doc = {
      version: 1,
      leaderboards: [
        { key: "b", name: { en: "Board" }, period_range_reset_at_time: "06:00:00", event_name: "kill-enemy" },
      ],
    };
    const yaml = formatCatalog(doc, "catalog.yaml", "http://127.0.0.1:8787/api/v1/public/catalog-schema.json");
    expect(yaml.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=http://127.0.0.1:8787/api/v1/public/catalog-schema.json",
    );
    expect(yaml).toContain('period_range_reset_at_time: "06:00:00"');
    expect(parse(yaml)).toEqual(doc);
    expect(JSON.parse(formatCatalog(doc, "catalog.json", "http://s/schema.json"))).toEqual({
      $schema: "http://s/schema.json",
      ...doc,
    });
  });

  it("prints a plan as a diff: one line per object, one per changed field, then the totals", () => {
    const text = formatPlan({
      applied: false,
      summary: { create: 1, update: 1, delete: 1, unmanaged: 1, blocked: 1 },
      changes: [
        { action: "create", object: "leaderboard", ref: "leaderboards/coins", fields: [] },
        {
          action: "update",
          object: "challenge",
          ref: "challenges/raider",
          fields: [{ field: "challenge_goal", before: 200, after: 250 }],
        },
        { action: "delete", object: "webhook", ref: "webhooks/old", fields: [] },
      ],
      unmanaged: [{ object: "category", ref: "categories/legacy" }],
      blocked: [{ object: "challenge", ref: "challenges/raider", problem: "1 user has it in progress" }],
    });
    expect(text.split("\n")).toEqual([
      "+ leaderboard  leaderboards/coins",
      "~ challenge    challenges/raider",
      "      challenge_goal: 200 -> 250",
      "- webhook      webhooks/old",
      "  category     categories/legacy  (not in the document: kept; --prune deletes it)",
      "! blocked challenges/raider: 1 user has it in progress",
      "",
      "Plan: 1 to create, 1 to update, 1 to delete.",
      "1 object(s) of the app are not in the document and are kept.",
      "1 change(s) would break running player state: apply refuses them unless --force.",
    ]);
  });
});
