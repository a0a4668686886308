import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import demoYaml from "../../../scripts/demo/catalog.yaml?raw";
import { ADMIN, call, createTestApp } from "../helpers";
import { configuration, exportCatalog } from "../catalog/support";
import { consoleFixture } from "./fixtures";
import { ConsoleClient, textOf } from "./support";

/** The console's catalog page: export, import with a preview of the plan, apply of exactly that plan. */

const catalogPath = (appId: string) => `/console/apps/${appId}/catalog`;

/** The hidden fields of the preview's apply form, as the browser would post them back. */
function applyFields(html: string): Record<string, string> {
  const form = /<form[^>]*action="[^"]*\/catalog\/apply"[^>]*>(.*?)<\/form>/s.exec(html);
  if (!form) throw new Error("the preview offers no apply");
  return Object.fromEntries(
    [...form[1].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)]
      .filter(([, name]) => name !== "_csrf")
      .map(([, n, v]) => [n, unescapeHtml(v)]),
  );
}

const unescapeHtml = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The problems listed under the document field, as text. */
const documentProblems = (html: string) =>
  [
    ...(/<ul class="field-errors" id="f-document-errors">(.*?)<\/ul>/s.exec(html)?.[1] ?? "").matchAll(
      /<li>(.*?)<\/li>/gs,
    ),
  ].map((m) => unescapeHtml(m[1]));

/** The plan's summary line. */
const summary = (html: string) => unescapeHtml(textOf(html, /<p class="plan-summary">(.*?)<\/p>/s) ?? "");

