import { requireApp, type AppRow } from "../../apps/repo";
import { localize } from "../../shared/localize";
import { toIso } from "../../shared/clock";
import { AchievementInput } from "../admin/schemas";
import {
  achievementsWithHolders,
  deleteAchievement,
  insertAchievement,
  presentAchievementRow,
  requireAchievement,
  updateAchievement,
} from "../admin/repo";
import { readAppRarity } from "../catalog";
import { rarityOf } from "../core/earn";
import { ACHIEVEMENT_KINDS, ACHIEVEMENT_STATUSES, AGGREGATIONS } from "../core/model";
import type { Decoded, FormValues } from "../../kit/console/core/form";
import { FormReader } from "../../kit/console/core/form";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { submitForm } from "../../kit/console/forms/submit";
import { flag, pointsRewardsToForm, readPointsRewards } from "../../kit/console/forms/common";
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
import { EmptyState, StatusBadge, Table } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";

/**
 * Achievements: the list with holders and rarity, a ladder per event (the metric achievements of
 * one event, by threshold), and a form per achievement. Filters are edited as JSON, the admin
 * API's own shape, so that nothing the API takes is lost by a save here.
 */

type AchievementView = ReturnType<typeof presentAchievementRow>;
type Listed = AchievementView & { holders: number; rarity: number };
const basePath = (app: AppRow) => `/console/apps/${app.app_id}/achievements`;
const FIELDS = [
  "key",
  "name",
  "description",
  "hidden",
  "hidden_description",
  "icon",
  "kind",
  "status",
  "sort_order",
  "points_rewards",
  "event_name",
  "filters",
  "value_field",
  "aggregation",
  "threshold",
  "requires",
];
const FILTERS_EXAMPLE = '[{"field": "enemy_type", "op": "eq", "value": "dragon"}]';

const localizedText = (value: unknown) =>
  value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
const count = (n: number) => n.toLocaleString("en-US");

function toForm(a: AchievementView): FormValues {
  return {
    key: a.key,
    name: localizedText(a.name),
    description: localizedText(a.description),
    hidden: flag(a.hidden),
    hidden_description: localizedText(a.hidden_description),
    icon: a.icon ?? "",
    kind: a.kind,
    status: a.status,
    sort_order: String(a.sort_order),
    points_rewards: pointsRewardsToForm(a.points_rewards),
    event_name: a.event_name ?? "",
    filters: a.filters.length === 0 ? "" : JSON.stringify(a.filters, null, 2),
    value_field: a.value_field ?? "",
    aggregation: a.aggregation ?? "",
    threshold: a.threshold === null ? "" : String(a.threshold),
    requires: a.requires.join(", "),
  };
}

function decode(values: FormValues): Decoded {
  const form = new FormReader(values);
  const kind = form.text("kind");
  const metric = kind === "metric";
  let filters: unknown;
  const rawFilters = form.text("filters");
  if (metric && rawFilters !== "") {
    try {
      filters = JSON.parse(rawFilters);
    } catch {
      form.problems.push({ field: "filters", problem: "must be JSON: a list like the example" });
    }
  }
  const requires = form
    .text("requires")
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  const input = {
    key: form.text("key"),
    name: form.localized("name"),
    description: form.localized("description") ?? null,
    hidden: form.checked("hidden"),
    hidden_description: form.localized("hidden_description") ?? null,
    icon: form.nullableText("icon"),
    kind,
    status: form.text("status") || undefined,
    sort_order: form.integer("sort_order") ?? 0,
    points_rewards: readPointsRewards(form, "points_rewards"),
    event_name: metric ? form.nullableText("event_name") : null,
    filters: metric ? filters : undefined,
    value_field: metric ? form.nullableText("value_field") : null,
    aggregation: metric ? form.text("aggregation") || null : null,
    threshold: metric ? (form.integer("threshold") ?? null) : null,
    requires: kind === "composite" ? requires : [],
  };
  return { input, problems: form.problems, values };
}

