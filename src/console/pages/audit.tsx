import { auditedResources, listAuditEntries, presentAuditEntry } from "../../apps/admin/audit-repo";
import { AuditQuery } from "../../apps/admin/audit-schemas";
import type { FieldProblem } from "../../shared/domain-errors";
import { problemSentence } from "../../shared/problems";
import { problemsOfIssues } from "../../kit/console/core/form";
import { requireApp, type AppRow } from "../../apps/repo";
import { actorLabel, fieldChanges, shownResourceId, shownValue } from "../core/audit";
import { consoleRouter, listQuery, type ConsoleContext } from "../../kit/console/http";
import { EmptyState, Pager, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { PageHeader, renderAppPage, renderPage } from "../../kit/console/ui/render";

/** The audit log of an app, and of what is not one app's (apps, console users): read by every role. */

type Entry = ReturnType<typeof presentAuditEntry>;
const AuditFilters = AuditQuery.pick({ resource: true, resource_id: true, actor: true, from: true, to: true });
type Filters = Partial<Record<keyof typeof AuditFilters.shape, string>>;
const FILTER_LABELS: Record<keyof Filters, string> = {
  resource: "Resource",
  resource_id: "Object id",
  actor: "Actor",
  from: "From",
  to: "To",
};

/**
 * The query's filters, checked with the admin API's own rules: a filter it would refuse is a problem shown on the page
 * (400).
 */
function filtersOf(c: ConsoleContext): { filters: Filters; problems: FieldProblem[] } {
  const filters: Filters = {};
  for (const name of Object.keys(FILTER_LABELS) as (keyof Filters)[]) {
    const value = (c.req.query(name) ?? "").trim();
    if (value) filters[name] = value;
  }
  const parsed = AuditFilters.safeParse(filters);
  return { filters, problems: parsed.success ? [] : problemsOfIssues(parsed.error.issues, filters) };
}

function FilterProblems({ problems }: { problems: FieldProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div class="form-errors" role="alert">
      <p>The filters were not applied:</p>
      <ul>
        {problems.map((p) => (
          <li>{problemSentence(p, FILTER_LABELS[p.field as keyof Filters])}</li>
        ))}
      </ul>
    </div>
  );
}

function Changes({ entry }: { entry: Entry }) {
  const fields = fieldChanges(entry.before, entry.after);
  if (fields.length === 0) return <span class="muted">—</span>;
  return (
    <details>
      <summary>
        {fields.length === 1 ? "1 field" : `${fields.length} fields`}:{" "}
        {fields
          .slice(0, 3)
          .map((f) => f.field)
          .join(", ")}
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
  const { filters, problems } = filtersOf(c);
  const appId = app?.app_id ?? null;
  const [{ rows, total }, resources] = await Promise.all([
    problems.length > 0 ? { rows: [], total: 0 } : listAuditEntries(c.env.DB, appId, filters, list),
    auditedResources(c.env.DB, appId),
  ]);
  const entries = rows.map(presentAuditEntry);
  const filtered = Object.keys(filters).length > 0;
  const body = (
    <>
      <form method="get" action={base} class="search filters-bar">
        <div class="filter">
          <label for="audit-resource">Resource</label>
          <select id="audit-resource" name="resource">
            <option value="">any</option>
            {(filters.resource && !resources.includes(filters.resource)
              ? [...resources, filters.resource]
              : resources
            ).map((r) => (
              <option value={r} selected={r === filters.resource}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div class="filter">
          <label for="audit-resource-id">Object id</label>
          <input
            id="audit-resource-id"
            name="resource_id"
            value={filters.resource_id ?? ""}
            placeholder="42, player id"
          />
        </div>
        <div class="filter">
          <label for="audit-actor">Actor</label>
          <input id="audit-actor" name="actor" value={filters.actor ?? ""} placeholder="email, X-Actor, api-key" />
        </div>
        <div class="filter">
          <label for="audit-from">From</label>
          <input id="audit-from" name="from" type="date" value={filters.from ?? ""} />
        </div>
        <div class="filter">
          <label for="audit-to">To</label>
          <input id="audit-to" name="to" type="date" value={filters.to ?? ""} />
        </div>
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      <FilterProblems problems={problems} />
      <div id="list">
        {entries.length === 0 ? (
          <EmptyState>
            <p>
              {filtered
                ? "No entry matches."
                : "Nothing recorded yet. Every change of configuration and every action on a player appears here."}
            </p>
          </EmptyState>
        ) : (
          <Table head={["When", "Who", "What", "From", "Changes"]}>
            {entries.map((e) => (
              <tr>
                <td class="nowrap">
                  <Time iso={e.at} seconds />
                </td>
                <td class="wrap">
                  {actorLabel(e.actor)}
                  {/* Other kinds' labels name their kind already. */}
                  {e.actor.kind === "console-user" && <span class="muted"> (console user)</span>}
                </td>
                <td>
                  {e.resource} <code title={e.resource_id ?? undefined}>{shownResourceId(e.resource_id)}</code>{" "}
                  <StatusBadge status={e.action} />
                  {e.outcome === "refused" && (
                    <>
                      {" "}
                      <StatusBadge status="refused" />
                    </>
                  )}
                </td>
                <td class="wrap">
                  {e.origin.channel}
                  {e.origin.ip && <span class="muted"> · {e.origin.ip}</span>}
                </td>
                <td class="snippet changes">
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
  return { body, status: problems.length > 0 ? (400 as const) : (200 as const) };
}

const LEAD =
  "Who changed what, when and from where: configuration changes, API keys and actions on players. Secrets never appear.";

export const auditPages = consoleRouter()
  .get("/console/audit", async (c) => {
    const { body, status } = await auditLog(c, null, "/console/audit");
    return renderPage(
      c,
      { title: "Audit log", section: "console-audit", status },
      <>
        <PageHeader
          title="Audit log"
          lead="What is not one app's: apps created, renamed and deleted, and console users. An app's own log is on its page."
        />
        {body}
      </>,
    );
  })
  .get("/console/apps/:appId/audit", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const { body, status } = await auditLog(c, app, `/console/apps/${app.app_id}/audit`);
    return renderAppPage(c, app, "audit", { title: "Audit log", lead: LEAD, status }, body);
  });