describe("the console's catalog export", () => {
  it("downloads the document as the CLI's pull writes it, in YAML and JSON, for every role", async () => {
    const { appId } = await consoleFixture("Export");
    const viewer = new ConsoleClient();
    await viewer.signInAs("viewer");
    const page = await viewer.get(catalogPath(appId));
    expect(page.status).toBe(200);
    expect(page.html).toContain(`href="${catalogPath(appId)}.yaml"`);
    expect(page.html).not.toContain("/catalog/preview");
    expect(page.html).toContain("Importing a document needs an editor or an owner.");

    const yaml = await viewer.get(`${catalogPath(appId)}.yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get("Content-Type")).toBe("application/yaml; charset=utf-8");
    expect(yaml.headers.get("Content-Disposition")).toBe(`attachment; filename="app-${appId}-catalog.yaml"`);
    expect(yaml.html.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=https://gamification.test/api/v1/public/catalog-schema.json",
    );
    const api = await exportCatalog(appId);
    expect(parse(yaml.html)).toEqual(api);
    expect(yaml.html).toContain('category_slug: "main"');

    const json = await viewer.get(`${catalogPath(appId)}.json`);
    expect(json.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(json.html)).toEqual({
      $schema: "https://gamification.test/api/v1/public/catalog-schema.json",
      ...api,
    });
  });
});

describe("the console's catalog import", () => {
  it("previews a pasted YAML document without changing anything, then applies exactly that plan", async () => {
    const { appId } = await createTestApp("Import");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    const before = await configuration(appId);
    const preview = await editor.post(`${catalogPath(appId)}/preview`, { document: demoYaml });
    expect(preview.status).toBe(200);
    expect(summary(preview.html)).toBe("Plan: 16 to create, 0 to update, 0 to delete.");
    expect(preview.html).toContain("<code>challenges/daily-matches</code>");
    expect(await configuration(appId)).toEqual(before);

    const applied = await editor.post(`${catalogPath(appId)}/apply`, applyFields(preview.html));
    expect(applied).toMatchObject({ status: 303, location: catalogPath(appId) });
    expect(decodeURIComponent(editor.cookies.get("og_console_notice") ?? "")).toBe(
      "success:Catalog applied: 16 created, 0 updated, 0 deleted.",
    );
    expect(await exportCatalog(appId)).toEqual(
      (await call("GET", `/api/v1/admin/apps/${appId}/catalog`, { token: ADMIN })).body,
    );
    expect((await exportCatalog(appId)).categories.map((c: { category_slug: string }) => c.category_slug)).toEqual([
      "daily",
      "weekly",
    ]);

    // The same document again: nothing to apply, and nothing offered.
    const again = await editor.post(`${catalogPath(appId)}/preview`, { document: demoYaml });
    expect(summary(again.html)).toBe("No changes: the app already matches the document.");
    expect(again.html).not.toContain("/catalog/apply");
  });

  it("shows each field's change, lists what the document leaves out, and deletes it only with prune", async () => {
    const { appId } = await createTestApp("Prune");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    await editor.post(
      `${catalogPath(appId)}/apply`,
      applyFields((await editor.post(`${catalogPath(appId)}/preview`, { document: demoYaml })).html),
    );
    const doc = await exportCatalog(appId);
    doc.categories[0].challenges[0].challenge_goal = 7;
    doc.leaderboards = doc.leaderboards.slice(1);
    const kept = await editor.post(`${catalogPath(appId)}/preview`, { document: stringify(doc) });
    expect(summary(kept.html)).toBe(
      "Plan: 0 to create, 1 to update, 0 to delete. 1 object of the app is not in the document.",
    );
    expect(kept.html).toMatch(
      /<code>challenge_goal<\/code>: <code class="before">3<\/code> → <code class="after">7<\/code>/,
    );
    expect(kept.html).toContain("Not in the document");

    const pruned = await editor.post(`${catalogPath(appId)}/preview`, { document: stringify(doc), prune: "on" });
    expect(summary(pruned.html)).toBe("Plan: 0 to create, 1 to update, 1 to delete.");
    const fields = applyFields(pruned.html);
    expect(fields.prune).toBe("on");
    expect(pruned.html).toMatch(
      /data-confirm="Apply to Prune: 0 to create, 1 to update, 1 to delete\? It deletes 1 object,/,
    );
    expect((await editor.post(`${catalogPath(appId)}/apply`, fields)).status).toBe(303);
    expect(await exportCatalog(appId)).toEqual(doc);
  });

  it("takes an uploaded JSON file, and refuses one that is not UTF-8 text", async () => {
    const { appId } = await createTestApp("Upload");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    const doc = {
      version: 1,
      leaderboards: [
        {
          key: "high-scores",
          name: "High scores",
          event_name: "achieve-score",
          value_field: "score",
          aggregation: "max",
        },
      ],
    };
    const file = new File([JSON.stringify(doc)], "catalog.json", { type: "application/json" });
    const preview = await editor.postMultipart(`${catalogPath(appId)}/preview`, { document: "", file });
    expect(preview.status).toBe(200);
    expect(summary(preview.html)).toBe("Plan: 1 to create, 0 to update, 0 to delete.");
    // The file's text is shown in the form, to edit and preview again.
    expect(preview.html).toContain("&quot;high-scores&quot;");
    expect((await editor.post(`${catalogPath(appId)}/apply`, applyFields(preview.html))).status).toBe(303);
    expect((await exportCatalog(appId)).leaderboards).toMatchObject([{ key: "high-scores" }]);

    const binary = new File([new Uint8Array([0xff, 0xfe, 0x00, 0x41])], "catalog.yaml");
    const refused = await editor.postMultipart(`${catalogPath(appId)}/preview`, { document: "", file: binary });
    expect(refused.status).toBe(400);
    expect(documentProblems(refused.html)).toEqual(["catalog.yaml is not UTF-8 text: choose a YAML or JSON file"]);
  });

  it("lists every problem of an invalid document with its path and line, keeping the text", async () => {
    const { appId } = await createTestApp("Invalid");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    const before = await configuration(appId);
    const text = [
      "version: 1",
      "categories:",
      "  - category_slug: daily",
      "    category_name: Daily",
      "    challenges:",
      "      - key: Not-A-Key",
      "        challenge_name: Win",
      "        challenge_goal: -1",
      "        event_name: match-finish",
      "        colour: red",
      "leaderboards:",
      "  - key: top",
      "    name: Top",
      "  - key: top",
      "    name: Top again",
      "    event_name: achieve-score",
      "",
    ].join("\n");
    const answer = await editor.post(`${catalogPath(appId)}/preview`, { document: text });
    expect(answer.status).toBe(400);
    expect(documentProblems(answer.html)).toEqual([
      "Line 8: categories[0].challenges[0].challenge_goal must not be negative",
      "Line 6: categories[0].challenges[0].key must be lower-case letters, digits, - and _ (at most 100), starting with a letter or digit",
      "Line 10: categories[0].challenges[0].colour is not a known field",
      "Line 12: leaderboards[0].event_name is required",
    ]);
    expect(answer.html).toContain("        colour: red");
    expect(answer.html).toContain('aria-invalid="true"');

    // What the schema cannot see, with the same paths: a key used twice.
    const twice = await editor.post(`${catalogPath(appId)}/preview`, {
      document: text
        .replace("Not-A-Key", "win")
        .replace("-1", "1")
        .replace("        colour: red\n", "")
        .replace("    name: Top\n", "    name: Top\n    event_name: achieve-score\n"),
    });
    expect(documentProblems(twice.html)).toEqual([
      "Line 14: leaderboards[1].key: 'top' is used more than once in the document's leaderboards",
    ]);

    const broken = await editor.post(`${catalogPath(appId)}/preview`, {
      document: "version: 1\nleaderboards: [\n  {key: a\n",
    });
    expect(broken.status).toBe(400);
    expect(documentProblems(broken.html)[0]).toMatch(/^Line \d+: /);
    expect(await configuration(appId)).toEqual(before);
  });

  it("applies only the plan that was previewed: a change in between shows the new plan first", async () => {
    const { appId } = await createTestApp("Moved on");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    const doc = { version: 1, leaderboards: [{ key: "top", name: "Top", event_name: "achieve-score" }] };
    const fields = applyFields(
      (await editor.post(`${catalogPath(appId)}/preview`, { document: JSON.stringify(doc) })).html,
    );
    // Someone else creates the same board through the API meanwhile.
    await call("POST", `/api/v1/admin/apps/${appId}/leaderboards`, {
      token: ADMIN,
      body: { key: "top", name: "Top (API)", event_name: "achieve-score" },
    });
    const stale = await editor.post(`${catalogPath(appId)}/apply`, fields);
    expect(stale.status).toBe(409);
    expect(stale.html).toContain("The plan is not the one previewed");
    expect(summary(stale.html)).toBe("Plan: 0 to create, 1 to update, 0 to delete.");
    expect((await exportCatalog(appId)).leaderboards).toMatchObject([{ key: "top", name: "Top (API)" }]);
    expect((await editor.post(`${catalogPath(appId)}/apply`, applyFields(stale.html))).status).toBe(303);
    expect((await exportCatalog(appId)).leaderboards).toMatchObject([{ key: "top", name: "Top" }]);
  });

  it("offers no apply of a change that breaks running player state, unless forced", async () => {
    const { appId } = await createTestApp("Blocked");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    await editor.post(
      `${catalogPath(appId)}/apply`,
      applyFields((await editor.post(`${catalogPath(appId)}/preview`, { document: demoYaml })).html),
    );
    const challenge = await env.DB.prepare(
      "SELECT challenge_id FROM challenges WHERE app_id = ? AND key = 'daily-matches'",
    )
      .bind(Number(appId))
      .first<{ challenge_id: number }>();
    await env.DB.prepare("INSERT INTO challenge_holders (challenge_id, state, users) VALUES (?, 'in-progress', 2)")
      .bind(challenge!.challenge_id)
      .run();
    const doc = parse(demoYaml);
    doc.categories[0].challenges[0].challenge_goal = 5;

    const refused = await editor.post(`${catalogPath(appId)}/preview`, { document: stringify(doc) });
    expect(refused.html).toContain("would break running player state");
    expect(refused.html).toContain("An apply would be refused");
    expect(refused.html).not.toContain("/catalog/apply");
    // A forged apply without force is refused all the same, by the service.
    const forged = await editor.post(`${catalogPath(appId)}/apply`, { document: stringify(doc), plan_digest: "x" });
    expect(forged.status).toBe(409);

    const forced = await editor.post(`${catalogPath(appId)}/preview`, { document: stringify(doc), force: "on" });
    const fields = applyFields(forced.html);
    expect(fields.force).toBe("on");
    expect((await editor.post(`${catalogPath(appId)}/apply`, fields)).status).toBe(303);
    expect((await exportCatalog(appId)).categories[0].challenges[0].challenge_goal).toBe(5);
  });

  it("refuses a viewer's preview and apply (403) and answers any document without a 5xx", async () => {
    const { appId } = await createTestApp("Junk documents");
    const viewer = new ConsoleClient();
    await viewer.signInAs("viewer");
    for (const action of ["preview", "apply"]) {
      const refused = await viewer.post(`${catalogPath(appId)}/${action}`, { document: demoYaml, plan_digest: "x" });
      expect(refused.status, action).toBe(403);
    }
    expect((await exportCatalog(appId)).categories).toEqual([]);

    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    const junk = [
      "",
      "   ",
      "null",
      "[]",
      "42",
      '"text"',
      "version: 2",
      "version: 1\ncategories: {}",
      "{version: 1, leaderboards: [{key: a, name: A, event_name: e, aggregation: avg}]}",
      "a: &a [*a]",
      "a: *missing",
      "x: !!binary aGk=",
      "---\nversion: 1\n---\nversion: 1\n",
      `version: 1\nleaderboards:\n${"  - key: a\n".repeat(3)}`,
      "version: 1\nwebhooks: [{key: h, webhook_type: challenge-changed, url: 'javascript:alert(1)', secret_key: s}]",
      `${"[".repeat(5000)}${"]".repeat(5000)}`,
      "version: 99999999999999999999999",
      "\u0000\u0001",
      '{"version": 1, "version": 1}',
    ];
    for (const document of junk) {
      for (const action of ["preview", "apply"]) {
        const answer = await editor.post(`${catalogPath(appId)}/${action}`, {
          document,
          plan_digest: "x",
          prune: "on",
          force: "on",
        });
        expect(answer.status, `${action} ${JSON.stringify(document).slice(0, 60)}`).toBeLessThan(500);
      }
    }
    expect((await exportCatalog(appId)).categories).toEqual([]);
  }, 60_000);
});
