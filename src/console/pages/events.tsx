import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import { fieldType, predefinedEvent } from "../../rules/predefined-events";
import { validateEvent } from "../../events/channel";
import { takeEvents } from "../../events/channel";
import { appTrust } from "../../auth/trust";
import { AREAS } from "../../registry/areas";
import { topicName } from "../../realtime/channel";
import { canChange, consoleRouter, guard, readForm, type ConsoleContext } from "../../kit/console/http";
import { editRows, errorsOf, isControl, rowsOf, type FormValues } from "../../kit/console/core/form";
import { emptyRowFor } from "../../kit/console/forms/common";
import { catalogFields, decodeEvent } from "../../kit/console/forms/events";
import {
  AddRowButton,
  CsrfField,
  FormErrors,
  RemoveRowButton,
  SelectField,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import { EventCatalogData, jsonData } from "../../kit/console/ui/counter-fields";
import { renderAppPage } from "../../kit/console/ui/render";
import { countedEventNames, type CountedEventNames } from "../../players/counted-event-names";
import { similarNames } from "../../players/core/similar-names";

/**
 * The event tester: an event of the catalog (or any name), a form made from its fields, sent as a
 * chosen player through the same intake as POST /api/v1/events. Beside it, the browser listens to
 * the player's MQTT topics over WebSocket, exactly as a game does, and shows what the event changed.
 */

const EVENT_TYPES = [
  ["single", "single (adds)"],
  ["group", "group (replaces)"],
] as const;
const FIXED_FIELDS = [
  "user_id",
  "event_name",
  "event_type",
  "session_id",
  "team_id",
  "event_id",
  "meta_data",
  "custom",
];

interface Sent {
  payload: Record<string, unknown>;
}

/**
 * The topics a game of this app would listen on for this player: every area's (its plugin's
 * `playerTopics`). A topic several areas share (the notifications topic) is listed once, its label
 * naming them all: "notifications (points, streaks)".
 */
async function playerTopics(env: Env, app: AppRow, userId: string) {
  const refs = (await Promise.all(AREAS.map((area) => area.playerTopics?.(env, app, userId) ?? []))).flat();
  const byRef = new Map<string, { labels: string[]; ref: (typeof refs)[number]["ref"] }>();
  for (const { label, ref } of refs) {
    const key = JSON.stringify(ref);
    const seen = byRef.get(key);
    if (seen) seen.labels.push(label);
    else byRef.set(key, { labels: [label], ref });
  }
  return Promise.all(
    [...byRef.values()].map(async ({ labels, ref }) => ({
      label: sharedLabel(labels),
      topic: await topicName(env, ref),
    })),
  );
}

/** "notifications (points)" and "notifications (streaks)" make "notifications (points, streaks)". */
function sharedLabel(labels: string[]): string {
  if (labels.length === 1) return labels[0];
  const parts = labels.map((label) => /^(.*) \((.*)\)$/.exec(label));
  const base = parts[0]?.[1];
  if (parts.some((p) => p === null || p[1] !== base)) return labels.join(", ");
  return `${base} (${parts.map((p) => p![2]).join(", ")})`;
}

function MetaFields(props: { form: FormState; eventName: string }) {
  const event = predefinedEvent(props.eventName);
  const customRows = rowsOf(props.form.values, "custom");
  return (
    <fieldset class="field meta">
      <legend>Meta data</legend>
      {event ? (
        <div class="grid three">
          {catalogFields(props.eventName).map((field) => (
            <TextField
              form={props.form}
              name={`meta_data.${field}`}
              label={field}
              type={fieldType(field) === "number" ? "number" : "text"}
              required={event.required.includes(field)}
              help={`${event.required.includes(field) ? "Required" : "Optional"}, ${fieldType(field) === "number" ? "a whole number" : "text"}.`}
            />
          ))}
        </div>
      ) : (
        <p class="muted">
          {props.eventName
            ? "Not an event of the catalog: give it any fields below (whole numbers or text)."
            : "Choose an event to see its fields."}
        </p>
      )}
      {customRows.map((_, i) => (
        <div class="filter-row">
          <TextField form={props.form} name={`custom.${i}.key`} label="Field" />
          <TextField form={props.form} name={`custom.${i}.value`} label="Value" />
          <RemoveRowButton row={`custom.${i}`} label={`Remove field ${i + 1}`} readOnly={props.form.readOnly} />
        </div>
      ))}
      <AddRowButton list="custom" label="Add a field" readOnly={props.form.readOnly} />
    </fieldset>
  );
}

/**
 * Said under the event name before it is sent: that no configuration counts it (it would be
 * accepted and change nothing), with the counted names within two edits. Empty for a counted name.
 */
function NameCheck(props: { eventName: string; counted: CountedEventNames }) {
  const { eventName, counted: countedNames } = props;
  const counted = countedNames.names;
  if (!eventName || countedNames.everyEvent || counted.includes(eventName)) return null;
  const similar = similarNames(eventName, counted);
  return (
    <div class="notice name-warning">
      <p>
        Nothing in this app counts <code>{eventName}</code>: the event is accepted and changes nothing.
        {counted.length === 0 && " This app counts no event yet."}
      </p>
      {similar.length > 0 && (
        <p>
          Did you mean{" "}
          {similar.map((name, i) => (
            <>
              {i > 0 && (i === similar.length - 1 ? " or " : ", ")}
              <button type="button" class="secondary small" data-use-event-name={name}>
                {name}
              </button>
            </>
          ))}
          ?
        </p>
      )}
    </div>
  );
}

function TesterPanel(props: { app: AppRow; form: FormState; sent: Sent | null; counted: CountedEventNames }) {
  const { app, form } = props;
  const action = `/console/apps/${app.app_id}/events`;
  const eventName = (form.values.event_name ?? "").trim();
  const swap = { "hx-target": "#tester-panel", "hx-select": "#tester-panel", "hx-swap": "outerHTML" };
  return (
    <div id="tester-panel">
      <form method="post" action={action} hx-post={action} novalidate {...swap}>
        <CsrfField />
        <FormErrors errors={form.errors} fields={FIXED_FIELDS} />
        <fieldset disabled={form.readOnly}>
          <div class="grid two">
            <TextField
              form={form}
              name="user_id"
              label="Player (user id)"
              required
              class="live-user"
              help="The event is sent for this player, as a backend does with its API key."
            />
            <div>
              <TextField
                form={form}
                name="event_name"
                label="Event"
                required
                list="catalog-events"
                help="One of the catalog's 64 events, or any name of your own."
                attrs={{
                  "hx-get": `${action}/name-check`,
                  "hx-trigger": "input changed delay:250ms",
                  "hx-target": "#event-name-check",
                  "hx-swap": "innerHTML",
                  // Not the form's: its select picks the whole panel out of a full page.
                  "hx-select": "unset",
                  "hx-sync": "this:queue last",
                }}
              />
              <div id="event-name-check" role="status" aria-live="polite">
                <NameCheck eventName={eventName} counted={props.counted} />
              </div>
              <button
                type="submit"
                class="secondary small"
                formmethod="get"
                formaction={action}
                hx-get={action}
                hx-include="closest form"
                hx-params="not _csrf"
                {...swap}
              >
                Show its fields
              </button>
            </div>
          </div>
          <MetaFields form={form} eventName={eventName} />
          <div class="grid three">
            <SelectField
              form={form}
              name="event_type"
              label="Event type"
              options={EVENT_TYPES}
              help="single adds to counters, group replaces them."
            />
            <TextField
              form={form}
              name="session_id"
              label="Session id"
              placeholder="persistent"
              help="A new session restarts session-scoped counters."
            />
            <TextField
              form={form}
              name="team_id"
              label="Team id"
              help="Optional: counts for this team on team leaderboards."
            />
          </div>
          <TextField
            form={form}
            name="event_id"
            label="Event id"
            help="Optional: an event with an id already seen in the last 48 hours is accepted and not applied again."
          />
          {!form.readOnly && <button type="submit">Send event</button>}
        </fieldset>
      </form>
      <div id="send-result" role="status">
        {props.sent && (
          <div class="panel sent">
            <h2>Accepted</h2>
            <p>
              The intake answered <code>{'{"status":200,"message":"OK"}'}</code>. What it changed appears under Live
              changes.
            </p>
            <pre class="json">{JSON.stringify(props.sent.payload, null, 2)}</pre>
            <p class="muted">
              The same from a backend: <code>POST /api/v1/events</code> with the app's API key and this body.
            </p>
          </div>
        )}
      </div>
    </div>
  );
}

async function testerPage(
  c: ConsoleContext,
  app: AppRow,
  form: FormState,
  sent: Sent | null,
  status: ContentfulStatusCode = 200,
) {
  const userId = (form.values.user_id ?? "").trim();
  const [topics, counted] = await Promise.all([
    userId ? playerTopics(c.env, app, userId) : [],
    countedEventNames(c.env.DB, app.app_id),
  ]);
  const editor = canChange(c);
  return renderAppPage(
    c,
    app,
    "events",
    {
      title: "Event tester",
      status,
      lead: "Send an event as a player and watch what it changes, live, on the player's MQTT topics. Events sent here are real: they move the player's progress and count in the statistics.",
    },
    <>
      <EventCatalogData />
      <div class="tester">
        <section class="panel">
          <h2>Event</h2>
          <TesterPanel app={app} form={{ ...form, readOnly: !editor }} sent={sent} counted={counted} />
        </section>
        <section class="panel live" id="live" data-live data-topics-url={`/console/apps/${app.app_id}/events/topics`}>
          <h2>Live changes</h2>
          <p class="live-status" role="status">
            {userId ? "Connecting…" : "Enter a player to listen to their topics."}
          </p>
          {jsonData("live-topics", { userId, topics })}
          <ol class="live-log" aria-live="polite"></ol>
          <p class="muted">
            Each message is what a game subscribed to the topic receives: the body of the matching webhook.
          </p>
        </section>
      </div>
    </>,
  );
}

/** The form's values from a GET (event chosen, fields shown) or a link (`?user_id=`). */
function valuesOfQuery(c: ConsoleContext): FormValues {
  const values: FormValues = {};
  for (const [name, value] of Object.entries(c.req.query())) if (!isControl(name)) values[name] = value;
  return values;
}

export const eventPages = consoleRouter()
  .get("/console/apps/:appId/events", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const values = { event_type: "single", ...valuesOfQuery(c) };
    return testerPage(c, app, { values, errors: {} }, null);
  })
  .get("/console/apps/:appId/events/name-check", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const eventName = (c.req.query("event_name") ?? "").trim().slice(0, 256);
    const counted = eventName ? await countedEventNames(c.env.DB, app.app_id) : { names: [], everyEvent: false };
    return c.html(<NameCheck eventName={eventName} counted={counted} />);
  })
  .get("/console/apps/:appId/events/topics", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = (c.req.query("user_id") ?? "").trim().slice(0, 256);
    return c.json({ userId, topics: userId ? await playerTopics(c.env, app, userId) : [] });
  })
  .post("/console/apps/:appId/events", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const values = await readForm(c);
    const edited = editRows(values, emptyRowFor(app.default_language));
    if (edited) return testerPage(c, app, { values: edited, errors: {} }, null);
    const decoded = decodeEvent(values);
    const checked = validateEvent(decoded.input, { mode: "api_key" });
    if (!checked.ok || decoded.problems.length > 0) {
      const problems = [...decoded.problems, ...(checked.ok ? [] : checked.errors)];
      return testerPage(c, app, { values: decoded.values, errors: errorsOf(problems) }, null, 400);
    }
    // Sent as the studio's backend would (an API key): the app's bans and rate limits apply.
    const appId = String(app.app_id);
    const now = c.get("now");
    const ctx = {
      env: c.env,
      appId,
      trust: await appTrust(c.env.DB, appId),
      now,
      waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
    };
    const [outcome] = await takeEvents(ctx, [{ ...checked.event, appId, receivedAt: now }]);
    if (outcome.kind === "failed") throw outcome.error;
    if (outcome.kind !== "accepted") {
      const message =
        outcome.kind === "forbidden"
          ? outcome.message
          : `Past the ${outcome.refusal.policy} rate limit; try again in ${Math.ceil(outcome.refusal.retryAfterMs / 1000)} s`;
      return testerPage(
        c,
        app,
        { values: decoded.values, errors: { user_id: [message] } },
        null,
        outcome.kind === "forbidden" ? 403 : 429,
      );
    }
    return testerPage(c, app, { values: decoded.values, errors: {} }, { payload: decoded.input });
  });
