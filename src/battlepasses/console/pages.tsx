import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import {
  deleteLevel,
  deletePass,
  insertLevel,
  insertPass,
  levelIdsInOrder,
  listLevels,
  listPasses,
  presentLevelAdmin,
  presentPassAdmin,
  requireLevel,
  requirePass,
  setLevelOrder,
  updateLevel,
  updatePass,
} from "../admin/repo";
import { checkRewardWebhookUrl } from "../admin/reward-url";
import { BattlePassInput, LevelInput } from "../admin/schemas";
import { parseLocalized, type LevelRow, type PassRow } from "../catalog";
import { toIso } from "../../shared/clock";
import { localize } from "../../shared/localize";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  readForm,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { decodeLevel, decodePass, levelToForm, NEW_LEVEL, NEW_PASS, passToForm } from "./forms";
import { submitForm } from "../../kit/console/forms/submit";
import { DeleteButton, emptyForm, PostForm, type FormState } from "../../kit/console/ui/forms";
import { EmptyState, Pager, SearchForm, ShortCode, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";
import { LevelForm, PassForm } from "./page-forms";

/** Battle passes and their levels: lists, create, edit, delete, and the order of the levels. */

const passName = (pass: PassRow, app: AppRow) =>
  localize(parseLocalized(pass.battle_pass_name), undefined, app.default_language);
const passesBase = (app: AppRow) => `/console/apps/${app.app_id}/battle-passes`;

/** Where a pass stands for players now. */
function passState(pass: PassRow, now: number): string {
  if (!pass.is_active) return "off";
  if (Date.parse(pass.end_date) <= now) return "ended";
  return Date.parse(pass.start_date) > now ? "upcoming" : "running";
}

const deleteWarning = (what: string) => `Delete ${what}? Players lose their progress in it. This cannot be undone.`;

function page(
  c: ConsoleContext,
  app: AppRow,
  title: string,
  crumbs: [string, string][],
  body: Child,
  status: ContentfulStatusCode = 200,
  actions?: Child,
) {
  return renderAppPage(c, app, "battle-passes", { title, crumbs, status, actions }, body);
}

/** A pass's form page: new (pass null) or existing, read-only for a viewer. */
function passPage(
  c: ConsoleContext,
  app: AppRow,
  pass: PassRow | null,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const editor = canChange(c);
  return page(
    c,
    app,
    pass ? passName(pass, app) : "New battle pass",
    [[passesBase(app), "Battle passes"]],
    <>
      {pass && (
        <p>
          <a href={`${passesBase(app)}/${pass.battle_pass_id}/levels`}>Levels of this pass →</a>
        </p>
      )}
      <PassForm
        form={{ ...form, readOnly: !editor }}
        action={c.req.path}
        defaultLanguage={app.default_language}
        submit={pass ? "Save" : "Create battle pass"}
        isNew={!pass}
      />
    </>,
    status,
    pass && editor && (
      <DeleteButton
        action={`${c.req.path}/delete`}
        confirm={deleteWarning(`battle pass ${pass.battle_pass_id} with its levels`)}
      />
    ),
  );
}

/** A level's form page: new (level null) or existing, read-only for a viewer. */
async function levelPage(
  c: ConsoleContext,
  app: AppRow,
  pass: PassRow,
  level: LevelRow | null,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const editor = canChange(c);
  return page(
    c,
    app,
    level ? await levelTitle(c, pass, level.level_id) : "New level",
    levelCrumbs(app, pass),
    <LevelForm
      form={{ ...form, readOnly: !editor }}
      action={c.req.path}
      defaultLanguage={app.default_language}
      submit={level ? "Save" : "Create level"}
      isNew={!level}
    />,
    status,
    level && editor && (
      <DeleteButton
        action={`${c.req.path}/delete`}
        confirm={deleteWarning(`level ${level.level_id} with its challenges`)}
      />
    ),
  );
}

async function passesPage(c: ConsoleContext, app: AppRow) {
  const list = listQuery(c);
  const { rows, total } = await listPasses(c.env.DB, app.app_id, list, list.search);
  const base = passesBase(app);
  const now = c.get("now");
  return page(
    c,
    app,
    "Battle passes",
    [],
    <>
      <SearchForm action={base} value={list.search} label="Search battle passes" placeholder="Name" />
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            {list.search ? (
              <p>No battle pass matches “{list.search}”.</p>
            ) : (
              <p>
                No battle passes yet.{" "}
                {canChange(c) ? <a href={`${base}/new`}>Create one</a> : "An editor can create one"}, or{" "}
                <a href={`/console/apps/${app.app_id}/catalog`}>import a catalog</a>.
              </p>
            )}
          </EmptyState>
        ) : (
          <Table head={["Priority", "Name", "Starts", "Ends", "State"]} numeric={[0]}>
            {rows.map((pass) => (
              <tr>
                <td class="num">{pass.battle_pass_priority}</td>
                <td>
                  <a href={`${base}/${pass.battle_pass_id}`}>{passName(pass, app)}</a> ·{" "}
                  <a href={`${base}/${pass.battle_pass_id}/levels`}>levels</a>
                </td>
                <td>
                  <Time iso={pass.start_date} />
                </td>
                <td>
                  <Time iso={pass.end_date} />
                </td>
                <td>
                  <StatusBadge status={passState(pass, now)} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>
    </>,
    200,
    canChange(c) && (
      <a class="button" href={`${base}/new`}>
        New battle pass
      </a>
    ),
  );
}

async function levelsPage(c: ConsoleContext, app: AppRow, pass: PassRow) {
  const { items } = await listLevels(c.env.DB, pass, { currentPage: 1, pageSize: 100 });
  const base = `${passesBase(app)}/${pass.battle_pass_id}/levels`;
  const editor = canChange(c);
  return page(
    c,
    app,
    `Levels of ${passName(pass, app)}`,
    [
      [passesBase(app), "Battle passes"],
      [`${passesBase(app)}/${pass.battle_pass_id}`, passName(pass, app)],
    ],
    items.length === 0 ? (
      <EmptyState>
        <p>
          No levels yet. {editor ? <a href={`${base}/new`}>Add the first level</a> : "An editor can add one"}: each
          level holds the challenges that earn its reward.
        </p>
      </EmptyState>
    ) : (
      <Table head={["Level", "Reward", "Challenges", "Reward webhook", "Order"]}>
        {items.map((level, i) => (
          <tr>
            <td class="nowrap">
              <a href={`${base}/${level.level_id}`}>Level {i + 1}</a>
            </td>
            <td>
              {level.reward_amount || "—"}{" "}
              {level.level_reward_type !== "nothing" && <span class="muted">{level.level_reward_type}</span>}
            </td>
            <td>
              {level.challenges
                .map(
                  (ch) =>
                    `${localize(ch.challenge_name, undefined, app.default_language)} (${ch.challenge_goal} × ${ch.event_name})`,
                )
                .join("; ")}
            </td>
            <td>
              {level.reward_webhook_url ? (
                <ShortCode text={level.reward_webhook_url} />
              ) : (
                <span class="muted">app's endpoints</span>
              )}
            </td>
            <td class="actions">
              {editor && (
                <PostForm action={`${base}/${level.level_id}/move`} class="inline">
                  <button
                    type="submit"
                    name="direction"
                    value="up"
                    class="secondary small"
                    disabled={i === 0}
                    aria-label={`Move level ${i + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="submit"
                    name="direction"
                    value="down"
                    class="secondary small"
                    disabled={i === items.length - 1}
                    aria-label={`Move level ${i + 1} down`}
                  >
                    ↓
                  </button>
                </PostForm>
              )}
            </td>
          </tr>
        ))}
      </Table>
    ),
    200,
    editor && (
      <a class="button" href={`${base}/new`}>
        New level
      </a>
    ),
  );
}

async function passAndLevel(c: ConsoleContext) {
  const app = await requireApp(c.env.DB, c.req.param("appId")!);
  const pass = await requirePass(c.env.DB, app.app_id, c.req.param("passId")!);
  return { app, pass };
}

export const battlePassPages = consoleRouter()
  .get("/console/apps/:appId/battle-passes", async (c) =>
    passesPage(c, await requireApp(c.env.DB, c.req.param("appId"))),
  )
  .get("/console/apps/:appId/battle-passes/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return passPage(
      c,
      app,
      null,
      emptyForm({ ...NEW_PASS, "battle_pass_name.0.lang": app.default_language, battle_pass_priority: "0" }),
    );
  })
  .post("/console/apps/:appId/battle-passes/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodePass,
      schema: BattlePassInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        const row = await insertPass(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(
          c,
          `${passesBase(app)}/${row.battle_pass_id}/levels`,
          `Battle pass ${row.battle_pass_id} created. Next: add its levels.`,
        );
      },
      render: (form, status) => passPage(c, app, null, form, status),
    });
  })
  .get("/console/apps/:appId/battle-passes/:passId{[0-9]+}", async (c) => {
    const { app, pass } = await passAndLevel(c);
    return passPage(c, app, pass, emptyForm(passToForm(presentPassAdmin(pass), app.default_language)));
  })
  .post("/console/apps/:appId/battle-passes/:passId{[0-9]+}", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    return submitForm(c, {
      decode: decodePass,
      schema: BattlePassInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        await updatePass(c.env.DB, pass, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, c.req.path, "Battle pass saved.");
      },
      render: (form, status) => passPage(c, app, pass, form, status),
    });
  })
  .post("/console/apps/:appId/battle-passes/:passId{[0-9]+}/delete", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    await deletePass(c.env.DB, pass, consoleActor(c));
    return redirectWithNotice(c, passesBase(app), `Battle pass ${pass.battle_pass_id} deleted.`);
  })

  // ---- levels
  .get("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels", async (c) => {
    const { app, pass } = await passAndLevel(c);
    return levelsPage(c, app, pass);
  })
  .get("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels/new", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    return levelPage(
      c,
      app,
      pass,
      null,
      emptyForm({ ...NEW_LEVEL, "challenges.0.challenge_name.0.lang": app.default_language }),
    );
  })
  .post("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels/new", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    return submitForm(c, {
      decode: decodeLevel,
      schema: LevelInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        checkRewardWebhookUrl(c.env, input.reward_webhook_url);
        const levelId = await insertLevel(c.env.DB, pass, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, `${passesBase(app)}/${pass.battle_pass_id}/levels`, `Level ${levelId} added.`);
      },
      render: (form, status) => levelPage(c, app, pass, null, form, status),
    });
  })
  .get("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels/:levelId{[0-9]+}", async (c) => {
    const { app, pass } = await passAndLevel(c);
    const level = await requireLevel(c.env.DB, pass, c.req.param("levelId"));
    return levelPage(
      c,
      app,
      pass,
      level.row,
      emptyForm(levelToForm(presentLevelAdmin(level.row, level.challenges), app.default_language)),
    );
  })
  .post("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels/:levelId{[0-9]+}", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    const level = await requireLevel(c.env.DB, pass, c.req.param("levelId"));
    return submitForm(c, {
      decode: decodeLevel,
      schema: LevelInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        checkRewardWebhookUrl(c.env, input.reward_webhook_url);
        await updateLevel(c.env.DB, level.row, level.challenges, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, c.req.path, `${await levelTitle(c, pass, level.row.level_id)} saved.`);
      },
      render: (form, status) => levelPage(c, app, pass, level.row, form, status),
    });
  })
  .post("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels/:levelId{[0-9]+}/delete", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    const level = await requireLevel(c.env.DB, pass, c.req.param("levelId"));
    await deleteLevel(c.env.DB, level, consoleActor(c));
    return redirectWithNotice(
      c,
      `${passesBase(app)}/${pass.battle_pass_id}/levels`,
      `Level ${level.row.level_id} deleted.`,
    );
  })
  .post("/console/apps/:appId/battle-passes/:passId{[0-9]+}/levels/:levelId{[0-9]+}/move", async (c) => {
    guard(c, "configure");
    const { app, pass } = await passAndLevel(c);
    const levelId = String((await requireLevel(c.env.DB, pass, c.req.param("levelId"))).row.level_id);
    const order = await levelIdsInOrder(c.env.DB, pass);
    const from = order.indexOf(levelId);
    const to = (await readForm(c)).direction === "up" ? from - 1 : from + 1;
    const base = `${passesBase(app)}/${pass.battle_pass_id}/levels`;
    if (to < 0 || to >= order.length) return redirectWithNotice(c, base, "That level is already at that end.", "error");
    [order[from], order[to]] = [order[to], order[from]];
    await setLevelOrder(c.env.DB, pass, order, toIso(c.get("now")), consoleActor(c));
    return redirectWithNotice(c, base, `Level ${levelId} is now level ${to + 1}.`);
  });

/** "Level 2 (id 7)": players see the position, the API the id. */
async function levelTitle(c: ConsoleContext, pass: PassRow, levelId: number) {
  const position = (await levelIdsInOrder(c.env.DB, pass)).indexOf(String(levelId)) + 1;
  return `Level ${position} (id ${levelId})`;
}

function levelCrumbs(app: AppRow, pass: PassRow): [string, string][] {
  const passPath = `${passesBase(app)}/${pass.battle_pass_id}`;
  return [
    [passesBase(app), "Battle passes"],
    [passPath, passName(pass, app)],
    [`${passPath}/levels`, "Levels"],
  ];
}
