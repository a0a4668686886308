import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import { CATALOG_SCHEMA_PATH } from "../../catalog/json-schema";
import type { CatalogDocument } from "../../catalog/schemas";
import {
  applyCatalog,
  exportCatalog,
  parseCatalogDocument,
  previewCatalog,
  type CatalogOptions,
} from "../../catalog/service";
import { sha256Hex } from "../../shared/crypto";
import { isDomainError } from "../../shared/domain-errors";
import { problemSentence } from "../../shared/problems";
import {
  formatCatalog,
  readCatalogText,
  TEXT_FIELD,
  type CatalogFormat,
  type DocumentProblem,
} from "../core/catalog-text";
import { errorsOf, FormReader, type FieldErrors } from "../../kit/console/core/form";
import { counted } from "../../kit/console/core/plural";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  readForm,
  readFormFile,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { CheckboxField, emptyForm, FormErrors, PostForm, TextArea, type FormState } from "../../kit/console/ui/forms";
import { renderAppPage } from "../../kit/console/ui/render";
import { changeCount, PlanDetails, planCounts, type PlanAnswer } from "./catalog-plan";

/**
 * Catalog as code in the console (src/catalog/service.ts, as the API's catalog routes): export the
 * app's configuration as a YAML or JSON document, and import one: preview its plan, then apply
 * exactly that plan on confirmation. Viewers export; editors and owners import.
 */

const catalogBase = (app: AppRow) => `/console/apps/${app.app_id}/catalog`;

const FORMATS: Record<CatalogFormat, { type: string; label: string }> = {
  yaml: { type: "application/yaml; charset=utf-8", label: "YAML" },
  json: { type: "application/json; charset=utf-8", label: "JSON" },
};

/** A previewed document: its plan, and a digest of it that the apply form carries back. */
interface Preview {
  plan: PlanAnswer;
  digest: string;
}

type Planned = { ok: true; doc: CatalogDocument; preview: Preview } | { ok: false; problems: DocumentProblem[] };

/** What the import part of the page shows: the form as typed, and the preview of its document if it has one. */
interface ImportState {
  form: FormState;
  preview: Preview | null;
}

const IMPORT_FIELDS = [TEXT_FIELD, "file", "prune", "force"];

const optionsOf = (form: FormReader): CatalogOptions => ({
  prune: form.checked("prune"),
  force: form.checked("force"),
});

/** One problem per line under the document: where it is, then what. */
const problemText = (p: DocumentProblem) =>
  `${p.line === null ? "" : `Line ${p.line}: `}${p.field === TEXT_FIELD ? p.problem : problemSentence(p)}`;
const documentErrors = (problems: DocumentProblem[]): FieldErrors => ({ [TEXT_FIELD]: problems.map(problemText) });

/**
 * Reads and plans a document against the app, changing nothing; invalid documents answer every problem with its path
 * and line.
 */
async function planDocument(c: ConsoleContext, app: AppRow, text: string, options: CatalogOptions): Promise<Planned> {
  const read = readCatalogText(text);
  if (!read.ok) return read;
  try {
    const doc = parseCatalogDocument(read.value);
    const { app_id, prune, applied, ...plan } = await previewCatalog(
      c.env,
      String(app.app_id),
      doc,
      options,
      c.get("now"),
    );
    return { ok: true, doc, preview: { plan, digest: await sha256Hex(JSON.stringify({ prune, plan })) } };
  } catch (err) {
    if (!isDomainError(err, "invalid")) throw err;
    return { ok: false, problems: read.locate(err.problems ?? [{ field: TEXT_FIELD, problem: err.message }]) };
  }
}

/** The file chosen, else the text pasted; a file that is not UTF-8 text is a problem of its own. */
async function submittedText(c: ConsoleContext, pasted: string): Promise<{ text: string } | { problem: string }> {
  const file = await readFormFile(c, "file");
  if (!file) return { text: pasted };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(await file.arrayBuffer()) };
  } catch {
    return { problem: `${file.name} is not UTF-8 text: choose a YAML or JSON file` };
  }
}

