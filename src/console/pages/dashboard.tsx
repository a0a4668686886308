import { requireApp } from "../../apps/repo";
import { countEvents, countsPerDay, listMonthUsage } from "../../events/channel";
import { AREAS } from "../../registry/areas";
import { toIso } from "../../shared/clock";
import { deliveryHealth } from "../../webhooks/channel";
import { serviceStatus } from "../../ops/status";
import { consoleRouter } from "../../kit/console/http";
import { recentMonths } from "../core/periods";
import { BarChart, ShareBar, StackedBarChart } from "../../kit/console/ui/charts";
import { playersReport, unusedEvents } from "../../players/analytics";
import { addDays, utcDay, type RetentionPoint, type RetentionRow } from "../../players/core/player-analytics";
import { invalid } from "../../shared/domain-errors";
import { EmptyState, Table } from "../../kit/console/ui/lists";
import { PageHeader, renderPage } from "../../kit/console/ui/render";
import { ServiceWarnings } from "./status-panel";

/**
 * An app's dashboard: who plays (players per day, retention, events by hour), events per day and
 * the event names nothing counts over a chosen range, unlocked challenges per month, webhook
 * health, and the areas' panels (leaderboards).
 */

const DAY_MS = 86_400_000;
const USAGE_MONTHS = 12;
/** The ranges the dashboard offers, in days up to today; the first page shows the default. */
const RANGES = [7, 30, 90] as const;
const DEFAULT_RANGE = 30;
const formatCount = (n: number) => n.toLocaleString("en-US");
const percent = (share: number) => `${Math.round(share * 100)}%`;

/** The range picker: links, so that a range is a URL to reload, bookmark or share. */
function RangePicker(props: { base: string; days: number }) {
  return (
    <nav class="range-picker" aria-label="Range of the dashboard">
      <span class="muted">Range, UTC days up to today:</span>
      {RANGES.map((days) => (
        <a
          href={days === DEFAULT_RANGE ? props.base : `${props.base}?days=${days}`}
          aria-current={days === props.days ? "page" : undefined}
        >
          {days} days
        </a>
      ))}
    </nav>
  );
}

function RetentionCell(props: { point: RetentionPoint | null }) {
  if (!props.point) return <td class="num muted">not yet</td>;
  return (
    <td class="num">
      {percent(props.point.share)} <span class="muted count">({formatCount(props.point.players)})</span>
    </td>
  );
}