function AchievementForm(props: { form: FormState; action: string; creating: boolean }) {
  const { form } = props;
  return (
    <PostForm action={props.action}>
      <FormErrors errors={form.errors} fields={FIELDS} />
      <div class="grid two">
        <TextField
          form={form}
          name="key"
          label="Key"
          required
          help="e.g. kills-100: how composites and the API name it."
        />
        <TextField
          form={form}
          name="name"
          label="Name"
          required
          help='Text, or JSON per language: {"en": "Centurion", "de": "Zenturio"}.'
        />
        <TextField form={form} name="description" label="Description" />
        <TextField form={form} name="icon" label="Icon" help="Image name or URL." />
        <SelectField
          form={form}
          name="kind"
          label="Kind"
          options={ACHIEVEMENT_KINDS.map((k) => [k, k] as const)}
          help="metric: a running total reaches a threshold; manual: granted by your backend; composite: held with all it requires."
        />
        <SelectField
          form={form}
          name="status"
          label="Status"
          options={ACHIEVEMENT_STATUSES.map((s) => [s, s] as const)}
          help="locked keeps its holders and earns no new ones; inactive is hidden from players."
        />
        <TextField form={form} name="sort_order" label="Sort order" type="number" help="Players see ascending order." />
        <TextField
          form={form}
          name="points_rewards"
          label="Points rewards"
          help="Credited when earned: key:amount pairs, e.g. xp:50, coins:10."
        />
      </div>
      <CheckboxField
        form={form}
        name="hidden"
        label="Hidden: players who do not hold it see neither name nor progress"
      />
      <TextField
        form={form}
        name="hidden_description"
        label="Hidden description"
        help="What players read while they do not hold it; empty: “Hidden achievement”."
      />
      <fieldset>
        <legend>Metric</legend>
        <div class="grid three">
          <TextField form={form} name="event_name" label="Event" help="e.g. kill-enemy" />
          <SelectField
            form={form}
            name="aggregation"
            label="Aggregation"
            options={[["", "sum (default)"], ...AGGREGATIONS.map((a) => [a, a] as const)]}
          />
          <TextField form={form} name="threshold" label="Threshold" type="number" min="1" />
        </div>
        <TextField
          form={form}
          name="value_field"
          label="Value field"
          help="Empty: amount when the event has one, else 1. Without filters and value field, players' earlier events count too."
        />
        <TextArea
          form={form}
          name="filters"
          label="Filters"
          rows={3}
          help={`JSON; with filters it counts from its creation. Example: ${FILTERS_EXAMPLE}`}
        />
      </fieldset>
      <TextField
        form={form}
        name="requires"
        label="Requires (composite)"
        help="Keys of the achievements it requires, separated by commas: at least 2."
      />
      <button type="submit">{props.creating ? "Create achievement" : "Save"}</button>
    </PostForm>
  );
}

/** The metric achievements of each event, by threshold: a ladder per event (and filters). */
export function laddersOf(rows: Listed[]) {
  const ladders = new Map<string, Listed[]>();
  for (const row of rows) {
    if (row.kind !== "metric" || row.event_name === null) continue;
    const name = row.filters.length === 0 ? row.event_name : `${row.event_name} (filtered)`;
    const ladder = ladders.get(name) ?? [];
    ladder.push(row);
    ladders.set(name, ladder);
  }
  return [...ladders].map(([event, rungs]) => ({
    event,
    rungs: rungs.sort((a, b) => (a.threshold ?? 0) - (b.threshold ?? 0)),
  }));
}