function ExportPanel(props: { app: AppRow; doc: CatalogDocument; origin: string }) {
  // The sections' objects as the document lists them (src/kit/catalog.ts).
  const doc = props.doc as unknown as {
    categories: { challenges: unknown[] }[];
    battle_passes: unknown[];
    leaderboards: unknown[];
    webhooks: unknown[];
  };
  const challenges = doc.categories.reduce((n, category) => n + category.challenges.length, 0);
  const base = catalogBase(props.app);
  return (
    <section class="panel" aria-labelledby="export">
      <h2 id="export">Export</h2>
      <p>
        The app's whole configuration as one document, with its keys instead of ids:{" "}
        {[
          counted(doc.categories.length, "category", "categories"),
          counted(challenges, "challenge"),
          counted(doc.battle_passes.length, "battle pass", "battle passes"),
          counted(doc.leaderboards.length, "leaderboard"),
          counted(doc.webhooks.length, "webhook"),
        ].join(", ")}
        . Webhook secrets are never exported, only a reference <code>{"{env: WEBHOOK_SECRET_<KEY>}"}</code>.
      </p>
      <p class="actions">
        {(Object.keys(FORMATS) as CatalogFormat[]).map((format) => (
          <a class="button secondary" href={`${base}.${format}`} download hx-boost="false">
            Download {FORMATS[format].label}
          </a>
        ))}
      </p>
      <p class="help">
        The same as{" "}
        <code>
          npm run catalog -- pull --app {props.app.app_id} --url {props.origin} catalog.yaml
        </code>
        : keep it in version control, and apply it to another deployment.
      </p>
    </section>
  );
}

function ImportForm(props: { app: AppRow; form: FormState }) {
  const { form } = props;
  return (
    <PostForm action={`${catalogBase(props.app)}/preview`} enctype="multipart/form-data" class="wide-form">
      <FormErrors errors={form.errors} fields={IMPORT_FIELDS} />
      <fieldset>
        <TextArea
          form={form}
          name={TEXT_FIELD}
          label="Catalog document (YAML or JSON)"
          rows={14}
          class="code"
          help="Paste a document that an export or the catalog CLI wrote, or one written by hand (its JSON Schema is linked at the top of an exported YAML file)."
        />
        <div class="field">
          <label for="f-file">Or upload a file</label>
          <input
            type="file"
            id="f-file"
            name="file"
            accept=".yaml,.yml,.json,application/json,application/yaml"
            aria-describedby="f-file-help"
          />
          <p class="help" id="f-file-help">
            A .yaml, .yml or .json file of at most 1 MB. It takes the place of the text above.
          </p>
        </div>
        <CheckboxField
          form={form}
          name="prune"
          label="Delete what the document leaves out (prune)"
          help="Without it, the app's objects that the document does not name are kept and listed."
        />
        <CheckboxField
          form={form}
          name="force"
          label="Apply changes that break running player state (force)"
          help="Deleting a challenge that players hold, or changing what it counts while they play it. Without it, the apply refuses them."
        />
        <button type="submit">Preview</button>
      </fieldset>
    </PostForm>
  );
}

/** The previewed plan and, when it can be applied, the confirmation that applies exactly it. */
function PlanPanel(props: { app: AppRow; preview: Preview; text: string; options: CatalogOptions }) {
  const { plan, digest } = props.preview;
  const { prune = false, force = false } = props.options;
  const changes = changeCount(plan);
  const refused = plan.blocked.length > 0 && !force;
  const deletes =
    plan.summary.delete > 0
      ? ` It deletes ${counted(plan.summary.delete, "object")}, with what players hold of them.`
      : "";
  return (
    <section class="panel" id="plan" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Preview</h2>
      <PlanDetails plan={plan} />
      {changes > 0 && refused && (
        <p class="notice notice-error">
          An apply would be refused. To apply these changes anyway, tick “Apply changes that break running player state”
          and preview again.
        </p>
      )}
      {changes > 0 && !refused && (
        <PostForm
          action={`${catalogBase(props.app)}/apply`}
          confirm={`Apply to ${props.app.name}: ${planCounts(plan)}?${deletes}`}
          swap="innerHTML"
        >
          <input type="hidden" name={TEXT_FIELD} value={props.text} />
          <input type="hidden" name="plan_digest" value={digest} />
          {prune && <input type="hidden" name="prune" value="on" />}
          {force && <input type="hidden" name="force" value="on" />}
          <p class="muted">
            Applies exactly this plan, all of it or nothing{prune ? ", deleting what the document leaves out" : ""}
            {force && plan.blocked.length > 0 ? ", including the changes that break running player state" : ""}.
          </p>
          <button type="submit">Apply {counted(changes, "change")}</button>
        </PostForm>
      )}
    </section>
  );
}

