import { webhookUrlProblem } from "../../rules/webhook-url";
import type { FieldProblem } from "../../shared/errors";
import { secretProblem } from "../../webhooks/core/signing";
import type { CatalogDocument } from "../schemas";

/**
 * What the document's schema cannot say of one object alone: keys unique in their scope, and the
 * webhook rules the admin API applies (allowed URLs, usable secrets). Every problem with its path.
 */
export function documentProblems(doc: CatalogDocument, allowLoopbackWebhooks: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const unique = (entries: { key: string; field: string }[], scope: string) => {
    const seen = new Set<string>();
    for (const { key, field } of entries) {
      if (seen.has(key)) problems.push({ field, problem: `'${key}' is used more than once in ${scope}` });
      seen.add(key);
    }
  };
  const url = (value: string | null, field: string) => {
    const problem = value === null ? null : webhookUrlProblem(value, allowLoopbackWebhooks);
    if (problem) problems.push({ field, problem });
  };

  unique(
    doc.categories.map((c, i) => ({ key: c.category_slug, field: `categories.${i}.category_slug` })),
    "the document's categories",
  );
  unique(
    doc.categories.flatMap((c, i) =>
      c.challenges.map((ch, j) => ({ key: ch.key, field: `categories.${i}.challenges.${j}.key` })),
    ),
    "the document's challenges",
  );
  unique(
    doc.battle_passes.map((p, i) => ({ key: p.key, field: `battle_passes.${i}.key` })),
    "the document's battle passes",
  );
  doc.battle_passes.forEach((pass, i) => {
    unique(
      pass.levels.map((l, j) => ({ key: l.key, field: `battle_passes.${i}.levels.${j}.key` })),
      `battle pass ${pass.key}`,
    );
    pass.levels.forEach((level, j) => {
      const at = `battle_passes.${i}.levels.${j}`;
      unique(
        level.challenges.map((c, k) => ({ key: c.key, field: `${at}.challenges.${k}.key` })),
        `level ${level.key}`,
      );
      url(level.reward_webhook_url, `${at}.reward_webhook_url`);
    });
  });
  unique(
    doc.leaderboards.map((b, i) => ({ key: b.key, field: `leaderboards.${i}.key` })),
    "the document's leaderboards",
  );
  unique(
    doc.points_systems.map((s, i) => ({ key: s.key, field: `points_systems.${i}.key` })),
    "the document's points systems",
  );
  unique(
    doc.webhooks.map((w, i) => ({ key: w.key, field: `webhooks.${i}.key` })),
    "the document's webhooks",
  );
  doc.webhooks.forEach((hook, i) => {
    url(hook.url, `webhooks.${i}.url`);
    const problem = typeof hook.secret_key === "string" ? secretProblem(hook.secret_key) : null;
    if (problem) problems.push({ field: `webhooks.${i}.secret_key`, problem });
  });
  return problems;
}
