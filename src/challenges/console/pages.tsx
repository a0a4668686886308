import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import {
  challengeCountsByCategory,
  createCategory,
  createChallenge,
  deleteCategory,
  deleteChallenge,
  listCategories,
  listChallenges,
  replaceCategory,
  replaceChallenge,
  requireCategory,
  requireChallenge,
} from "../admin/repo";
import { presentCategoryRow, presentChallengeRow, type CategoryRow, type ChallengeRow } from "../rows";
import { CategoryInput, ChallengeInput } from "../admin/schemas";
import { toIso } from "../../shared/clock";
import { isDomainError } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { localize } from "../../shared/localize";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  playerIdOf,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { categoryToForm, challengeToForm, decodeCategory, decodeChallenge } from "./forms";
import { submitForm } from "../../kit/console/forms/submit";
import { playerPath } from "../../kit/console/ui/nav";
import { resetPlayerChallenges } from "../admin/player-reset";
import { DeleteButton, emptyForm, type FormState } from "../../kit/console/ui/forms";
import { EmptyState, Pager, SearchForm, StatusBadge, Table } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";
import { CategoryForm, ChallengeForm, newChallengeForm } from "./page-forms";

/** Challenge categories (by position) and challenges: lists, create, edit, delete. */

const ALL_CATEGORIES = { currentPage: 1, pageSize: 100 };
const PERIOD_NAMES: Record<string, string> = { d: "daily", w: "weekly", m: "monthly" };
const nameOf = (json: string, app: AppRow) => localize(JSON.parse(json), undefined, app.default_language);

