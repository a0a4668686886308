import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatCatalog as pullFormat } from "../../../scripts/lib/catalog-client.mjs";
import { formatCatalog, readCatalogText } from "../../../src/console/core/catalog-text";

/** Catalog documents as the console reads and writes them: as the catalog CLI does. */

const SCHEMA = "https://gamification.example/api/v1/public/catalog-schema.json";
const demo = readFileSync(new URL("../../../scripts/demo/catalog.yaml", import.meta.url), "utf8");

describe("catalog documents as text", () => {
  it("writes byte for byte what the CLI's pull writes, in YAML and JSON", () => {
    const doc = parse(demo);
    expect(formatCatalog(doc, "yaml", SCHEMA)).toBe(pullFormat(doc, "catalog.yaml", SCHEMA));
    expect(formatCatalog(doc, "json", SCHEMA)).toBe(pullFormat(doc, "catalog.json", SCHEMA));
  });

  it("reads YAML and JSON alike", () => {
    const fromYaml = readCatalogText(demo);
    const fromJson = readCatalogText(JSON.stringify(parse(demo)));
    expect(fromYaml.ok && fromJson.ok && fromYaml.value).toEqual(fromJson.ok && fromJson.value);
  });

  it("answers syntax errors with their lines, and an empty text as such", () => {
    expect(readCatalogText("version: 1\nleaderboards:\n  - key: a\n   name: b\n")).toEqual({
      ok: false,
      problems: [expect.objectContaining({ field: "document", line: 4 })],
    });
    expect(readCatalogText("a: 1\n---\nb: 2\n")).toEqual({
      ok: false,
      problems: [
        {
          field: "document",
          problem: "Source contains multiple documents; please use YAML.parseAllDocuments()",
          line: 2,
        },
      ],
    });
    expect(readCatalogText(" \n")).toEqual({
      ok: false,
      problems: [{ field: "document", problem: "is empty: paste a catalog document or choose a file", line: null }],
    });
    expect(readCatalogText("a: *nowhere")).toMatchObject({ ok: false, problems: [{ field: "document", line: null }] });
  });

  it("puts each problem of the service at the line of its path, or of the nearest object the document has", () => {
    const read = readCatalogText(
      "version: 1\ncategories:\n  - category_slug: daily\n    challenges:\n      - key: a\n        challenge_goal: -1\n",
    );
    if (!read.ok) throw new Error("not read");
    expect(
      read
        .locate([
          { field: "categories.0.challenges.0.challenge_goal", problem: "must not be negative" },
          { field: "categories.0.challenges.0.event_name", problem: "is required" },
          { field: "categories.0.category_name", problem: "is required" },
          { field: "catalog document", problem: "is not an object" },
        ])
        .map((p) => p.line),
    ).toEqual([6, 5, 3, null]);
  });
});