async function catalogPage(c: ConsoleContext, app: AppRow, state: ImportState, status: ContentfulStatusCode = 200) {
  const doc = await exportCatalog(c.env, String(app.app_id), c.get("now"));
  const reader = new FormReader(state.form.values);
  return renderAppPage(
    c,
    app,
    "catalog",
    {
      title: "Catalog",
      status,
      lead: "Catalog as code: the app's challenges, battle passes, leaderboards and webhooks as one document, by key.",
    },
    <>
      <ExportPanel app={app} doc={doc} origin={new URL(c.req.url).origin} />
      {canChange(c) ? (
        <section class="panel" aria-labelledby="import">
          <h2 id="import">Import</h2>
          <p>
            A preview shows what the document would create, update and delete, changing nothing; applying it then
            changes the app in one step.
          </p>
          <ImportForm app={app} form={state.form} />
        </section>
      ) : (
        <p class="muted">Importing a document needs an editor or an owner.</p>
      )}
      {state.preview && (
        <PlanPanel
          app={app}
          preview={state.preview}
          text={state.form.values[TEXT_FIELD] ?? ""}
          options={optionsOf(reader)}
        />
      )}
    </>,
  );
}

const appOf = (c: ConsoleContext) => requireApp(c.env.DB, c.req.param("appId")!);

async function exportFile(c: ConsoleContext, format: CatalogFormat) {
  const app = await appOf(c);
  const doc = await exportCatalog(c.env, String(app.app_id), c.get("now"));
  const text = formatCatalog(doc, format, `${new URL(c.req.url).origin}${CATALOG_SCHEMA_PATH}`);
  return c.body(text, 200, {
    "Content-Type": FORMATS[format].type,
    "Content-Disposition": `attachment; filename="app-${app.app_id}-catalog.${format}"`,
  });
}

export const catalogPages = consoleRouter()
  .get("/console/apps/:appId/catalog", async (c) =>
    catalogPage(c, await appOf(c), { form: emptyForm(), preview: null }),
  )
  .get("/console/apps/:appId/catalog.yaml", (c) => exportFile(c, "yaml"))
  .get("/console/apps/:appId/catalog.json", (c) => exportFile(c, "json"))
  .post("/console/apps/:appId/catalog/preview", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const values = await readForm(c);
    const submitted = await submittedText(c, values[TEXT_FIELD] ?? "");
    if ("problem" in submitted)
      return catalogPage(
        c,
        app,
        { form: { values, errors: { [TEXT_FIELD]: [submitted.problem] } }, preview: null },
        400,
      );
    const shown = { ...values, [TEXT_FIELD]: submitted.text };
    const planned = await planDocument(c, app, submitted.text, optionsOf(new FormReader(values)));
    if (!planned.ok)
      return catalogPage(
        c,
        app,
        { form: { values: shown, errors: documentErrors(planned.problems) }, preview: null },
        400,
      );
    return catalogPage(c, app, { form: emptyForm(shown), preview: planned.preview });
  })
  .post("/console/apps/:appId/catalog/apply", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const values = await readForm(c);
    const options = optionsOf(new FormReader(values));
    const planned = await planDocument(c, app, values[TEXT_FIELD] ?? "", options);
    if (!planned.ok)
      return catalogPage(c, app, { form: { values, errors: documentErrors(planned.problems) }, preview: null }, 400);
    // What the person confirmed is the preview's plan: if the app (or the form) changed since, they see the new plan
    // first.
    if (planned.preview.digest !== values.plan_digest) {
      const changed = {
        form: [
          "The plan is not the one previewed: the app's configuration changed since. Check the plan below, and apply again.",
        ],
      };
      return catalogPage(c, app, { form: { values, errors: changed }, preview: planned.preview }, 409);
    }
    try {
      const applied = await applyCatalog(
        c.env,
        String(app.app_id),
        planned.doc,
        options,
        c.get("now"),
        consoleActor(c),
      );
      return redirectWithNotice(c, catalogBase(app), `Catalog applied: ${planCounts(applied, true)}.`);
    } catch (err) {
      if (!isDomainError(err, "conflict")) throw err;
      const errors = err.problems?.length ? errorsOf(err.problems) : { form: [err.message] };
      return catalogPage(c, app, { form: { values, errors }, preview: planned.preview }, 409);
    }
  });
