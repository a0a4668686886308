import { writeConfig } from "../apps/config-write";
import type { Actor } from "../apps/audit-log";
import { planAuditEntries } from "./core/audit";
import { requireApp } from "../apps/repo";
import { invalid, conflict, type FieldProblem } from "../shared/domain-errors";
import { invalidInput } from "../shared/http";
import { invalidMessage } from "../shared/problems";
import { isUniqueViolation } from "../shared/statements";
import { isChangedSinceFailure, planStatements, unchangedSinceStatement } from "./apply";
import { exportDocument } from "./core/documents";
import { planCatalog, presentPlan } from "./core/plan";
import { documentProblems } from "./core/validate";
import { CatalogDocument } from "./schemas";
import { readSnapshot } from "./snapshot-repo";

/**
 * Catalog as code: export an app's configuration as a document, plan a document against the app,
 * apply it. The API's routes and the admin console's export and "import with preview" call these.
 */

export interface CatalogOptions {
  /** Delete the app's objects that the document leaves out (otherwise they are kept and listed as unmanaged). */
  prune?: boolean;
  /** Apply even the changes that would break running player state (the plan lists them as blocked). */
  force?: boolean;
}

/**
 * Most writes one apply makes: one batch, with the few statements of its audit entries, stays
 * within D1's limit of 1000 queries per Worker invocation.
 */
export const MAX_APPLY_WRITES = 980;

/** A document from anywhere (an uploaded file, parsed YAML): the one 400 of the API when it is not valid. */
export function parseCatalogDocument(input: unknown): CatalogDocument {
  const parsed = CatalogDocument.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error.issues, "catalog document", { value: input });
  return parsed.data;
}

const invalidDocument = (problems: FieldProblem[]) => invalid(invalidMessage("catalog document", problems), problems);

export async function exportCatalog(env: Env, appId: string, now: number): Promise<CatalogDocument> {
  const app = await requireApp(env.DB, appId);
  return exportDocument(await readSnapshot(env.DB, app.app_id), now);
}

/** The plan of a document against the app; rejects (400) a document that cannot be applied to it. */
async function plan(env: Env, appId: string, doc: CatalogDocument, options: CatalogOptions, now: number) {
  const app = await requireApp(env.DB, appId);
  const problems = documentProblems(doc, env.ALLOW_LOOPBACK_WEBHOOKS === "on");
  if (problems.length > 0) throw invalidDocument(problems);
  const snapshot = await readSnapshot(env.DB, app.app_id);
  const planned = planCatalog(doc, snapshot, { prune: options.prune ?? false, now });
  if (planned.problems.length > 0) throw invalidDocument(planned.problems);
  return { app, snapshot, planned };
}

/** What applying the document would change, changing nothing. */
export async function previewCatalog(
  env: Env,
  appId: string,
  doc: CatalogDocument,
  options: CatalogOptions,
  now: number,
) {
  const { app, planned } = await plan(env, appId, doc, options, now);
  return { app_id: String(app.app_id), prune: options.prune ?? false, applied: false, ...presentPlan(planned) };
}

/**
 * Applies the document: every change in one D1 batch with the catalog version's bump (all or
 * nothing). Nothing is written when nothing differs, so a second apply of the same document changes
 * nothing at all. Refuses (409) blocked changes unless forced, and any configuration write that
 * came in between planning and writing.
 */
export async function applyCatalog(
  env: Env,
  appId: string,
  doc: CatalogDocument,
  options: CatalogOptions,
  now: number,
  actor: Actor,
) {
  const { app, snapshot, planned } = await plan(env, appId, doc, options, now);
  if (planned.blocked.length > 0 && !options.force) {
    const errors = planned.blocked.map((b) => ({ field: b.ref, problem: b.problem }));
    throw conflict(
      `The document would break running player state (apply with force=true to do it anyway): ${errors.map((e) => `${e.field}: ${e.problem}`).join("; ")}`,
      errors,
    );
  }
  const statements = planStatements(env.DB, app.app_id, planned, now);
  if (statements.length > MAX_APPLY_WRITES) {
    throw invalid(
      `The document changes ${statements.length} objects; one apply changes at most ${MAX_APPLY_WRITES}: apply it in parts`,
    );
  }
  if (statements.length > 0) {
    try {
      const audit = planAuditEntries(planned, actor, app.app_id, now);
      await writeConfig(
        env.DB,
        app.app_id,
        [unchangedSinceStatement(env.DB, app.app_id, snapshot.version), ...statements],
        audit,
      );
    } catch (err) {
      if (isChangedSinceFailure(err) || isUniqueViolation(err)) {
        throw conflict(
          "The app's configuration changed while the document was being applied; nothing was applied. Plan and apply again.",
        );
      }
      throw err;
    }
  }
  return { app_id: String(app.app_id), prune: options.prune ?? false, applied: true, ...presentPlan(planned) };
}
