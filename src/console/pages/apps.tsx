import { AppInput } from "../../apps/admin/schemas";
import { deleteApp, createApp, listApps, updateApp } from "../../apps/admin/repo";
import { requireApp, type AppRow } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { serviceStatus } from "../../ops/status";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  readForm,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { appToForm, decodeApp } from "../forms/apps";
import { DEFAULT_RATE_LIMITS } from "../../apps/settings";
import { submitForm } from "../../kit/console/forms/submit";
import { emptyForm, FormErrors, PostForm, TextArea, TextField, type FormState } from "../../kit/console/ui/forms";
import { EmptyState, Pager, SearchForm, Table, Time } from "../../kit/console/ui/lists";
import { PageHeader, renderPage } from "../../kit/console/ui/render";
import { ServiceWarnings, StatusSummary } from "./status-panel";

/** The apps: the list (the console's start page), creating one, renaming and deleting one. */

const LANGUAGE_HELP =
  "Language code (en, de-AT) of texts given as plain strings, and the fallback when a request asks for a missing language.";

const perMinute = (n: number) => `Empty: the service's default, ${n.toLocaleString("en-US")}.`;

/** The app's fair-play settings (docs/fair-play.md): what only the backend may send, and intake's rate limits. */
function FairPlayFields({ form }: { form: FormState }) {
  return (
    <fieldset class="form-section">
      <legend>Fair play</legend>
      <TextArea
        form={form}
        name="backend_only_events"
        label="Backend-only events"
        rows={3}
        help="Event names a game client may not send, one a line: an access token's event of one of these is refused (403); the studio's backend sends them with an API key."
      />
      <div class="grid two">
        <TextField
          form={form}
          name="rate_limits.per_user_per_minute"
          label="Events per player a minute"
          type="number"
          min="1"
          help={`In any 60 seconds, whatever the credential (exact); past it intake answers 429. ${perMinute(DEFAULT_RATE_LIMITS.perUserPerMinute)}`}
        />
        <TextField
          form={form}
          name="rate_limits.per_app_per_minute"
          label="Events of the whole app a minute"
          type="number"
          min="1"
          help={`Approximate (about a second of traffic over). ${perMinute(DEFAULT_RATE_LIMITS.perAppPerMinute)}`}
        />
      </div>
    </fieldset>
  );
}

const APP_FIELDS = ["name", "default_language", "backend_only_events", "rate_limits"];

