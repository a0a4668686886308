import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import { WEBHOOK_TYPES, type WebhookType } from "../../changes/types";
import { toIso } from "../../shared/clock";
import { isDomainError } from "../../shared/domain-errors";
import { endpointInput, redeliver, sendTestCall } from "../admin/actions";
import {
  attemptsOf,
  DELIVERY_STATUSES,
  listDeliveries,
  requireDelivery,
  type DeliveryStatus,
} from "../deliveries-repo";
import {
  deleteEndpoint,
  insertEndpoint,
  listEndpoints,
  replaceEndpoint,
  requireEndpoint,
  type EndpointRow,
} from "../endpoints-repo";
import { WebhookInput } from "../admin/schemas";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { decodeWebhook } from "../../kit/console/forms/simple";
import { submitForm } from "../../kit/console/forms/submit";
import {
  DeleteButton,
  emptyForm,
  FormErrors,
  PostForm,
  SelectField,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import { EmptyState, Pager, SearchForm, ShortCode, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { KeyField } from "../../kit/console/ui/key-field";
import { renderAppPage } from "../../kit/console/ui/render";

/** Webhook endpoints (with a test call) and the delivery log (each attempt, redelivery). */

const TYPE_HELP: Record<WebhookType, string> = {
  "challenge-changed": "a personal challenge of a player changed",
  "battlepass-challenge-changed": "a battle pass challenge of a player changed",
  "battlepass-level-reward-claimed": "a player claimed a level's reward",
  "battlepass-expired": "a battle pass ended (once per pass)",
  "leaderoard-updated": "a leaderboard ranking changed (the spec's spelling)",
  "user-erased": "a player's erasure completed (beyond the spec; names the erasure, not the player)",
  "points-changed": "a player's balance in a points system moved (beyond the spec)",
  "streak-extended": "a player kept a streak's period: its length rose (beyond the spec)",
  "streak-freeze-used": "a streak's period ended not kept and a freeze bridged it (beyond the spec)",
  "streak-freeze-earned": "a player earned a streak freeze (beyond the spec)",
  "streak-lost": "a player's streak was lost when a period ended (beyond the spec)",
  "streak-milestone": "a player's streak reached a milestone (beyond the spec)",
  "achievement-unlocked": "a player earned or was granted an achievement (beyond the spec)",
  "league-standings-changed": "the standings of a league cohort changed (beyond the spec)",
  "league-season-ended": "a league season ended: one call per cohort with its results (beyond the spec)",
  "league-result": "a player's result of a league season (beyond the spec)",
};
const TYPE_OPTIONS = WEBHOOK_TYPES.map((t) => [t, `${t}: ${TYPE_HELP[t]}`] as const);
const hooksBase = (app: AppRow) => `/console/apps/${app.app_id}/webhooks`;

function page(
  c: ConsoleContext,
  app: AppRow,
  title: string,
  crumbs: [string, string][],
  body: Child,
  status: ContentfulStatusCode = 200,
  actions?: Child,
) {
  return renderAppPage(c, app, "webhooks", { title, crumbs, status, actions }, body);
}

function EndpointForm(props: { form: FormState; action: string; submit: string; isNew: boolean }) {
  const { form } = props;
  return (
    <PostForm action={props.action}>
      <FormErrors errors={form.errors} fields={["key", "webhook_type", "url", "secret_key"]} />
      <fieldset disabled={form.readOnly}>
        <SelectField
          form={form}
          name="webhook_type"
          label="Type"
          options={TYPE_OPTIONS}
          help="Which changes this endpoint receives."
        />
        <KeyField form={form} derived="webhook" isNew={props.isNew} />
        <TextField
          form={form}
          name="url"
          label="URL"
          type="url"
          required
          placeholder="https://game.example.com/hooks/gamification"
          help="Called with POST and a JSON body. HTTPS; plain http only to loopback addresses in local development."
        />
        <TextField
          form={form}
          name="secret_key"
          label="Secret"
          help={`Sent as ?secret_key= and used to sign each call (Standard Webhooks headers). 8 to 256 printable characters.${props.isNew ? " Empty: a whsec_ secret is generated." : ""}`}
        />
        {!form.readOnly && <button type="submit">{props.submit}</button>}
      </fieldset>
    </PostForm>
  );
}

async function endpointsPage(c: ConsoleContext, app: AppRow, form: FormState, status: ContentfulStatusCode = 200) {
  const list = listQuery(c);
  const { rows, total } = await listEndpoints(c.env.DB, app.app_id, null, list, list.search);
  const base = hooksBase(app);
  return page(
    c,
    app,
    "Webhooks",
    [],
    <>
      <p>
        <a href={`${base}/deliveries`}>Delivery log →</a> every call with its attempts, for 30 days.
      </p>
      <SearchForm action={base} value={list.search} label="Search endpoints" placeholder="Part of the URL" />
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            {list.search ? (
              <p>No endpoint's URL contains “{list.search}”.</p>
            ) : (
              <p>
                No webhook endpoints yet. Add one below to receive the changes of your players, or{" "}
                <a href={`/console/apps/${app.app_id}/catalog`}>import a catalog</a>.
              </p>
            )}
          </EmptyState>
        ) : (
          <Table head={["Id", "Type", "URL", "State", "Created"]} numeric={[0]}>
            {rows.map((e) => (
              <tr>
                <td class="num">
                  <a href={`${base}/${e.webhook_id}`}>{e.webhook_id}</a>
                </td>
                <td>{e.webhook_type}</td>
                <td>
                  <a href={`${base}/${e.webhook_id}`}>
                    <ShortCode text={e.url} />
                  </a>
                </td>
                <td>{e.disabled_at ? <StatusBadge status="disabled" /> : <StatusBadge status="enabled" />}</td>
                <td>
                  <Time iso={e.created_at} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>
      {canChange(c) && (
        <section class="panel">
          <h2>Add an endpoint</h2>
          <EndpointForm form={form} action={base} submit="Add endpoint" isNew />
        </section>
      )}
    </>,
    status,
  );
}

function endpointPage(
  c: ConsoleContext,
  app: AppRow,
  endpoint: EndpointRow,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const path = `${hooksBase(app)}/${endpoint.webhook_id}`;
  const editor = canChange(c);
  return page(
    c,
    app,
    `Endpoint ${endpoint.webhook_id}`,
    [[hooksBase(app), "Webhooks"]],
    <>
      {endpoint.disabled_at && (
        <p class="notice notice-error" role="alert">
          Disabled since <Time iso={endpoint.disabled_at} />: {endpoint.disabled_reason}. Saving the endpoint enables it
          again.
        </p>
      )}
      <p>
        <a href={`${hooksBase(app)}/deliveries?webhook_id=${endpoint.webhook_id}`}>Deliveries to this endpoint →</a>
      </p>
      <EndpointForm form={{ ...form, readOnly: !editor }} action={path} submit="Save" isNew={false} />
    </>,
    status,
    editor && (
      <>
        <PostForm action={`${path}/test`} class="inline" swap="innerHTML">
          <button type="submit" class="secondary">
            Send test call
          </button>
        </PostForm>
        <DeleteButton
          action={`${path}/delete`}
          confirm={`Delete endpoint ${endpoint.webhook_id}? Its queued calls are not sent; its log stays.`}
        />
      </>
    ),
  );
}

const endpointForm = (e: EndpointRow) =>
  emptyForm({ key: e.key, webhook_type: e.webhook_type, url: e.url, secret_key: e.secret_key });

async function deliveriesPage(c: ConsoleContext, app: AppRow) {
  const list = listQuery(c);
  const statusFilter = c.req.query("status");
  const status = DELIVERY_STATUSES.includes(statusFilter as DeliveryStatus)
    ? (statusFilter as DeliveryStatus)
    : undefined;
  const webhookId = c.req.query("webhook_id") || undefined;
  const { rows, total } = await listDeliveries(c.env.DB, app.app_id, { status, webhook_id: webhookId }, list);
  const base = `${hooksBase(app)}/deliveries`;
  return page(
    c,
    app,
    "Delivery log",
    [[hooksBase(app), "Webhooks"]],
    <>
      <form method="get" action={base} class="search filters-bar">
        <label for="status">State</label>
        <select id="status" name="status">
          <option value="">any</option>
          {DELIVERY_STATUSES.map((s) => (
            <option value={s} selected={s === status}>
              {s === "pending" ? "pending (retrying)" : s}
            </option>
          ))}
        </select>
        <label for="webhook-id">Endpoint id</label>
        <input id="webhook-id" name="webhook_id" inputmode="numeric" value={webhookId ?? ""} />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>
              No deliveries{status || webhookId ? " match" : " yet"}. Calls appear here when players' changes reach an
              endpoint, or after a test call.
            </p>
          </EmptyState>
        ) : (
          <Table head={["Id", "Type", "URL", "State", "Attempts", "Last answer", "Last attempt"]} numeric={[0, 4, 5]}>
            {rows.map((d) => (
              <tr>
                <td class="num">
                  <a href={`${base}/${d.delivery_id}`}>{d.delivery_id}</a>
                </td>
                <td>{d.webhook_type}</td>
                <td>
                  <ShortCode text={d.url ?? d.override_url ?? "—"} />
                </td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td class="num">{d.attempt_count}</td>
                <td class="num">{d.last_status_code ?? "—"}</td>
                <td>
                  <Time iso={d.last_attempt_at} empty="not yet" seconds />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} extra={{ status, webhook_id: webhookId }} />
      </div>
    </>,
  );
}

async function deliveryPage(c: ConsoleContext, app: AppRow, deliveryId: string) {
  const row = await requireDelivery(c.env.DB, app.app_id, deliveryId);
  const attempts = await attemptsOf(c.env.DB, row.delivery_id);
  const path = `${hooksBase(app)}/deliveries/${row.delivery_id}`;
  let payload = row.payload;
  try {
    payload = JSON.stringify(JSON.parse(row.payload), null, 2);
  } catch {
    // Shown as stored.
  }
  return page(
    c,
    app,
    `Delivery ${row.delivery_id}`,
    [
      [hooksBase(app), "Webhooks"],
      [`${hooksBase(app)}/deliveries`, "Delivery log"],
    ],
    <>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <StatusBadge status={row.status} />
          {row.next_attempt_at && row.status === "pending" && (
            <>
              {" "}
              next attempt <Time iso={row.next_attempt_at} seconds />
            </>
          )}
        </dd>
        <dt>Type</dt>
        <dd>{row.webhook_type}</dd>
        <dt>Endpoint</dt>
        <dd>{row.webhook_id === null ? "—" : <a href={`${hooksBase(app)}/${row.webhook_id}`}>{row.webhook_id}</a>}</dd>
        <dt>URL</dt>
        <dd>
          <code>{row.url ?? row.override_url ?? "—"}</code>
        </dd>
        <dt>webhook-id</dt>
        <dd>
          <code>{row.message_id}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time iso={row.created_at} seconds />
        </dd>
      </dl>
      <section class="panel">
        <h2>Attempts</h2>
        {attempts.length === 0 ? (
          <EmptyState>
            <p>No attempt yet{row.last_error ? `: ${row.last_error}` : "."}</p>
          </EmptyState>
        ) : (
          <Table head={["#", "When", "Status", "Latency (ms)", "Outcome", "Response"]} numeric={[0, 2, 3]}>
            {attempts.map((a) => (
              <tr>
                <td class="num">{a.attempt_number}</td>
                <td>
                  <Time iso={a.attempted_at} />
                </td>
                <td class="num">{a.status_code ?? "—"}</td>
                <td class="num">{a.latency_ms ?? "—"}</td>
                <td>
                  <StatusBadge status={a.outcome} />
                </td>
                <td class="snippet">{a.error ?? (a.outcome === "succeeded" ? "2xx" : "—")}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section class="panel">
        <h2>Body</h2>
        <pre class="json">{payload}</pre>
      </section>
    </>,
    200,
    canChange(c) && row.status !== "pending" && (
      <PostForm action={`${path}/redeliver`} class="inline" swap="innerHTML">
        <button type="submit">Redeliver</button>
      </PostForm>
    ),
  );
}

export const webhookPages = consoleRouter()
  .get("/console/apps/:appId/webhooks", async (c) =>
    endpointsPage(
      c,
      await requireApp(c.env.DB, c.req.param("appId")),
      emptyForm({ webhook_type: "challenge-changed" }),
    ),
  )
  .post("/console/apps/:appId/webhooks", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeWebhook,
      schema: WebhookInput,
      save: async (input) => {
        const row = await insertEndpoint(
          c.env.DB,
          app.app_id,
          endpointInput(c.env, input),
          toIso(c.get("now")),
          consoleActor(c),
        );
        return redirectWithNotice(
          c,
          `${hooksBase(app)}/${row.webhook_id}`,
          `Endpoint ${row.webhook_id} added. Send a test call to check it.`,
        );
      },
      render: (form, status) => endpointsPage(c, app, form, status),
    });
  })
  .get("/console/apps/:appId/webhooks/:webhookId{[0-9]+}", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const endpoint = await requireEndpoint(c.env.DB, app.app_id, c.req.param("webhookId"));
    return endpointPage(c, app, endpoint, endpointForm(endpoint));
  })
  .post("/console/apps/:appId/webhooks/:webhookId{[0-9]+}", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const endpoint = await requireEndpoint(c.env.DB, app.app_id, c.req.param("webhookId"));
    return submitForm(c, {
      decode: decodeWebhook,
      schema: WebhookInput,
      save: async (input) => {
        await replaceEndpoint(c.env.DB, endpoint, endpointInput(c.env, input), toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, c.req.path, `Endpoint ${endpoint.webhook_id} saved.`);
      },
      render: (form, status) => endpointPage(c, app, endpoint, form, status),
    });
  })
  .post("/console/apps/:appId/webhooks/:webhookId{[0-9]+}/test", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const endpoint = await requireEndpoint(c.env.DB, app.app_id, c.req.param("webhookId"));
    const back = `${hooksBase(app)}/${endpoint.webhook_id}`;
    try {
      const delivery = await sendTestCall(c.env, app, endpoint, c.get("now"));
      return redirectWithNotice(
        c,
        `${hooksBase(app)}/deliveries/${delivery.delivery_id}`,
        "Test call queued: its attempts appear below.",
      );
    } catch (err) {
      if (isDomainError(err, "conflict")) return redirectWithNotice(c, back, err.message, "error");
      throw err;
    }
  })
  .post("/console/apps/:appId/webhooks/:webhookId{[0-9]+}/delete", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const endpoint = await requireEndpoint(c.env.DB, app.app_id, c.req.param("webhookId"));
    await deleteEndpoint(c.env.DB, endpoint, consoleActor(c));
    return redirectWithNotice(c, hooksBase(app), `Endpoint ${endpoint.webhook_id} deleted.`);
  })
  .get("/console/apps/:appId/webhooks/deliveries", async (c) =>
    deliveriesPage(c, await requireApp(c.env.DB, c.req.param("appId"))),
  )
  .get("/console/apps/:appId/webhooks/deliveries/:deliveryId{[0-9]+}", async (c) =>
    deliveryPage(c, await requireApp(c.env.DB, c.req.param("appId")), c.req.param("deliveryId")),
  )
  .post("/console/apps/:appId/webhooks/deliveries/:deliveryId{[0-9]+}/redeliver", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireDelivery(c.env.DB, app.app_id, c.req.param("deliveryId"));
    const back = `${hooksBase(app)}/deliveries/${row.delivery_id}`;
    try {
      await redeliver(c.env, app.app_id, row, c.get("now"));
    } catch (err) {
      if (isDomainError(err, "conflict")) return redirectWithNotice(c, back, err.message, "error");
      throw err;
    }
    return redirectWithNotice(c, back, `Delivery ${row.delivery_id} queued again with the same webhook-id.`);
  });
