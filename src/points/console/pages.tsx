import { requireApp, type AppRow } from "../../apps/repo";
import { localize } from "../../shared/localize";
import { toIso } from "../../shared/clock";
import { PointsSystemFields, PointsSystemInput } from "../admin/schemas";
import { fieldsOf } from "../../kit/catalog";
import { deleteSystem, insertSystem, listSystems, presentSystemRow, requireSystem, updateSystem } from "../admin/repo";
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
import { flag } from "../../kit/console/forms/common";
import {
  CheckboxField,
  DeleteButton,
  emptyForm,
  FormErrors,
  PostForm,
  TextArea,
  TextField,
  type FormState,
} from "../../kit/console/ui/forms";
import { EmptyState, Pager, Table } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";

/**
 * Points systems (XP, karma, coins): the list and a form per system. Levels and triggers are edited
 * as JSON, the admin API's own shape, so that nothing the API takes (localized names, filters) is
 * lost by a save here.
 */

type SystemView = ReturnType<typeof presentSystemRow>;
const systemsPath = (app: AppRow) => `/console/apps/${app.app_id}/points`;
const FIELDS = fieldsOf(PointsSystemFields.shape);
const LEVELS_EXAMPLE =
  '[{"level": 1, "name": "Rookie", "points": 0}, {"level": 2, "name": "Apprentice", "points": 100}]';
const TRIGGERS_EXAMPLE = '[{"event_name": "kill-enemy", "every": 10, "points": 5}]';

const json = (value: unknown) => (Array.isArray(value) && value.length === 0 ? "" : JSON.stringify(value, null, 2));
const text = (value: unknown, defaultLanguage: string) =>
  value === null
    ? ""
    : typeof value === "string"
      ? value
      : localize(value as Record<string, string>, undefined, defaultLanguage);

function systemToForm(s: SystemView): FormValues {
  return {
    key: s.key,
    name: typeof s.name === "string" ? s.name : JSON.stringify(s.name),
    description:
      s.description === null ? "" : typeof s.description === "string" ? s.description : JSON.stringify(s.description),
    icon: s.icon ?? "",
    spendable: flag(s.spendable),
    max_balance: s.max_balance === null ? "" : String(s.max_balance),
    credits_challenge_xp: flag(s.credits_challenge_xp),
    levels: json(s.levels),
    triggers: json(s.triggers),
  };
}

function decodeSystem(values: FormValues): Decoded {
  const form = new FormReader(values);
  const input = {
    key: form.text("key"),
    name: form.localized("name"),
    description: form.localized("description") ?? null,
    icon: form.nullableText("icon"),
    spendable: form.checked("spendable"),
    max_balance: form.integer("max_balance") ?? null,
    credits_challenge_xp: form.checked("credits_challenge_xp"),
    levels: form.json("levels"),
    triggers: form.json("triggers"),
  };
  return { input, problems: form.problems, values };
}

function SystemForm(props: { form: FormState; action: string; creating: boolean }) {
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
          help="e.g. xp or coins: how rewards and the API name it."
        />
        <TextField
          form={form}
          name="name"
          label="Name"
          required
          help='Text, or JSON per language: {"en": "XP", "de": "EP"}.'
        />
        <TextField form={form} name="description" label="Description" />
        <TextField form={form} name="icon" label="Icon" help="Image name or URL." />
        <TextField
          form={form}
          name="max_balance"
          label="Most a balance holds"
          type="number"
          min="1"
          help="Empty: no cap."
        />
      </div>
      <CheckboxField
        form={form}
        name="spendable"
        label="Spendable (coins): the studio's backend may spend from balances"
      />
      <CheckboxField
        form={form}
        name="credits_challenge_xp"
        label="Takes the challenges' experience points (challenge_xp) when claimed"
      />
      <TextArea
        form={form}
        name="levels"
        label="Levels"
        rows={6}
        help={`JSON, levels 1, 2, 3... with ascending points. Example: ${LEVELS_EXAMPLE}`}
      />
      <TextArea
        form={form}
        name="triggers"
        label="Triggers"
        rows={5}
        help={`JSON: events that give points; value_field and filters optional. Example: ${TRIGGERS_EXAMPLE}`}
      />
      <button type="submit">{props.creating ? "Create points system" : "Save"}</button>
    </PostForm>
  );
}

