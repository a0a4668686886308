import type { ServiceStatus } from "../../ops/status";
import { counted } from "../../kit/console/core/plural";
import { StatusBadge, Time } from "../../kit/console/ui/lists";

/** The service status (src/ops/status.ts) as the apps page and every app's dashboard show it. */

export const STATUS_PATH = "/console/status";

/** A warning's `commands` in backticks as code, the rest as text. */
function WithCode(props: { text: string }) {
  return <>{props.text.split("`").map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}

/** Every warning, where it cannot be missed; nothing at all when there is none. */
export function ServiceWarnings(props: { warnings: string[]; details?: boolean }) {
  if (props.warnings.length === 0) return null;
  return (
    <section class="panel warnings" role="alert" aria-labelledby="service-warnings">
      <h2 id="service-warnings">Service status: {counted(props.warnings.length, "warning")}</h2>
      <ul>
        {props.warnings.map((warning) => (
          <li>
            <WithCode text={warning} />
          </li>
        ))}
      </ul>
      {props.details && (
        <p>
          <a href={STATUS_PATH}>Service status →</a>
        </p>
      )}
    </section>
  );
}

/**
 * D1's migration level against the code's: behind is a warning; ahead is what a rollback leaves,
 * and fine, since migrations only add (docs/deploying.md, "Upgrading and rolling back").
 */
export function migrationState(d1: ServiceStatus["d1"]): "unreachable" | "behind" | "current" | "ahead" {
  if (!d1.reachable) return "unreachable";
  if (d1.latest_migration === null || d1.latest_migration < d1.expected_migration) return "behind";
  return d1.latest_migration === d1.expected_migration ? "current" : "ahead";
}

/** One line of what runs: version, environment, D1's migration level and the cron's last run. */
export function StatusSummary(props: { status: ServiceStatus }) {
  const { status } = props;
  return (
    <section class="panel" aria-labelledby="service-status">
      <h2 id="service-status">Service</h2>
      <dl class="facts">
        <dt>Version</dt>
        <dd>
          {status.version.service} <span class="muted">({status.environment})</span>
        </dd>
        <dt>D1</dt>
        <dd>
          {status.d1.reachable ? <code>{status.d1.latest_migration ?? "no migration"}</code> : "not reachable"}{" "}
          <StatusBadge status={migrationState(status.d1)} />
        </dd>
        <dt>Cron</dt>
        <dd>
          <Time iso={status.cron.last_run?.finished_at} empty="no run yet" />
        </dd>
        <dt>Warnings</dt>
        <dd>
          {status.warnings.length === 0 ? (
            <StatusBadge status="none" />
          ) : (
            <a href={STATUS_PATH}>{status.warnings.length}</a>
          )}
        </dd>
      </dl>
      <p>
        <a href={STATUS_PATH}>Service status →</a>
      </p>
    </section>
  );
}
