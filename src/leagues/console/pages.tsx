import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import type { Decoded, FormValues } from "../../kit/console/core/form";
import { FormReader } from "../../kit/console/core/form";
import { flag } from "../../kit/console/forms/common";
import { submitForm } from "../../kit/console/forms/submit";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import {
  CheckboxField,
  DeleteButton,
  emptyForm,
  FormErrors,
  PostForm,
  SelectField,
  TextArea,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import { EmptyState, Pager, Table } from "../../kit/console/ui/lists";
import { playerPath } from "../../kit/console/ui/nav";
import { renderAppPage } from "../../kit/console/ui/render";
import { toIso } from "../../shared/clock";
import { localize } from "../../shared/localize";
import { deleteLeague, insertLeague, listLeagues, presentLeagueRow, requireLeague, updateLeague } from "../admin/repo";
import { LeagueInput } from "../admin/schemas";
import { toLeagueDef } from "../catalog";
import { seasonRulesOf } from "../core/model";
import { seasonAt, seasonIdOf } from "../core/season";
import { parseRules, presentCohort, readSeason, readStandings, type CohortRow } from "../store";

/**
 * Leagues: the list, a form per league (tiers, rewards and filters as JSON, the admin API's own
 * shape), and on a league's page the current season's cohorts per tier with their standings.
 */

type LeagueView = ReturnType<typeof presentLeagueRow>;
const leaguesPath = (app: AppRow) => `/console/apps/${app.app_id}/leagues`;
const FIELDS = [
  "key",
  "name",
  "event_name",
  "value_field",
  "aggregation",
  "cohort_size",
  "promote",
  "demote",
  "period",
  "reset_at_time",
  "time_zone",
  "authoritative",
  "min_value",
  "max_value",
  "tiers",
  "rewards",
  "filters",
];
const TIERS_EXAMPLE = '[{"key": "bronze", "name": "Bronze"}, {"key": "silver", "name": "Silver"}]';
const REWARDS_EXAMPLE =
  '[{"tier": null, "rank_min": 1, "rank_max": 3, "points_rewards": [{"system": "coins", "amount": 50}]}]';
/** Cohorts shown on a league's page; the rest are counted. */
const COHORTS_SHOWN = 60;

const json = (value: unknown) => (Array.isArray(value) && value.length === 0 ? "" : JSON.stringify(value, null, 2));
const nameText = (value: unknown, defaultLanguage: string) =>
  typeof value === "string" ? value : localize(value as Record<string, string>, undefined, defaultLanguage);

function leagueToForm(l: LeagueView): FormValues {
  return {
    key: l.key,
    name: typeof l.name === "string" ? l.name : JSON.stringify(l.name),
    event_name: l.event_name,
    value_field: l.value_field ?? "",
    aggregation: l.aggregation,
    cohort_size: String(l.cohort_size),
    promote: String(l.promote),
    demote: String(l.demote),
    period: l.schedule.period,
    reset_at_time: l.schedule.reset_at_time,
    time_zone: l.schedule.time_zone,
    authoritative: flag(l.authoritative),
    min_value: l.min_value === null ? "" : String(l.min_value),
    max_value: l.max_value === null ? "" : String(l.max_value),
    tiers: json(l.tiers),
    rewards: json(l.rewards),
    filters: json(l.filters),
  };
}

function decodeLeague(values: FormValues): Decoded {
  const form = new FormReader(values);
  const input = {
    key: form.text("key"),
    name: form.localized("name"),
    event_name: form.text("event_name"),
    value_field: form.nullableText("value_field"),
    aggregation: form.text("aggregation") || undefined,
    cohort_size: form.integer("cohort_size"),
    promote: form.integer("promote"),
    demote: form.integer("demote"),
    schedule: {
      period: form.text("period"),
      reset_at_time: form.text("reset_at_time") || undefined,
      time_zone: form.text("time_zone") || undefined,
    },
    authoritative: form.checked("authoritative"),
    min_value: form.integer("min_value") ?? null,
    max_value: form.integer("max_value") ?? null,
    tiers: form.json("tiers"),
    rewards: form.json("rewards"),
    filters: form.json("filters"),
  };
  return { input, problems: form.problems, values };
}

function LeagueForm(props: { form: FormState; action: string; creating: boolean }) {
  const { form } = props;
  return (
    <PostForm action={props.action}>
      <FormErrors errors={form.errors} fields={FIELDS} />
      <div class="grid two">
        <TextField form={form} name="key" label="Key" required help="e.g. weekly-xp: how documents name it." />
        <TextField form={form} name="name" label="Name" required help='Text, or JSON per language: {"en": "League"}.' />
        <TextField form={form} name="event_name" label="Event name" required help="The event whose values count." />
        <TextField form={form} name="value_field" label="Value field" help="Meta data field; empty: amount, else 1." />
        <SelectField
          form={form}
          name="aggregation"
          label="Score"
          options={[
            ["sum", "sum of the season's values"],
            ["max", "highest value of the season"],
          ]}
        />
        <TextField form={form} name="cohort_size" label="Cohort size" type="number" min="2" help="2 to 100." />
        <TextField form={form} name="promote" label="Promoted per full cohort" type="number" min="0" />
        <TextField form={form} name="demote" label="Demoted per full cohort" type="number" min="0" />
        <SelectField
          form={form}
          name="period"
          label="Season"
          options={[
            ["weekly", "weekly, from Monday"],
            ["daily", "daily"],
          ]}
        />
        <TextField form={form} name="reset_at_time" label="Season ends at" help="HH:MM:SS in the zone." />
        <TextField form={form} name="time_zone" label="Time zone" help="IANA, e.g. Europe/Berlin." />
        <TextField form={form} name="min_value" label="Lowest value of one event" type="number" help="Empty: none." />
        <TextField form={form} name="max_value" label="Highest value of one event" type="number" help="Empty: none." />
      </div>
      <CheckboxField
        form={form}
        name="authoritative"
        label="Authoritative: only the studio's backend (API key) counts"
      />
      <TextArea
        form={form}
        name="tiers"
        label="Tiers (lowest first)"
        rows={5}
        help={`JSON, 1 to 20 tiers; changes apply from the next season. Example: ${TIERS_EXAMPLE}`}
      />
      <TextArea
        form={form}
        name="rewards"
        label="Rewards"
        rows={4}
        help={`JSON; a result gets the first entry covering its tier (null: all) and rank. Example: ${REWARDS_EXAMPLE}`}
      />
      <TextArea
        form={form}
        name="filters"
        label="Filters"
        rows={2}
        help='JSON, e.g. [{"field": "mode", "op": "eq", "value": "ranked"}].'
      />
      <button type="submit">{props.creating ? "Create league" : "Save"}</button>
    </PostForm>
  );
}

/** The current season's cohorts per tier, highest tier first, each with its standings. */
async function currentSeason(env: Env, app: AppRow, l: LeagueView, now: number) {
  const league = toLeagueDef(rowOf(l));
  const season = seasonAt(league.schedule, now);
  const seasonRow = await readSeason(env.DB, league.id, season.startsAt);
  const rules = seasonRow ? parseRules(seasonRow.rules) : seasonRulesOf(league);
  const [cohorts, total] = await env.DB.batch<unknown>([
    env.DB.prepare(
      "SELECT * FROM league_cohorts WHERE league_id = ? AND season_start = ? ORDER BY tier DESC, cohort_no LIMIT ?",
    ).bind(Number(league.id), season.startsAt, COHORTS_SHOWN),
    env.DB.prepare(
      "SELECT COUNT(*) AS cohorts, COALESCE(SUM(members), 0) AS players FROM league_cohorts WHERE league_id = ? AND season_start = ?",
    ).bind(Number(league.id), season.startsAt),
  ]);
  const standings = await readStandings(env.DB, String(app.app_id), cohorts.results as CohortRow[], rules);
  return { season, seasonRow, rules, standings, totals: total.results[0] as { cohorts: number; players: number } };
}

const rowOf = (l: LeagueView) => ({
  league_id: Number(l.league_id),
  app_id: Number(l.app_id),
  key: l.key,
  name: JSON.stringify(l.name),
  event_name: l.event_name,
  filters: JSON.stringify(l.filters),
  value_field: l.value_field,
  aggregation: l.aggregation,
  tiers: JSON.stringify(l.tiers),
  cohort_size: l.cohort_size,
  promote: l.promote,
  demote: l.demote,
  schedule: JSON.stringify(l.schedule),
  rewards: JSON.stringify(l.rewards),
  authoritative: l.authoritative ? 1 : 0,
  min_value: l.min_value,
  max_value: l.max_value,
  created_at: l.created_at,
  updated_at: l.updated_at,
});

const ZONE_MARK = { promotion: "▲ up", safe: "", demotion: "▼ down" } as const;

function SeasonPanel(props: { app: AppRow; data: Awaited<ReturnType<typeof currentSeason>> }) {
  const { app, data } = props;
  const tiers = data.rules.tiers;
  return (
    <section class="panel" id="season">
      <h2>Season {seasonIdOf(data.season.startsAt).slice(0, 10)}</h2>
      <p class="muted">
        {new Date(data.season.startsAt).toISOString().replace("T", " ").slice(0, 16)} to{" "}
        {new Date(data.season.endsAt).toISOString().replace("T", " ").slice(0, 16)} UTC ·{" "}
        {data.totals.players.toLocaleString("en-US")} players in {data.totals.cohorts.toLocaleString("en-US")} cohorts
        {data.seasonRow && data.seasonRow.state !== "open" ? ` · ${data.seasonRow.state}` : ""}
      </p>
      {data.standings.length === 0 ? (
        <EmptyState>
          <p>Nobody has played this season yet: a player joins at their first qualifying event.</p>
        </EmptyState>
      ) : (
        [...tiers.keys()].reverse().map((tier) => {
          const cohorts = data.standings.filter((s) => Math.min(s.cohort.tier, tiers.length - 1) === tier);
          if (cohorts.length === 0) return null;
          return (
            <div class="tier">
              <h3>
                {nameText(tiers[tier].name, app.default_language)} <span class="muted">({tiers[tier].key})</span>
              </h3>
              {cohorts.map((s) => {
                const cohort = presentCohort(s);
                return (
                  <div class="cohort">
                    <h4>
                      Cohort {s.cohort.cohort_no}{" "}
                      <span class="muted">
                        · {cohort.members.length}/{cohort.size}
                        {s.cohort.closed ? " · full" : " · open"}
                      </span>
                    </h4>
                    <Table head={["Rank", "Player", "Score", "Zone"]}>
                      {cohort.members.map((m) => (
                        <tr>
                          <td class="num">{m.rank}</td>
                          <td>
                            <a href={playerPath(app, m.member_id)}>{m.additional_info.username ?? m.member_id}</a>
                          </td>
                          <td class="num">{m.score.toLocaleString("en-US")}</td>
                          <td>{ZONE_MARK[m.zone]}</td>
                        </tr>
                      ))}
                    </Table>
                  </div>
                );
              })}
            </div>
          );
        })
      )}
    </section>
  );
}

export const leaguePages = consoleRouter()
  .get("/console/apps/:appId/leagues", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const list = listQuery(c);
    const { rows, total } = await listLeagues(
      c.env.DB,
      app.app_id,
      list.pageSize,
      (list.currentPage - 1) * list.pageSize,
    );
    const base = leaguesPath(app);
    return renderAppPage(
      c,
      app,
      "leagues",
      {
        title: "Leagues",
        lead: "Seasons in which every player competes in a cohort of their tier: the top move up, the bottom move down.",
        actions: canChange(c) ? (
          <a class="button" href={`${base}/new`}>
            New league
          </a>
        ) : undefined,
      },
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>No league yet. Create one to rank players in small cohorts, season after season.</p>
          </EmptyState>
        ) : (
          <Table head={["Key", "Name", "Event", "Tiers", "Cohort", "Season"]}>
            {rows.map((row) => {
              const l = presentLeagueRow(row);
              return (
                <tr>
                  <td>
                    <a href={`${base}/${l.league_id}`}>{l.key}</a>
                  </td>
                  <td>{nameText(l.name, app.default_language)}</td>
                  <td>{l.event_name}</td>
                  <td class="num">{l.tiers.length}</td>
                  <td>
                    {l.cohort_size} · ▲{l.promote} ▼{l.demote}
                  </td>
                  <td>
                    {l.schedule.period} at {l.schedule.reset_at_time} {l.schedule.time_zone}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>,
    );
  })
  .get("/console/apps/:appId/leagues/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return newPage(
      c,
      app,
      emptyForm({
        aggregation: "sum",
        cohort_size: "30",
        period: "weekly",
        reset_at_time: "00:00:00",
        time_zone: "UTC",
      }),
    );
  })
  .post("/console/apps/:appId/leagues/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeLeague,
      schema: LeagueInput,
      save: async (input) => {
        const row = await insertLeague(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${leaguesPath(app)}/${row.league_id}`, `League ${row.key} created.`);
      },
      render: (form, status) => newPage(c, app, form, status),
    });
  })
  .get("/console/apps/:appId/leagues/:leagueId", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireLeague(c.env.DB, app.app_id, c.req.param("leagueId"));
    const view = presentLeagueRow(row);
    const form = { ...emptyForm(leagueToForm(view)), readOnly: !canChange(c) };
    return editPage(c, app, view, form);
  })
  .post("/console/apps/:appId/leagues/:leagueId", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireLeague(c.env.DB, app.app_id, c.req.param("leagueId"));
    return submitForm(c, {
      decode: decodeLeague,
      schema: LeagueInput,
      save: async (input) => {
        const saved = await updateLeague(c.env.DB, row, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${leaguesPath(app)}/${saved.league_id}`, `League ${saved.key} saved.`);
      },
      render: (form, status) => editPage(c, app, presentLeagueRow(row), form, status),
    });
  })
  .post("/console/apps/:appId/leagues/:leagueId/delete", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireLeague(c.env.DB, app.app_id, c.req.param("leagueId"));
    await deleteLeague(c.env.DB, row, consoleActor(c));
    return redirectWithNotice(c, leaguesPath(app), `League ${row.key} deleted.`);
  });

function newPage(c: ConsoleContext, app: AppRow, form: FormState, status: ContentfulStatusCode = 200) {
  return renderAppPage(
    c,
    app,
    "leagues",
    { title: "New league", crumbs: [[leaguesPath(app), "Leagues"]], status },
    <section class="panel">
      <LeagueForm form={form} action={`${leaguesPath(app)}/new`} creating />
    </section>,
  );
}

async function editPage(
  c: ConsoleContext,
  app: AppRow,
  l: LeagueView,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const season = await currentSeason(c.env, app, l, c.get("now"));
  return renderAppPage(
    c,
    app,
    "leagues",
    {
      title: `League ${l.key}`,
      crumbs: [[leaguesPath(app), "Leagues"]],
      status,
      actions: canChange(c) ? (
        <DeleteButton
          action={`${leaguesPath(app)}/${l.league_id}/delete`}
          confirm={`Delete the league ${l.key}? Its seasons, cohorts and results are removed.`}
        />
      ) : undefined,
    },
    <>
      <SeasonPanel app={app} data={season} />
      <section class="panel">
        <h2>Configuration</h2>
        <LeagueForm form={form} action={`${leaguesPath(app)}/${l.league_id}`} creating={false} />
      </section>
    </>,
  );
}