async function listPage(c: ConsoleContext, app: AppRow) {
  const list = listQuery(c);
  const categoryFilter = c.req.query("category_id") ?? "";
  const categoryId = categoryFilter === "" ? null : (parseId(categoryFilter) ?? -1);
  const [categories, challenges, counts] = await Promise.all([
    listCategories(c.env.DB, app.app_id, ALL_CATEGORIES),
    listChallenges(c.env.DB, app.app_id, list, categoryId, list.search),
    challengeCountsByCategory(c.env.DB, app.app_id),
  ]);
  const base = `/console/apps/${app.app_id}/challenges`;
  const categoryNames = new Map(categories.rows.map((cat) => [cat.category_id, nameOf(cat.category_name, app)]));
  const editor = canChange(c);
  return renderAppPage(
    c,
    app,
    "challenges",
    {
      title: "Challenges",
      actions: editor && (
        <>
          <a class="button secondary" href={`${base}/categories/new`}>
            New category
          </a>
          {categories.rows.length > 0 && (
            <a class="button" href={`${base}/new${categoryId && categoryId > 0 ? `?category_id=${categoryId}` : ""}`}>
              New challenge
            </a>
          )}
        </>
      ),
    },
    <>
      <section class="panel">
        <h2>Categories</h2>
        {categories.rows.length === 0 ? (
          <EmptyState>
            <p>
              No categories yet. Challenges belong to a category:{" "}
              {editor ? <a href={`${base}/categories/new`}>create one</a> : "an editor can create one"}, or{" "}
              <a href={`/console/apps/${app.app_id}/catalog`}>import a catalog</a>.
            </p>
          </EmptyState>
        ) : (
          <Table head={["Position", "Name", "Slug", "Daily", "Challenges"]} numeric={[0, 4]}>
            {categories.rows.map((cat) => (
              <tr>
                <td class="num">{cat.category_position}</td>
                <td>
                  <a href={`${base}/categories/${cat.category_id}`}>{nameOf(cat.category_name, app)}</a>
                </td>
                <td>
                  <code>{cat.category_slug}</code>
                </td>
                <td>{cat.is_daily_category ? `${cat.daily_challenge_count} a day` : "—"}</td>
                <td class="num">
                  <a href={`${base}?category_id=${cat.category_id}`}>{counts.get(cat.category_id) ?? 0}</a>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      {categories.rows.length > 0 && (
        <section class="panel">
          <h2>Challenges</h2>
          <SearchForm
            action={base}
            value={list.search}
            label="Search challenges"
            placeholder="Name or event"
            hidden={categoryFilter ? { category_id: categoryFilter } : {}}
          />
          <div id="list">
            {categoryId !== null && (
              <p class="muted">
                In category {categoryNames.get(categoryId) ?? categoryFilter} · <a href={base}>all categories</a>
              </p>
            )}
            {challenges.rows.length === 0 ? (
              <EmptyState>
                <p>
                  {list.search || categoryId !== null ? (
                    "No challenge matches."
                  ) : (
                    <>
                      No challenges yet. Create one, or{" "}
                      <a href={`/console/apps/${app.app_id}/catalog`}>import a catalog</a>.
                    </>
                  )}
                </p>
              </EmptyState>
            ) : (
              <Table head={["Id", "Name", "Category", "Event", "Goal", "Kind"]} numeric={[0, 4]}>
                {challenges.rows.map((ch) => (
                  <tr>
                    <td class="num">{ch.challenge_id}</td>
                    <td>
                      <a href={`${base}/${ch.challenge_id}`}>{nameOf(ch.challenge_name, app)}</a>
                    </td>
                    <td>{categoryNames.get(ch.category_id) ?? ch.category_id}</td>
                    <td>
                      <code>{ch.event_name}</code>
                    </td>
                    <td class="num">
                      {ch.challenge_goal_condition === 1 ? "≤ " : ""}
                      {ch.challenge_goal.toLocaleString("en-US")}
                    </td>
                    <td>
                      {ch.is_auto_activated ? <StatusBadge status="automatic" /> : null}{" "}
                      {ch.repeatable ? <StatusBadge status="repeatable" /> : null}
                      {ch.period_range !== "never" ? (
                        <StatusBadge status={`resets ${PERIOD_NAMES[ch.period_range] ?? ch.period_range}`} />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </Table>
            )}
            <Pager
              base={base}
              list={{ ...list, total: challenges.total }}
              extra={{ category_id: categoryFilter || undefined }}
            />
          </div>
        </section>
      )}
    </>,
  );
}

async function appCategories(c: ConsoleContext, app: AppRow): Promise<CategoryRow[]> {
  return (await listCategories(c.env.DB, app.app_id, ALL_CATEGORIES)).rows;
}

const challengesBase = (app: AppRow) => `/console/apps/${app.app_id}/challenges`;
const deleteWarning = (what: string) => `Delete ${what}? Players lose their progress in it. This cannot be undone.`;

/** A category's form page: new (row null) or existing, read-only for a viewer. */
function categoryPage(
  c: ConsoleContext,
  app: AppRow,
  row: CategoryRow | null,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const editor = canChange(c);
  return renderAppPage(
    c,
    app,
    "challenges",
    {
      title: row ? `Category ${row.category_slug}` : "New category",
      crumbs: [[challengesBase(app), "Challenges"]],
      status,
      actions: row && editor && (
        <DeleteButton action={`${c.req.path}/delete`} confirm={deleteWarning(`category ${row.category_slug}`)} />
      ),
    },
    <CategoryForm
      form={{ ...form, readOnly: !editor }}
      action={c.req.path}
      defaultLanguage={app.default_language}
      submit={row ? "Save" : "Create category"}
    />,
  );
}

/** A challenge's form page: new (row null) or existing, read-only for a viewer. */
async function challengePage(
  c: ConsoleContext,
  app: AppRow,
  row: ChallengeRow | null,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const editor = canChange(c);
  return renderAppPage(
    c,
    app,
    "challenges",
    {
      title: row ? `Challenge ${row.challenge_id}: ${nameOf(row.challenge_name, app)}` : "New challenge",
      crumbs: [[challengesBase(app), "Challenges"]],
      status,
      actions: row && editor && (
        <DeleteButton action={`${c.req.path}/delete`} confirm={deleteWarning(`challenge ${row.challenge_id}`)} />
      ),
    },
    <ChallengeForm
      form={{ ...form, readOnly: !editor }}
      action={c.req.path}
      categories={await appCategories(c, app)}
      defaultLanguage={app.default_language}
      submit={row ? "Save" : "Create challenge"}
      isNew={!row}
    />,
  );
}

const appOf = (c: ConsoleContext) => requireApp(c.env.DB, c.req.param("appId")!);

export const challengesPages = consoleRouter()
  // The player page's reset of their challenges (src/console/pages/players.tsx).
  .post("/console/apps/:appId/players/:userId/reset-challenges", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = playerIdOf(c);
    await resetPlayerChallenges(c.env, app.app_id, userId, c.get("now"), consoleActor(c));
    return redirectWithNotice(c, playerPath(app, userId), `Challenges of ${userId} reset.`);
  })
  .get("/console/apps/:appId/challenges", async (c) => listPage(c, await appOf(c)))

  // ---- categories
  .get("/console/apps/:appId/challenges/categories/new", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    return categoryPage(
      c,
      app,
      null,
      emptyForm({ "category_name.0.lang": app.default_language, category_position: "0", daily_challenge_count: "3" }),
    );
  })
  .post("/console/apps/:appId/challenges/categories/new", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    return submitForm(c, {
      decode: decodeCategory,
      schema: CategoryInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        const row = await createCategory(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, challengesBase(app), `Category ${row.category_slug} created.`);
      },
      render: (form, status) => categoryPage(c, app, null, form, status),
    });
  })
  .get("/console/apps/:appId/challenges/categories/:categoryId{[0-9]+}", async (c) => {
    const app = await appOf(c);
    const row = await requireCategory(c.env.DB, app.app_id, c.req.param("categoryId"));
    return categoryPage(c, app, row, emptyForm(categoryToForm(presentCategoryRow(row), app.default_language)));
  })
  .post("/console/apps/:appId/challenges/categories/:categoryId{[0-9]+}", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const row = await requireCategory(c.env.DB, app.app_id, c.req.param("categoryId"));
    return submitForm(c, {
      decode: decodeCategory,
      schema: CategoryInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        await replaceCategory(c.env.DB, row, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, c.req.path, `Category ${input.category_slug} saved.`);
      },
      render: (form, status) => categoryPage(c, app, row, form, status),
    });
  })
  .post("/console/apps/:appId/challenges/categories/:categoryId{[0-9]+}/delete", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const row = await requireCategory(c.env.DB, app.app_id, c.req.param("categoryId"));
    try {
      await deleteCategory(c.env.DB, row, consoleActor(c));
    } catch (err) {
      // A category that still holds challenges stays: say so on the category's page.
      if (isDomainError(err, "conflict"))
        return redirectWithNotice(c, `${challengesBase(app)}/categories/${row.category_id}`, err.message, "error");
      throw err;
    }
    return redirectWithNotice(c, challengesBase(app), `Category ${row.category_slug} deleted.`);
  })

  // ---- challenges
  .get("/console/apps/:appId/challenges/new", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const categories = await appCategories(c, app);
    const chosen = categories.find((cat) => String(cat.category_id) === c.req.query("category_id")) ?? categories[0];
    if (!chosen)
      return redirectWithNotice(
        c,
        `${challengesBase(app)}/categories/new`,
        "Create a category first: every challenge belongs to one.",
        "error",
      );
    return challengePage(c, app, null, newChallengeForm(String(chosen.category_id), app.default_language));
  })
  .post("/console/apps/:appId/challenges/new", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    return submitForm(c, {
      decode: decodeChallenge,
      schema: ChallengeInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        const row = await createChallenge(c.env.DB, app.app_id, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(
          c,
          `${challengesBase(app)}/${row.challenge_id}`,
          `Challenge ${row.challenge_id} created.`,
        );
      },
      render: (form, status) => challengePage(c, app, null, form, status),
    });
  })
  .get("/console/apps/:appId/challenges/:challengeId{[0-9]+}", async (c) => {
    const app = await appOf(c);
    const row = await requireChallenge(c.env.DB, app.app_id, c.req.param("challengeId"));
    return challengePage(c, app, row, emptyForm(challengeToForm(presentChallengeRow(row), app.default_language)));
  })
  .post("/console/apps/:appId/challenges/:challengeId{[0-9]+}", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const row = await requireChallenge(c.env.DB, app.app_id, c.req.param("challengeId"));
    return submitForm(c, {
      decode: decodeChallenge,
      schema: ChallengeInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        await replaceChallenge(c.env.DB, row, input, toIso(c.get("now")), consoleActor(c));
        return redirectWithNotice(c, c.req.path, `Challenge ${row.challenge_id} saved.`);
      },
      render: (form, status) => challengePage(c, app, row, form, status),
    });
  })
  .post("/console/apps/:appId/challenges/:challengeId{[0-9]+}/delete", async (c) => {
    guard(c, "configure");
    const app = await appOf(c);
    const row = await requireChallenge(c.env.DB, app.app_id, c.req.param("challengeId"));
    await deleteChallenge(c.env.DB, row, consoleActor(c));
    return redirectWithNotice(c, challengesBase(app), `Challenge ${row.challenge_id} deleted.`);
  });