function RetentionTable(props: { rows: RetentionRow[] }) {
  if (props.rows.length === 0) {
    return (
      <EmptyState>
        <p>No new players in the range yet: retention shows once players come back on a later day.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <p class="muted">
        The share of each day's new players who were active again 1, 7 and 30 days later (players in brackets).
      </p>
      <Table head={["First day", "New", "Day 1", "Day 7", "Day 30"]} numeric={[1, 2, 3, 4]}>
        {props.rows.map((row) => (
          <tr>
            <th scope="row">{row.first_day}</th>
            <td class="num">{formatCount(row.new_players)}</td>
            <RetentionCell point={row.day_1} />
            <RetentionCell point={row.day_7} />
            <RetentionCell point={row.day_30} />
          </tr>
        ))}
      </Table>
    </>
  );
}

export const dashboardPages = consoleRouter().get("/console/apps/:appId", async (c) => {
  const app = await requireApp(c.env.DB, c.req.param("appId"));
  const now = c.get("now");
  const appId = String(app.app_id);
  const asked = c.req.query("days");
  const rangeDays = asked === undefined || asked === "" ? DEFAULT_RANGE : Number(asked);
  if (!RANGES.includes(rangeDays as (typeof RANGES)[number])) {
    throw invalid(`The dashboard shows 7, 30 or 90 days, not “${asked}”.`);
  }
  const today = utcDay(now);
  const firstDay = addDays(today, -(rangeDays - 1));
  const from = Date.parse(`${firstDay}T00:00:00Z`);
  const [events, usage, health, panels, service, players, unused] = await Promise.all([
    countEvents(c.env.DB, app.app_id, from, now + 1),
    listMonthUsage(c.env.DB, app.app_id, { currentPage: 1, pageSize: USAGE_MONTHS }),
    deliveryHealth(c.env.DB, app.app_id, toIso(now - DAY_MS)),
    // Every area's panel (its plugin's `console.dashboardPanel`), in the registry's order.
    Promise.all(AREAS.map((area) => area.console?.dashboardPanel?.(c.env, app, now) ?? null)),
    serviceStatus(c.env, now),
    playersReport(c.env.DB, app.app_id, firstDay, today, now),
    unusedEvents(c.env.DB, app.app_id, firstDay, today),
  ]);
  const unlockedByMonth = new Map(usage.items.map((m) => [m.month, m.unlocked_challenges]));
  const eventsByDay = countsPerDay(from, now + 1, events.byDay).map((d) => ({ label: d.day, value: d.count }));
  const unlocks = recentMonths(now, USAGE_MONTHS).map((month) => ({
    label: month,
    value: unlockedByMonth.get(month) ?? 0,
  }));
  const base = `/console/apps/${appId}`;
  const playerDays = players.days.map((d) => ({ label: d.day, values: [d.returning, d.new] }));
  const activeOf = new Map(players.days.map((d) => [d.day, d]));
  const hours = players.events_by_hour.map((h) => ({
    label: `${h.hour.slice(0, 10)} ${h.hour.slice(11, 16)}`,
    value: h.count,
  }));

  return renderPage(
    c,
    { title: app.name, section: "dashboard", app },
    <>
      <PageHeader title={app.name} lead={`Dashboard of app ${appId}. Default language ${app.default_language}.`} />
      <ServiceWarnings warnings={service.warnings} details />
      <RangePicker base={base} days={rangeDays} />
      <div class="grid two">
        <section class="panel" id="players">
          <h2>Players per day</h2>
          <DataStarts starts={players.data_starts} from={firstDay} />
          <StackedBarChart
            id="players-per-day"
            title={`Last ${rangeDays} days, by UTC day: active players, new and returning`}
            points={playerDays}
            series={[
              { label: "returning players", tone: "accent" },
              { label: "new players", tone: "good" },
            ]}
            unit="players"
            axis="UTC day"
            empty={`No player active in the last ${rangeDays} days. Send an event from the event tester, or from your game.`}
            describe={(p) => {
              const d = activeOf.get(p.label)!;
              return `${d.day}: ${formatCount(d.active)} active players (${formatCount(d.new)} new, ${formatCount(d.returning)} returning)`;
            }}
          />
        </section>
        <section class="panel" id="retention">
          <h2>Retention</h2>
          <RetentionTable rows={players.retention} />
        </section>
        <section class="panel">
          <h2>Events per hour, last 48 hours</h2>
          <BarChart
            id="events-per-hour"
            title="By UTC hour, the current hour last"
            points={hours}
            unit="events"
            axis="UTC hour"
            empty="No events in the last 48 hours."
          />
        </section>
        <section class="panel" id="unused-events">
          <h2>Events that nothing counts</h2>
          <UnusedEvents items={unused.items} days={rangeDays} />
        </section>
        <section class="panel">
          <h2>Events per day</h2>
          <BarChart
            id="events-per-day"
            title={`Last ${rangeDays} days, by UTC day`}
            points={eventsByDay}
            unit="events"
            axis="UTC day"
            empty={`No events in the last ${rangeDays} days. Send one from the event tester, or from your game.`}
          />
          {events.byName.length > 0 && (
            <p class="muted">
              Most sent:{" "}
              {events.byName
                .slice(0, 3)
                .map((e) => `${e.event_name} (${formatCount(e.count)})`)
                .join(", ")}
            </p>
          )}
        </section>
        <section class="panel">
          <h2>Unlocked challenges per month</h2>
          <BarChart
            id="unlocks-per-month"
            title={`Last ${USAGE_MONTHS} months`}
            points={unlocks}
            unit="unlocks"
            axis="UTC month"
            empty="No challenge unlocked yet."
          />
          <p class="muted">Each unlock, automatic or manual, counts once toward the month's usage.</p>
        </section>
        <section class="panel">
          <h2>Webhook deliveries, last 24 hours</h2>
          <ShareBar
            title="Calls that changed in the last 24 hours, by state"
            parts={[
              { label: "Succeeded", value: health.succeeded, tone: "good" },
              { label: "Retrying", value: health.pending, tone: "warn" },
              { label: "Failed", value: health.failed, tone: "bad" },
            ]}
          />
          <p>
            <a href={`${base}/webhooks/deliveries`}>Delivery log</a>
            {health.failed > 0 && (
              <>
                {" · "}
                <a href={`${base}/webhooks/deliveries?status=failed`}>{formatCount(health.failed)} failed</a>
              </>
            )}
          </p>
        </section>
        {panels}
      </div>
    </>,
  );
});

/** Where the players per day start: days before the first counted one show no players. */
function DataStarts(props: { starts: string | null; from: string }) {
  if (props.starts === null) {
    return (
      <p class="notice data-starts">
        No player counted yet: players are counted from their next event, each on the UTC days they are active.
      </p>
    );
  }
  if (props.starts <= props.from) return null;
  return (
    <p class="notice data-starts">
      Players are counted from <strong>{props.starts}</strong>: earlier days show none. Players from before count from
      their next event, as returning players.
    </p>
  );
}

function UnusedEvents(props: { items: { event_name: string; count: number; similar: string[] }[]; days: number }) {
  if (props.items.length === 0) {
    return (
      <EmptyState>
        <p>
          Every event name received in the last {props.days} days counts toward something in this app (a challenge, a
          leaderboard, points, a streak...).
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <p class="muted">
        Received in the last {props.days} days and counted by nothing in this app: often a mistyped name. An event of
        any name is accepted.
      </p>
      <Table head={["Event name", "Events", "Did you mean"]} numeric={[1]}>
        {props.items.map((e) => (
          <tr>
            <td>
              <code>{e.event_name}</code>
            </td>
            <td class="num">{formatCount(e.count)}</td>
            <td>
              {e.similar.length === 0 ? (
                <span class="muted">none</span>
              ) : (
                e.similar.map((name, i) => (
                  <>
                    {i > 0 && ", "}
                    <code>{name}</code>
                  </>
                ))
              )}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