function levelsText(s: SystemView, defaultLanguage: string) {
  if (s.levels.length === 0) return <span class="muted">none</span>;
  return s.levels
    .map(
      (l: { level: number; name: unknown; points: number }) =>
        `${l.level} ${text(l.name, defaultLanguage)} (${l.points})`,
    )
    .join(", ");
}

export const pointsPages = consoleRouter()
  .get("/console/apps/:appId/points", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const list = listQuery(c);
    const { rows, total } = await listSystems(
      c.env.DB,
      app.app_id,
      list.pageSize,
      (list.currentPage - 1) * list.pageSize,
    );
    const base = systemsPath(app);
    const mayChange = canChange(c);
    return renderAppPage(
      c,
      app,
      "points",
      {
        title: "Points",
        lead: "Points systems (XP, karma, coins): players' balances, levels and ledgers. Challenges and battle-pass levels credit them when claimed.",
        actions: mayChange ? (
          <a class="button" href={`${base}/new`}>
            New points system
          </a>
        ) : undefined,
      },
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            <p>No points system yet. Create one for experience points, a currency or karma.</p>
          </EmptyState>
        ) : (
          <Table head={["Key", "Name", "Kind", "Cap", "Levels", "Triggers"]}>
            {rows.map((row) => {
              const s = presentSystemRow(row);
              return (
                <tr>
                  <td>
                    <a href={`${base}/${s.system_id}`}>{s.key}</a>
                  </td>
                  <td>{text(s.name, app.default_language)}</td>
                  <td>
                    {s.spendable ? "spendable" : "earned only"}
                    {s.credits_challenge_xp ? ", takes challenge_xp" : ""}
                  </td>
                  <td class="num">{s.max_balance === null ? "—" : s.max_balance.toLocaleString("en-US")}</td>
                  <td>{levelsText(s, app.default_language)}</td>
                  <td class="num">{s.triggers.length}</td>
                </tr>
              );
            })}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>,
    );
  })
  .get("/console/apps/:appId/points/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return newPage(c, app, emptyForm({}));
  })
  .post("/console/apps/:appId/points/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeSystem,
      schema: PointsSystemInput,
      save: async (input) => {
        const row = await insertSystem(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${systemsPath(app)}/${row.system_id}`, `Points system ${row.key} created.`);
      },
      render: (form, status) => newPage(c, app, form, status),
    });
  })
  .get("/console/apps/:appId/points/:systemId", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireSystem(c.env.DB, app.app_id, c.req.param("systemId"));
    const form = { ...emptyForm(systemToForm(presentSystemRow(row))), readOnly: !canChange(c) };
    return editPage(c, app, presentSystemRow(row), form);
  })
  .post("/console/apps/:appId/points/:systemId", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireSystem(c.env.DB, app.app_id, c.req.param("systemId"));
    return submitForm(c, {
      decode: decodeSystem,
      schema: PointsSystemInput,
      save: async (input) => {
        const saved = await updateSystem(c.env.DB, row, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${systemsPath(app)}/${saved.system_id}`, `Points system ${saved.key} saved.`);
      },
      render: (form, status) => editPage(c, app, presentSystemRow(row), form, status),
    });
  })
  .post("/console/apps/:appId/points/:systemId/delete", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireSystem(c.env.DB, app.app_id, c.req.param("systemId"));
    await deleteSystem(c.env.DB, row, consoleActor(c));
    return redirectWithNotice(c, systemsPath(app), `Points system ${row.key} deleted.`);
  });

function newPage(c: ConsoleContext, app: AppRow, form: FormState, status: ContentfulStatusCode = 200) {
  return renderAppPage(
    c,
    app,
    "points",
    { title: "New points system", crumbs: [[systemsPath(app), "Points"]], status },
    <section class="panel">
      <SystemForm form={form} action={`${systemsPath(app)}/new`} creating />
    </section>,
  );
}

function editPage(c: ConsoleContext, app: AppRow, s: SystemView, form: FormState, status: ContentfulStatusCode = 200) {
  return renderAppPage(
    c,
    app,
    "points",
    {
      title: `Points system ${s.key}`,
      crumbs: [[systemsPath(app), "Points"]],
      status,
      actions: canChange(c) ? (
        <DeleteButton
          action={`${systemsPath(app)}/${s.system_id}/delete`}
          confirm={`Delete the points system ${s.key}? Nothing is credited to it any more; players' balances stay in their objects.`}
        />
      ) : undefined,
    },
    <section class="panel">
      <SystemForm form={form} action={`${systemsPath(app)}/${s.system_id}`} creating={false} />
    </section>,
  );
}
