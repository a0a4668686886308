import { auditedResources, listAuditEntries, presentAuditEntry } from "../../apps/admin/audit-repo";
import { requireApp, type AppRow } from "../../apps/repo";
import { actorLabel, fieldChanges, shownValue } from "../core/audit";
import { consoleRouter, listQuery, type ConsoleContext } from "../http";
import { EmptyState, Pager, StatusBadge, Table, Time } from "../ui/lists";
import { PageHeader, renderAppPage, renderPage } from "../ui/render";

/** The audit log of an app, and of what is not one app's (apps, console users): read by every role. */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
type Entry = ReturnType<typeof presentAuditEntry>;

/** The filters of the query; a date that is not YYYY-MM-DD (what a date input sends) is left out, never an error. */
function filtersOf(c: ConsoleContext) {
  const text = (name: string, max: number) => (c.req.query(name) ?? "").trim().slice(0, max) || undefined;
  const day = (name: string) => {
    const value = c.req.query(name) ?? "";
    return ISO_DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined;
  };
  return { resource: text("resource", 64), actor: text("actor", 100), from: day("from"), to: day("to") };
}

function Changes({ entry }: { entry: Entry }) {
  const fields = fieldChanges(entry.before, entry.after);
  if (fields.length === 0) return <span class="muted">—</span>;
  return (
    <details>
      <summary>
        {fields.length === 1 ? "1 field" : `${fields.length} fields`}: {fields.slice(0, 3).map((f) => f.field).join(", ")}
        {fields.length > 3 ? ", …" : ""}
      </summary>
      <dl class="facts">
        {fields.map((f) => (
          <>
            <dt>{f.field}</dt>
            <dd>
              <code>{shownValue(f.before)}</code> → <code>{shownValue(f.after)}</code>
            </dd>
          </>
        ))}
      </dl>
    </details>
  );
}

async function auditLog(c: ConsoleContext, app: AppRow | null, base: string) {
  const list = listQuery(c, 50);
  const filters = filtersOf(c);
  const appId = app?.app_id ?? null;
  const [{ rows, total }, resources] = await Promise.all([listAuditEntries(c.env.DB, appId, filters, list), auditedResources(c.env.DB, appId)]);
  const entries = rows.map(presentAuditEntry);
  const filtered = Object.values(filters).some((v) => v !== undefined);
  return (
    <>
      <form method="get" action={base} class="search filters-bar">
        <label for="audit-resource">Resource</label>
        <select id="audit-resource" name="resource">
          <option value="">any</option>
          {resources.map((r) => (
            <option value={r} selected={r === filters.resource}>
              {r}
            </option>
          ))}
        </select>
        <label for="audit-actor">Actor</label>
        <input id="audit-actor" name="actor" value={filters.actor ?? ""} placeholder="email, X-Actor name, api-key" />
        <label for="audit-from">From</label>
        <input id="audit-from" name="from" type="date" value={filters.from ?? ""} />
        <label for="audit-to">To</label>
        <input id="audit-to" name="to" type="date" value={filters.to ?? ""} />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      <div id="list">
        {entries.length === 0 ? (
          <EmptyState>
            <p>{filtered ? "No entry matches." : "Nothing recorded yet. Every change of configuration and every action on a player appears here."}</p>
          </EmptyState>
        ) : (
          <Table head={["When", "Who", "What", "From", "Changes"]}>
            {entries.map((e) => (
              <tr>
                <td>
                  <Time iso={e.at} />
                </td>
                <td>
                  {actorLabel(e.actor)} <span class="muted">({e.actor.kind})</span>
                </td>
                <td>
                  {e.resource} <code>{e.resource_id ?? ""}</code> <StatusBadge status={e.action} />
                  {e.outcome === "refused" && <StatusBadge status="refused" />}
                </td>
                <td>
                  {e.origin.channel}
                  {e.origin.ip && <span class="muted"> · {e.origin.ip}</span>}
                </td>
                <td class="snippet">
                  <Changes entry={e} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} extra={filters} />
      </div>
    </>
  );
}

const LEAD = "Who changed what, when and from where: configuration changes, API keys and actions on players. Secrets never appear.";

export const auditPages = consoleRouter()
  .get("/console/audit", async (c) =>
    renderPage(
      c,
      { title: "Audit log", section: "console-audit" },
      <>
        <PageHeader title="Audit log" lead="What is not one app's: apps created, renamed and deleted, and console users. An app's own log is on its page." />
        {await auditLog(c, null, "/console/audit")}
      </>,
    ),
  )
  .get("/console/apps/:appId/audit", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const base = `/console/apps/${app.app_id}/audit`;
    return renderAppPage(c, app, "audit", { title: "Audit log", lead: LEAD }, await auditLog(c, app, base));
  });
