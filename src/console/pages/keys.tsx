import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiKeyInput } from "../../auth/admin/schemas";
import { listApiKeys, requireApiKey, revokeApiKey } from "../../auth/admin/repo";
import { requireApp, type AppRow } from "../../apps/repo";
import { insertApiKey } from "../../auth/api-keys";
import { toIso } from "../../shared/clock";
import {
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { decodeApiKey } from "../../kit/console/forms/simple";
import { submitForm } from "../../kit/console/forms/submit";
import { emptyForm, FormErrors, PostForm, TextField, type FormState } from "../../kit/console/ui/forms";
import { EmptyState, Pager, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";

/** An app's API keys (owners only): create one (the key is shown once), revoke one. */

async function keysPage(
  c: ConsoleContext,
  app: AppRow,
  form: FormState,
  created: { name: string; key: string } | null,
  status: ContentfulStatusCode = 200,
) {
  const list = listQuery(c);
  const { rows, total } = await listApiKeys(c.env.DB, app.app_id, list);
  const base = `/console/apps/${app.app_id}/keys`;
  return renderAppPage(
    c,
    app,
    "keys",
    {
      title: "API keys",
      status,
      lead: "Backends use a key to mint access tokens for players, send events and reset challenges. Only a hash is stored: a key is shown once.",
    },
    <>
      {created && (
        <section class="panel new-key" role="status">
          <h2>Key “{created.name || "unnamed"}” created</h2>
          <p>Copy it now: it is not shown again.</p>
          <div class="copy-row">
            <code id="new-key">{created.key}</code>
            <button type="button" class="secondary" data-copy="#new-key">
              Copy
            </button>
          </div>
        </section>
      )}
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>No API keys yet. Create one below for your game's backend.</p>
          </EmptyState>
        ) : (
          <Table head={["Name", "Key starts with", "Created", "State", ""]}>
            {rows.map((key) => (
              <tr>
                <td>{key.name || <span class="muted">unnamed</span>}</td>
                <td>
                  <code>{key.key_prefix}…</code>
                </td>
                <td>
                  <Time iso={key.created_at} />
                </td>
                <td>{key.revoked_at ? <StatusBadge status="revoked" /> : <StatusBadge status="active" />}</td>
                <td class="actions">
                  {!key.revoked_at && (
                    <PostForm
                      action={`${base}/${key.key_id}/revoke`}
                      confirm={`Revoke key ${key.name || key.key_prefix}? Requests with it fail from now on.`}
                    >
                      <button type="submit" class="danger small">
                        Revoke
                      </button>
                    </PostForm>
                  )}
                  {key.revoked_at && (
                    <span class="muted">
                      <Time iso={key.revoked_at} />
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>
      <section class="panel">
        <h2>Create an API key</h2>
        <PostForm action={base}>
          <FormErrors errors={form.errors} fields={["name"]} />
          <TextField
            form={form}
            name="name"
            label="Name"
            placeholder="game server"
            help="What uses the key, so that you know what a revocation stops."
          />
          <button type="submit">Create key</button>
        </PostForm>
      </section>
    </>,
  );
}

export const keysPages = consoleRouter()
  .get("/console/apps/:appId/keys", async (c) => {
    guard(c, "administer");
    return keysPage(c, await requireApp(c.env.DB, c.req.param("appId")), emptyForm(), null);
  })
  .post("/console/apps/:appId/keys", async (c) => {
    guard(c, "administer");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeApiKey,
      schema: ApiKeyInput,
      save: async (input) => {
        const { key, row } = await insertApiKey(c.env.DB, app.app_id, input, c.get("now"), consoleActor(c));
        return keysPage(c, app, emptyForm(), { name: row.name, key }, 201);
      },
      render: (form, status) => keysPage(c, app, form, null, status),
    });
  })
  .post("/console/apps/:appId/keys/:keyId/revoke", async (c) => {
    guard(c, "administer");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const key = await requireApiKey(c.env.DB, app.app_id, c.req.param("keyId"));
    await revokeApiKey(c.env.DB, key, toIso(c.get("now")), consoleActor(c));
    return redirectWithNotice(c, `/console/apps/${app.app_id}/keys`, `Key ${key.name || key.key_prefix} revoked.`);
  });