function Ladder(props: { event: string; rungs: Listed[]; base: string; defaultLanguage: string }) {
  const top = Math.max(1, ...props.rungs.map((r) => r.holders));
  return (
    <section class="panel">
      <h3>
        Ladder: <code>{props.event}</code>
      </h3>
      <ol class="ladder">
        {props.rungs.map((rung) => (
          <li>
            <span class="num">
              {count(rung.threshold ?? 0)} <span class="muted">{rung.aggregation}</span>
            </span>{" "}
            <a href={`${props.base}/${rung.achievement_id}`}>{localize(rung.name, undefined, props.defaultLanguage)}</a>{" "}
            {rung.status !== "active" && <StatusBadge status={rung.status} />}
            <meter min="0" max={top} value={rung.holders} title={`${rung.holders} holders`} />
            <span class="muted">
              {count(rung.holders)} holders · {rung.rarity.toFixed(1)}%
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Every achievement of the app with its holders and rarity, as last counted. */
export async function listedAchievements(db: D1Database, appId: number): Promise<Listed[]> {
  const [rows, rarity] = await Promise.all([achievementsWithHolders(db, appId), readAppRarity(db, appId)]);
  return rows.map((row) => ({
    ...presentAchievementRow(row),
    holders: Math.max(0, row.holders),
    rarity: rarityOf(Math.max(0, row.holders), rarity.players),
  }));
}

function kindText(a: Listed) {
  if (a.kind === "metric") return `${a.event_name}: ${a.aggregation} ≥ ${count(a.threshold ?? 0)}`;
  if (a.kind === "composite") return `all of ${a.requires.join(", ")}`;
  return "manual";
}

export const achievementsPages = consoleRouter()
  .get("/console/apps/:appId/achievements", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const rows = await listedAchievements(c.env.DB, app.app_id);
    const base = basePath(app);
    const ladders = laddersOf(rows);
    return renderAppPage(
      c,
      app,
      "achievements",
      {
        title: "Achievements",
        lead: "Permanent milestones players hold: ladders of metric achievements per event, manual ones your backend grants, composites, hidden ones. Holders and rarity are counted within a minute.",
        actions: canChange(c) ? (
          <a class="button" href={`${base}/new`}>
            New achievement
          </a>
        ) : undefined,
      },
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>No achievement yet. Create a ladder (10, 100, 1,000 kills), a hidden one, or a composite.</p>
          </EmptyState>
        ) : (
          <>
            <Table head={["Key", "Name", "Earned by", "Status", "Holders", "Rarity"]} numeric={[4, 5]}>
              {rows.map((a) => (
                <tr>
                  <td>
                    <a href={`${base}/${a.achievement_id}`}>{a.key}</a>
                  </td>
                  <td>
                    {localize(a.name, undefined, app.default_language)}
                    {a.hidden && <span class="muted"> (hidden)</span>}
                  </td>
                  <td>{kindText(a)}</td>
                  <td>
                    <StatusBadge status={a.status} />
                  </td>
                  <td class="num">{count(a.holders)}</td>
                  <td class="num">{a.rarity.toFixed(1)}%</td>
                </tr>
              ))}
            </Table>
            {ladders.map((ladder) => (
              <Ladder event={ladder.event} rungs={ladder.rungs} base={base} defaultLanguage={app.default_language} />
            ))}
          </>
        )}
      </div>,
    );
  })
  .get("/console/apps/:appId/achievements/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return newPage(c, app, emptyForm({ kind: "metric", status: "active", sort_order: "0" }));
  })
  .post("/console/apps/:appId/achievements/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode,
      schema: AchievementInput,
      save: async (input) => {
        const row = await insertAchievement(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${basePath(app)}/${row.achievement_id}`, `Achievement ${row.key} created.`);
      },
      render: (form, status) => newPage(c, app, form, status),
    });
  })
  .get("/console/apps/:appId/achievements/:achievementId", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireAchievement(c.env.DB, app.app_id, c.req.param("achievementId"));
    const form = { ...emptyForm(toForm(presentAchievementRow(row))), readOnly: !canChange(c) };
    return editPage(c, app, presentAchievementRow(row), form);
  })
  .post("/console/apps/:appId/achievements/:achievementId", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireAchievement(c.env.DB, app.app_id, c.req.param("achievementId"));
    return submitForm(c, {
      decode,
      schema: AchievementInput,
      save: async (input) => {
        const saved = await updateAchievement(c.env.DB, row, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${basePath(app)}/${saved.achievement_id}`, `Achievement ${saved.key} saved.`);
      },
      render: (form, status) => editPage(c, app, presentAchievementRow(row), form, status),
    });
  })
  .post("/console/apps/:appId/achievements/:achievementId/delete", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireAchievement(c.env.DB, app.app_id, c.req.param("achievementId"));
    await deleteAchievement(c.env.DB, row, consoleActor(c));
    return redirectWithNotice(c, basePath(app), `Achievement ${row.key} deleted.`);
  });

function newPage(c: ConsoleContext, app: AppRow, form: FormState, status: ContentfulStatusCode = 200) {
  return renderAppPage(
    c,
    app,
    "achievements",
    { title: "New achievement", crumbs: [[basePath(app), "Achievements"]], status },
    <section class="panel">
      <AchievementForm form={form} action={`${basePath(app)}/new`} creating />
    </section>,
  );
}

function editPage(
  c: ConsoleContext,
  app: AppRow,
  a: AchievementView,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  return renderAppPage(
    c,
    app,
    "achievements",
    {
      title: `Achievement ${a.key}`,
      crumbs: [[basePath(app), "Achievements"]],
      status,
      actions: canChange(c) ? (
        <DeleteButton
          action={`${basePath(app)}/${a.achievement_id}/delete`}
          confirm={`Delete the achievement ${a.key}? Players no longer see it and its holder count goes.`}
        />
      ) : undefined,
    },
    <section class="panel">
      <AchievementForm form={form} action={`${basePath(app)}/${a.achievement_id}`} creating={false} />
    </section>,
  );
}
