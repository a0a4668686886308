import { serviceStatus, type ServiceStatus } from "../../ops/status";
import { isDevelopment } from "../../shared/secrets";
import { consoleRouter } from "../../kit/console/http";
import { StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { PageHeader, renderPage } from "../../kit/console/ui/render";
import { migrationState, ServiceWarnings, STATUS_PATH } from "./status-panel";

/** The service's status, what `GET /api/v1/admin/status` answers, for every signed-in role. */

/** `scheduledUrl`: in development, where the cron runs on request (wrangler dev --test-scheduled). */
function CronRun(props: { run: ServiceStatus["cron"]["last_run"]; scheduledUrl: string | null }) {
  const { run } = props;
  if (!run) {
    return (
      <span class="muted">
        {props.scheduledUrl ? (
          <>
            No run yet: locally the cron runs on request (<code>curl {props.scheduledUrl}</code>).
          </>
        ) : (
          "No run yet: it runs every minute."
        )}
      </span>
    );
  }
  return (
    <>
      <Time iso={run.finished_at} />{" "}
      {run.failed_tasks.length === 0 ? (
        <StatusBadge status="succeeded" />
      ) : (
        <>failed in {run.failed_tasks.join(", ")}</>
      )}
    </>
  );
}

function Versions(props: { caption: string; versions: Record<string, number> }) {
  return (
    <Table caption={props.caption} head={["Area", "Schema version"]} numeric={[1]}>
      {Object.entries(props.versions).map(([area, version]) => (
        <tr>
          <td>{area}</td>
          <td class="num">{version}</td>
        </tr>
      ))}
    </Table>
  );
}

function StatusDetails(props: { status: ServiceStatus; scheduledUrl: string | null }) {
  const { status } = props;
  const { build } = status.version;
  return (
    <>
      <section class="panel" aria-labelledby="what-runs">
        <h2 id="what-runs">What runs</h2>
        <dl class="facts">
          <dt>Environment</dt>
          <dd>{status.environment}</dd>
          <dt>Version</dt>
          <dd>{status.version.service}</dd>
          <dt>Build</dt>
          <dd>
            {build.id ? (
              <>
                <code>{build.id}</code>
                {build.tag && <> · tag {build.tag}</>}
                {build.timestamp && (
                  <>
                    {" "}
                    · uploaded <Time iso={build.timestamp} />
                  </>
                )}
              </>
            ) : (
              <span class="muted">no version metadata (not a deployed Worker)</span>
            )}
          </dd>
          <dt>D1</dt>
          <dd>
            {status.d1.reachable ? (
              <>
                latest migration <code>{status.d1.latest_migration ?? "none"}</code>, the code expects{" "}
                <code>{status.d1.expected_migration}</code> <StatusBadge status={migrationState(status.d1)} />
              </>
            ) : (
              <StatusBadge status="unreachable" />
            )}
          </dd>
          <dt>Queues</dt>
          <dd>
            {Object.entries(status.queues).map(([binding, present]) => (
              <>
                <code>{binding}</code> <StatusBadge status={present ? "present" : "missing"} />{" "}
              </>
            ))}
          </dd>
          <dt>Cron</dt>
          <dd>
            <CronRun run={status.cron.last_run} scheduledUrl={props.scheduledUrl} />
          </dd>
        </dl>
      </section>
      <section class="panel" aria-labelledby="schemas">
        <h2 id="schemas">Durable Object schemas</h2>
        <p class="muted">
          Each object applies its areas' migrations when it starts; these are the versions this code brings.
        </p>
        <div class="grid two">
          <Versions caption="A user's object" versions={status.schemas.user_object} />
          <Versions caption="MQTT broker" versions={status.schemas.broker} />
        </div>
      </section>
    </>
  );
}

export const statusPages = consoleRouter().get(STATUS_PATH, async (c) => {
  const status = await serviceStatus(c.env, c.get("now"));
  return renderPage(
    c,
    { title: "Service status", section: "status" },
    <>
      <PageHeader
        title="Service status"
        lead={
          <>
            What <code>GET /api/v1/admin/status</code> answers: the running version, whether D1 and the objects' schemas
            match it, and what is unsafe.
          </>
        }
      />
      <ServiceWarnings warnings={status.warnings} />
      {status.warnings.length === 0 && (
        <p class="notice notice-success">No warnings: nothing unsafe or broken was found.</p>
      )}
      <StatusDetails
        status={status}
        scheduledUrl={isDevelopment(c.env) ? `${new URL(c.req.url).origin}/__scheduled` : null}
      />
    </>,
  );
});
