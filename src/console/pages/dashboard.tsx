import { requireApp } from "../../apps/repo";
import { countEvents } from "../../events/channel";
import { countsPerDay, DEFAULT_RANGE_DAYS } from "../../events/channel";
import { listMonthUsage } from "../../events/channel";
import { AREAS } from "../../registry/areas";
import { toIso } from "../../shared/clock";
import { deliveryHealth } from "../../webhooks/channel";
import { serviceStatus } from "../../ops/status";
import { consoleRouter } from "../../kit/console/http";
import { recentMonths } from "../core/periods";
import { BarChart, ShareBar } from "../../kit/console/ui/charts";
import { PageHeader, renderPage } from "../../kit/console/ui/render";
import { ServiceWarnings } from "./status-panel";

/** An app's dashboard: events per day, unlocked challenges per month, webhook health, and the areas' panels (leaderboards). */

const DAY_MS = 86_400_000;
const USAGE_MONTHS = 12;
const formatCount = (n: number) => n.toLocaleString("en-US");

export const dashboardPages = consoleRouter().get("/console/apps/:appId", async (c) => {
  const app = await requireApp(c.env.DB, c.req.param("appId"));
  const now = c.get("now");
  const appId = String(app.app_id);
  const from = Math.floor(now / DAY_MS) * DAY_MS - (DEFAULT_RANGE_DAYS - 1) * DAY_MS;
  const [events, usage, health, panels, service] = await Promise.all([
    countEvents(c.env.DB, app.app_id, from, now + 1),
    listMonthUsage(c.env.DB, app.app_id, { currentPage: 1, pageSize: USAGE_MONTHS }),
    deliveryHealth(c.env.DB, app.app_id, toIso(now - DAY_MS)),
    // Every area's panel (its plugin's `console.dashboardPanel`), in the registry's order.
    Promise.all(AREAS.map((area) => area.console?.dashboardPanel?.(c.env, app, now) ?? null)),
    serviceStatus(c.env, now),
  ]);
  const unlockedByMonth = new Map(usage.items.map((m) => [m.month, m.unlocked_challenges]));
  const eventsByDay = countsPerDay(from, now + 1, events.byDay).map((d) => ({ label: d.day, value: d.count }));
  const unlocks = recentMonths(now, USAGE_MONTHS).map((month) => ({
    label: month,
    value: unlockedByMonth.get(month) ?? 0,
  }));
  const base = `/console/apps/${appId}`;

  return renderPage(
    c,
    { title: app.name, section: "dashboard", app },
    <>
      <PageHeader title={app.name} lead={`Dashboard of app ${appId}. Default language ${app.default_language}.`} />
      <ServiceWarnings warnings={service.warnings} details />
      <div class="grid two">
        <section class="panel">
          <h2>Events per day</h2>
          <BarChart
            id="events-per-day"
            title={`Last ${DEFAULT_RANGE_DAYS} days, by UTC day`}
            points={eventsByDay}
            unit="events"
            empty="No events in the last 30 days. Send one from the event tester, or from your game."
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