/** Creating an app asks for its name and language; its settings page adds the fair-play settings. */
function AppForm(props: { form: FormState; action: string; submit: string; fairPlay?: boolean }) {
  return (
    <PostForm action={props.action}>
      <FormErrors errors={props.form.errors} fields={APP_FIELDS} />
      <fieldset disabled={props.form.readOnly}>
        <TextField form={props.form} name="name" label="Name" required help="Shown in the console only." />
        <TextField
          form={props.form}
          name="default_language"
          label="Default language"
          placeholder="en"
          help={LANGUAGE_HELP}
        />
        {props.fairPlay && <FairPlayFields form={props.form} />}
        {!props.form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}

async function appsPage(c: ConsoleContext, createForm: FormState, status: ContentfulStatusCode = 200) {
  const list = listQuery(c);
  const [{ rows, total }, service] = await Promise.all([
    listApps(c.env.DB, list, { orderBy: "name", search: list.search }),
    serviceStatus(c.env, c.get("now")),
  ]);
  const owner = canChange(c, "administer");
  return renderPage(
    c,
    { title: "Apps", section: "apps", status },
    <>
      <PageHeader
        title="Apps"
        lead="Each app is one game or product: its own API keys, challenges, battle passes, leaderboards and webhooks."
      />
      <ServiceWarnings warnings={service.warnings} details />
      <SearchForm action="/console" value={list.search} label="Search apps" placeholder="Name" />
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            {list.search ? (
              <p>No app matches “{list.search}”.</p>
            ) : (
              <p>No apps yet. {owner ? "Create one below." : "An owner can create one."}</p>
            )}
          </EmptyState>
        ) : (
          <Table head={["Name", "App id", "Default language", "Created"]} numeric={[1]}>
            {rows.map((app) => (
              <tr>
                <td>
                  <a href={`/console/apps/${app.app_id}`}>{app.name}</a>
                </td>
                <td class="num">{app.app_id}</td>
                <td>{app.default_language}</td>
                <td>
                  <Time iso={app.created_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base="/console" list={{ ...list, total }} />
      </div>
      {owner && (
        <section class="panel">
          <h2>Create an app</h2>
          <AppForm form={createForm} action="/console/apps" submit="Create app" />
        </section>
      )}
      <StatusSummary status={service} />
    </>,
  );
}

function settingsPage(
  c: ConsoleContext,
  app: AppRow,
  form: FormState,
  status: ContentfulStatusCode = 200,
  deleteError?: string,
) {
  const owner = canChange(c, "administer");
  return renderPage(
    c,
    { title: `Settings · ${app.name}`, section: "settings", app, status },
    <>
      <PageHeader
        title="Settings"
        crumbs={[[`/console/apps/${app.app_id}`, app.name]]}
        lead={`App id ${app.app_id}: the id in the API's paths and in access tokens.`}
      />
      <section class="panel">
        <h2>App</h2>
        <AppForm
          form={{ ...form, readOnly: !owner }}
          action={`/console/apps/${app.app_id}/settings`}
          submit="Save"
          fairPlay
        />
      </section>
      {owner && (
        <section class="panel danger-zone">
          <h2>Delete this app</h2>
          <p>
            Deletes the app with its API keys, challenges, battle passes, leaderboards, webhooks and statistics. Games
            using its keys stop working at once. This cannot be undone.
          </p>
          <PostForm action={`/console/apps/${app.app_id}/delete`} swap="innerHTML">
            <div class={`field${deleteError ? " invalid" : ""}`}>
              <label for="confirm-name">Type the app's name, {app.name}, to confirm</label>
              <input
                id="confirm-name"
                name="confirm_name"
                autocomplete="off"
                aria-invalid={deleteError ? "true" : undefined}
                aria-describedby={deleteError ? "confirm-name-errors" : undefined}
              />
              {deleteError && (
                <ul class="field-errors" id="confirm-name-errors">
                  <li>{deleteError}</li>
                </ul>
              )}
            </div>
            <button type="submit" class="danger">
              Delete app
            </button>
          </PostForm>
        </section>
      )}
    </>,
  );
}

const appFormOf = (app: AppRow): FormState => emptyForm(appToForm(app));

export const appsPages = consoleRouter()
  .get("/console", (c) => appsPage(c, emptyForm({ default_language: "en" })))
  .post("/console/apps", async (c) => {
    guard(c, "administer");
    return submitForm(c, {
      decode: decodeApp,
      schema: AppInput,
      save: async (input) => {
        const app = await createApp(c.env.DB, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(
          c,
          `/console/apps/${app.app_id}`,
          `App ${app.name} created. Next: create an API key for your game.`,
        );
      },
      render: (form, status) => appsPage(c, form, status),
    });
  })
  .get("/console/apps/:appId/settings", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return settingsPage(c, app, appFormOf(app));
  })
  .post("/console/apps/:appId/settings", async (c) => {
    guard(c, "administer");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeApp,
      schema: AppInput,
      save: async (input) => {
        await updateApp(c.env.DB, app, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `/console/apps/${app.app_id}/settings`, "Settings saved.");
      },
      render: (form, status) => settingsPage(c, app, form, status),
    });
  })
  .post("/console/apps/:appId/delete", async (c) => {
    guard(c, "administer");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const typed = ((await readForm(c)).confirm_name ?? "").trim();
    if (typed !== app.name) {
      return settingsPage(
        c,
        app,
        appFormOf(app),
        400,
        typed ? `“${typed}” is not this app's name.` : "Type the app's name to confirm.",
      );
    }
    await deleteApp(c.env.DB, app, consoleActor(c));
    return redirectWithNotice(c, "/console", `App ${app.name} deleted.`);
  });
