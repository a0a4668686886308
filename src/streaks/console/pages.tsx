import { requireApp, type AppRow } from "../../apps/repo";
import { localize } from "../../shared/localize";
import { toIso } from "../../shared/clock";
import { StreakInput } from "../admin/schemas";
import { deleteStreak, insertStreak, listStreaks, presentStreakRow, requireStreak, updateStreak } from "../admin/repo";
import type { Decoded, FormValues } from "../../kit/console/core/form";
import { FormReader } from "../../kit/console/core/form";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { submitForm } from "../../kit/console/forms/submit";
import {
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
import { renderAppPage } from "../../kit/console/ui/render";

/**
 * Streaks: the list and a form per streak. Filters and milestones are edited as JSON, the admin
 * API's own shape, so that nothing the API takes is lost by a save here.
 */

type StreakView = ReturnType<typeof presentStreakRow>;
const streaksPath = (app: AppRow) => `/console/apps/${app.app_id}/streaks`;
const FIELDS = [
  "key",
  "name",
  "period",
  "event_name",
  "filters",
  "min_count",
  "reset_at_time",
  "time_zone",
  "freezes",
  "milestones",
];
const MILESTONES_EXAMPLE = '[{"length": 7, "points_rewards": [{"system": "xp", "amount": 100}]}, {"length": 30}]';

const json = (value: unknown) => (Array.isArray(value) && value.length === 0 ? "" : JSON.stringify(value, null, 2));
const text = (value: unknown, defaultLanguage: string) =>
  typeof value === "string" ? value : localize(value as Record<string, string>, undefined, defaultLanguage);

function streakToForm(s: StreakView): FormValues {
  return {
    key: s.key,
    name: typeof s.name === "string" ? s.name : JSON.stringify(s.name),
    period: s.period,
    event_name: s.event_name ?? "",
    filters: json(s.filters),
    min_count: String(s.min_count),
    reset_at_time: s.reset_at_time,
    time_zone: s.time_zone,
    freezes_initial: String(s.freezes.initial),
    freezes_earn_every: String(s.freezes.earn_every),
    freezes_max: String(s.freezes.max),
    milestones: json(s.milestones),
  };
}

function decodeStreak(values: FormValues): Decoded {
  const form = new FormReader(values);
  const input = {
    key: form.text("key"),
    name: form.localized("name"),
    period: form.text("period"),
    event_name: form.nullableText("event_name"),
    filters: form.json("filters"),
    min_count: form.integer("min_count"),
    reset_at_time: form.text("reset_at_time") || undefined,
    time_zone: form.text("time_zone"),
    freezes: {
      initial: form.integer("freezes_initial") ?? 0,
      earn_every: form.integer("freezes_earn_every") ?? 0,
      max: form.integer("freezes_max") ?? 0,
    },
    milestones: form.json("milestones"),
  };
  return { input, problems: form.problems, values };
}

function StreakForm(props: { form: FormState; action: string; creating: boolean }) {
  const { form } = props;
  return (
    <PostForm action={props.action}>
      <FormErrors errors={form.errors} fields={FIELDS} />
      <div class="grid two">
        <TextField form={form} name="key" label="Key" required help="e.g. daily-practice." />
        <TextField form={form} name="name" label="Name" required help="Text, or JSON per language." />
        <SelectField
          form={form}
          name="period"
          label="Period"
          options={[
            ["daily", "daily"],
            ["weekly", "weekly (from Monday)"],
          ]}
        />
        <TextField form={form} name="event_name" label="Event name" help="Empty: any event counts." />
        <TextField
          form={form}
          name="min_count"
          label="Events that keep a period"
          type="number"
          min="1"
          help="Default 1."
        />
        <TextField form={form} name="reset_at_time" label="Period ends at" help="HH:MM:SS in the player's zone." />
        <TextField
          form={form}
          name="time_zone"
          label="Time zone"
          required
          help="IANA, e.g. Europe/Berlin: for players who stored none."
        />
      </div>
      <div class="grid three">
        <TextField form={form} name="freezes_initial" label="Freezes at start" type="number" min="0" />
        <TextField
          form={form}
          name="freezes_earn_every"
          label="A freeze every … kept periods"
          type="number"
          min="0"
          help="0: never."
        />
        <TextField form={form} name="freezes_max" label="Most freezes held" type="number" min="0" help="Up to 100." />
      </div>
      <TextArea form={form} name="filters" label="Filters" rows={3} help="JSON, optional, like a challenge's." />
      <TextArea
        form={form}
        name="milestones"
        label="Milestones"
        rows={4}
        help={`JSON, ascending lengths; rewards are credited once per run. Example: ${MILESTONES_EXAMPLE}`}
      />
      <button type="submit">{props.creating ? "Create streak" : "Save"}</button>
    </PostForm>
  );
}

export const streaksPages = consoleRouter()
  .get("/console/apps/:appId/streaks", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const list = listQuery(c);
    const { rows, total } = await listStreaks(
      c.env.DB,
      app.app_id,
      list.pageSize,
      (list.currentPage - 1) * list.pageSize,
    );
    const base = streaksPath(app);
    return renderAppPage(
      c,
      app,
      "streaks",
      {
        title: "Streaks",
        lead: "Daily and weekly habits in each player's time zone. A missed period uses a freeze, else the streak is lost when the period ends.",
        actions: canChange(c) ? (
          <a class="button" href={`${base}/new`}>
            New streak
          </a>
        ) : undefined,
      },
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>No streak yet. Create one to bring players back every day or week.</p>
          </EmptyState>
        ) : (
          <Table head={["Key", "Name", "Period", "Event", "Ends at", "Freezes", "Milestones"]}>
            {rows.map((row) => {
              const s = presentStreakRow(row);
              return (
                <tr>
                  <td>
                    <a href={`${base}/${s.streak_id}`}>{s.key}</a>
                  </td>
                  <td>{text(s.name, app.default_language)}</td>
                  <td>
                    {s.period}
                    {s.min_count > 1 ? `, ${s.min_count} events` : ""}
                  </td>
                  <td>{s.event_name ?? <span class="muted">any</span>}</td>
                  <td>
                    {s.reset_at_time} <span class="muted">{s.time_zone}</span>
                  </td>
                  <td>
                    {s.freezes.initial} at start, max {s.freezes.max}
                    {s.freezes.earn_every > 0 ? `, one every ${s.freezes.earn_every}` : ""}
                  </td>
                  <td>
                    {s.milestones.length === 0 ? (
                      <span class="muted">none</span>
                    ) : (
                      s.milestones.map((m: { length: number }) => m.length).join(", ")
                    )}
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
  .get("/console/apps/:appId/streaks/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return newPage(c, app, emptyForm({ period: "daily", reset_at_time: "00:00:00", time_zone: "UTC", min_count: "1" }));
  })
  .post("/console/apps/:appId/streaks/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeStreak,
      schema: StreakInput,
      save: async (input) => {
        const row = await insertStreak(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${streaksPath(app)}/${row.streak_id}`, `Streak ${row.key} created.`);
      },
      render: (form, status) => newPage(c, app, form, status),
    });
  })
  .get("/console/apps/:appId/streaks/:streakId", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireStreak(c.env.DB, app.app_id, c.req.param("streakId"));
    const form = { ...emptyForm(streakToForm(presentStreakRow(row))), readOnly: !canChange(c) };
    return editPage(c, app, presentStreakRow(row), form);
  })
  .post("/console/apps/:appId/streaks/:streakId", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireStreak(c.env.DB, app.app_id, c.req.param("streakId"));
    return submitForm(c, {
      decode: decodeStreak,
      schema: StreakInput,
      save: async (input) => {
        const saved = await updateStreak(c.env.DB, row, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${streaksPath(app)}/${saved.streak_id}`, `Streak ${saved.key} saved.`);
      },
      render: (form, status) => editPage(c, app, presentStreakRow(row), form, status),
    });
  })
  .post("/console/apps/:appId/streaks/:streakId/delete", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireStreak(c.env.DB, app.app_id, c.req.param("streakId"));
    await deleteStreak(c.env.DB, row, consoleActor(c));
    return redirectWithNotice(c, streaksPath(app), `Streak ${row.key} deleted.`);
  });

function newPage(c: ConsoleContext, app: AppRow, form: FormState, status: ContentfulStatusCode = 200) {
  return renderAppPage(
    c,
    app,
    "streaks",
    { title: "New streak", crumbs: [[streaksPath(app), "Streaks"]], status },
    <section class="panel">
      <StreakForm form={form} action={`${streaksPath(app)}/new`} creating />
    </section>,
  );
}

function editPage(c: ConsoleContext, app: AppRow, s: StreakView, form: FormState, status: ContentfulStatusCode = 200) {
  return renderAppPage(
    c,
    app,
    "streaks",
    {
      title: `Streak ${s.key}`,
      crumbs: [[streaksPath(app), "Streaks"]],
      status,
      actions: canChange(c) ? (
        <DeleteButton
          action={`${streaksPath(app)}/${s.streak_id}/delete`}
          confirm={`Delete the streak ${s.key}? Nothing counts for it any more.`}
        />
      ) : undefined,
    },
    <section class="panel">
      <StreakForm form={form} action={`${streaksPath(app)}/${s.streak_id}`} creating={false} />
    </section>,
  );
}
