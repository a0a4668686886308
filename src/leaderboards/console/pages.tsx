import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import { deleteBoard, insertBoard, listBoards, requireBoard, updateBoard } from "../admin/repo";
import { toDef, type LeaderboardDef, type LeaderboardRow, type MemberType } from "../catalog";
import { boardMemberCounts } from "../member-counts";
import { presentAdmin, type MemberRow, type Presentation } from "../core/present";
import { readAround, readBoardPages } from "../reads";
import { LeaderboardInput } from "../admin/schemas";
import { toIso } from "../../shared/clock";
import { localize } from "../../shared/localize";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  redirectWithNotice,
  type ConsoleContext,
} from "../../kit/console/http";
import { decodeLeaderboard, leaderboardToForm } from "./forms";
import { submitForm } from "../../kit/console/forms/submit";
import { DeleteButton, emptyForm, type FormState } from "../../kit/console/ui/forms";
import { EmptyState, listHref, Pager, SearchForm, Table, Time } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";
import { LeaderboardForm } from "./page-forms";
import { readReviewQueue, RemoveEntryButton, ReviewQueue } from "./review";

/**
 * Leaderboards: their configuration and their live standings (users and teams, paged, a member and the members around).
 */

const AROUND_RANGE = 5;
const boardsBase = (app: AppRow) => `/console/apps/${app.app_id}/leaderboards`;
const boardName = (board: LeaderboardDef, app: AppRow) => localize(board.name, undefined, app.default_language);
const formatScore = (n: number) => n.toLocaleString("en-US");

function page(
  c: ConsoleContext,
  app: AppRow,
  title: string,
  body: Child,
  status: ContentfulStatusCode = 200,
  actions?: Child,
) {
  return renderAppPage(
    c,
    app,
    "leaderboards",
    { title, crumbs: [[boardsBase(app), "Leaderboards"]], status, actions },
    body,
  );
}

function newBoardPage(c: ConsoleContext, app: AppRow, form: FormState, status: ContentfulStatusCode = 200) {
  return page(
    c,
    app,
    "New leaderboard",
    <LeaderboardForm
      form={form}
      action={c.req.path}
      defaultLanguage={app.default_language}
      submit="Create leaderboard"
      isNew
    />,
    status,
  );
}

async function boardsPage(c: ConsoleContext, app: AppRow) {
  const list = listQuery(c);
  const { rows, total } = await listBoards(
    c.env.DB,
    app.app_id,
    list.pageSize,
    (list.currentPage - 1) * list.pageSize,
    list.search,
  );
  const boards = rows.map(toDef);
  const counts = await boardMemberCounts(c.env.DB, boards, c.get("now"));
  const base = boardsBase(app);
  return renderAppPage(
    c,
    app,
    "leaderboards",
    {
      title: "Leaderboards",
      actions: canChange(c) && (
        <a class="button" href={`${base}/new`}>
          New leaderboard
        </a>
      ),
    },
    <>
      <SearchForm action={base} value={list.search} label="Search leaderboards" placeholder="Name or event" />
      <div id="list">
        {boards.length === 0 ? (
          <EmptyState>
            {list.search ? (
              <p>No leaderboard matches “{list.search}”.</p>
            ) : (
              <p>
                No leaderboards yet.{" "}
                {canChange(c) ? <a href={`${base}/new`}>Create one</a> : "An editor can create one"}, or{" "}
                <a href={`/console/apps/${app.app_id}/catalog`}>import a catalog</a>.
              </p>
            )}
          </EmptyState>
        ) : (
          <Table head={["Id", "Name", "Event", "Aggregation", "Users", "Teams"]} numeric={[0, 4, 5]}>
            {boards.map((board, i) => (
              <tr>
                <td class="num">{board.id}</td>
                <td>
                  <a href={`${base}/${board.id}`}>{boardName(board, app)}</a>
                </td>
                <td>
                  <code>{board.eventName}</code>
                  {board.valueField && <span class="muted"> · {board.valueField}</span>}
                </td>
                <td>
                  {board.aggregation}
                  {board.ascending ? ", lowest first" : ""}
                </td>
                <td class="num">{formatScore(counts[i].user)}</td>
                <td class="num">{formatScore(counts[i].team)}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>
    </>,
  );
}

/**
 * The rows of the standings; with `removeFrom` (an editor's view), each has a button removing its entry from that
 * board.
 */
function StandingRows(props: {
  rows: MemberRow[];
  p: Presentation;
  app: AppRow;
  highlight?: string;
  removeFrom?: string;
}) {
  return (
    <Table head={["Rank", "Member", "Name", "Score", ...(props.removeFrom ? [""] : [])]} numeric={[0, 3]}>
      {props.rows.map((row) => {
        const info = row.memberType === "user" ? props.p.infos.get(row.memberId) : undefined;
        return (
          <tr class={row.memberId === props.highlight ? "highlight" : undefined}>
            <td class="num">{row.rank === -1 ? "—" : row.rank}</td>
            <td>
              {row.memberType === "user" ? (
                <a href={`/console/apps/${props.app.app_id}/players/${encodeURIComponent(row.memberId)}`}>
                  {row.memberId}
                </a>
              ) : (
                row.memberId
              )}
            </td>
            <td>{info?.username ?? <span class="muted">—</span>}</td>
            <td class="num">{formatScore(row.score)}</td>
            {props.removeFrom && (
              <td>
                <RemoveEntryButton app={props.app} boardId={props.removeFrom} type={row.memberType} id={row.memberId} />
              </td>
            )}
          </tr>
        );
      })}
    </Table>
  );
}

interface StandingsView {
  type: MemberType;
  member: string;
  list: ReturnType<typeof listQuery>;
  p: Presentation;
  /** A page of the board, or the member with the members around. */
  rows: MemberRow[];
  total: number;
  found: MemberRow | null;
}

/** What the standings show: a page of one member type, or one member with the members around. */
async function readStandings(c: ConsoleContext, app: AppRow, board: LeaderboardDef): Promise<StandingsView> {
  const list = listQuery(c);
  const type: MemberType = c.req.query("type") === "team" ? "team" : "user";
  const member = (c.req.query("member") ?? "").trim().slice(0, 200);
  const p: Presentation = {
    language: undefined,
    defaultLanguage: app.default_language,
    now: c.get("now"),
    infos: new Map(),
  };
  if (member) {
    const around = await readAround(c.env.DB, String(app.app_id), board, type, member, AROUND_RANGE, p);
    return { type, member, list, p, rows: around.members, total: around.members.length, found: around.member };
  }
  const [pageOfBoard] = await readBoardPages(
    c.env.DB,
    String(app.app_id),
    [board],
    p,
    (list.currentPage - 1) * list.pageSize,
    list.pageSize,
  );
  return { type, member, list, p, rows: pageOfBoard.rows[type], total: pageOfBoard.counts[type], found: null };
}

function Standings(props: {
  app: AppRow;
  board: LeaderboardDef;
  view: StandingsView;
  now: number;
  canChange: boolean;
}) {
  const { app, board, view } = props;
  const removeFrom = props.canChange ? board.id : undefined;
  const { type, member, list, p } = view;
  const base = `${boardsBase(app)}/${board.id}`;
  const what = type === "user" ? "user" : "team";
  const tab = (t: MemberType, text: string) => (
    <a
      href={listHref(base, { currentPage: 1, pageSize: list.pageSize }, { type: t })}
      aria-current={type === t ? "page" : undefined}
    >
      {text}
    </a>
  );
  const season = presentAdmin(board, props.now);
  return (
    <section class="panel" id="standings">
      <h2>Standings</h2>
      <p class="muted">
        Season since <Time iso={season.season_started_at} />
        {season.nextReset && (
          <>
            {" "}
            · next reset <Time iso={season.nextReset} />
          </>
        )}
        . Scores appear within about two seconds of their event.
      </p>
      <nav class="tabs" aria-label="Member type">
        {tab("user", "Users")} {tab("team", "Teams")}
      </nav>
      {/* biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the <search> element is not in every browser studios use */}
      <form method="get" action={base} class="search" role="search">
        <input type="hidden" name="type" value={type} />
        <label for="member">Find a {what}</label>
        <input type="search" id="member" name="member" value={member} placeholder={`${what} id`} />
        <button type="submit" class="secondary">
          Show around
        </button>
        {member && (
          <a href={listHref(base, { currentPage: 1, pageSize: 25 }, { type: type === "team" ? "team" : undefined })}>
            Back to the top
          </a>
        )}
      </form>
      {member && view.found?.rank === -1 && (
        <EmptyState>
          <p>
            The {what} “{member}” has no score in this season.
          </p>
        </EmptyState>
      )}
      {member && view.found && view.found.rank !== -1 && (
        <>
          <p>
            {member} ranks <strong>{view.found.rank}</strong> with <strong>{formatScore(view.found.score)}</strong>. The{" "}
            {AROUND_RANGE} members before and after:
          </p>
          <StandingRows rows={view.rows} p={p} app={app} highlight={member} removeFrom={removeFrom} />
        </>
      )}
      {!member &&
        (view.rows.length === 0 ? (
          <EmptyState>
            <p>
              No {what}s on this board yet this season. Scores come from {board.eventName} events; send one from the
              event tester.
            </p>
          </EmptyState>
        ) : (
          <StandingRows rows={view.rows} p={p} app={app} removeFrom={removeFrom} />
        ))}
      {!member && (
        <Pager
          base={base}
          list={{ ...list, total: view.total }}
          extra={{ type: type === "team" ? "team" : undefined }}
        />
      )}
    </section>
  );
}

async function boardPage(
  c: ConsoleContext,
  app: AppRow,
  row: LeaderboardRow,
  form: FormState,
  status: ContentfulStatusCode = 200,
) {
  const board = toDef(row);
  const path = `${boardsBase(app)}/${board.id}`;
  const [view, queue] = await Promise.all([readStandings(c, app, board), readReviewQueue(c.env.DB, app, board)]);
  return page(
    c,
    app,
    boardName(board, app),
    <>
      <Standings app={app} board={board} view={view} now={c.get("now")} canChange={canChange(c)} />
      <ReviewQueue app={app} board={board} queue={queue} canChange={canChange(c)} />
      <section class="panel">
        <h2>Configuration</h2>
        <LeaderboardForm form={form} action={path} defaultLanguage={app.default_language} submit="Save" isNew={false} />
      </section>
    </>,
    status,
    canChange(c) && (
      <DeleteButton
        action={`${path}/delete`}
        confirm={`Delete leaderboard ${board.id} with all its scores? This cannot be undone.`}
      />
    ),
  );
}

const NEW_BOARD = {
  aggregation: "sum",
  period_range: "never",
  period_range_reset_at_time: "00:00:00",
  period_range_time_zone: "UTC",
};

export const leaderboardPages = consoleRouter()
  .get("/console/apps/:appId/leaderboards", async (c) =>
    boardsPage(c, await requireApp(c.env.DB, c.req.param("appId"))),
  )
  .get("/console/apps/:appId/leaderboards/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return newBoardPage(c, app, emptyForm({ ...NEW_BOARD, "name.0.lang": app.default_language }));
  })
  .post("/console/apps/:appId/leaderboards/new", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return submitForm(c, {
      decode: decodeLeaderboard,
      schema: LeaderboardInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        const now = c.get("now");
        const row = await insertBoard(c.env.DB, app.app_id, input, now, toIso(now), consoleActor(c));
        return redirectWithNotice(
          c,
          `${boardsBase(app)}/${row.leaderboard_id}`,
          `Leaderboard ${row.leaderboard_id} created.`,
        );
      },
      render: (form, status) => newBoardPage(c, app, form, status),
    });
  })
  .get("/console/apps/:appId/leaderboards/:boardId{[0-9]+}", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireBoard(c.env.DB, app.app_id, c.req.param("boardId"));
    const form = emptyForm(leaderboardToForm(presentAdmin(toDef(row), c.get("now")), app.default_language));
    return boardPage(c, app, row, { ...form, readOnly: !canChange(c) });
  })
  .post("/console/apps/:appId/leaderboards/:boardId{[0-9]+}", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireBoard(c.env.DB, app.app_id, c.req.param("boardId"));
    return submitForm(c, {
      decode: decodeLeaderboard,
      schema: LeaderboardInput,
      defaultLanguage: app.default_language,
      save: async (input) => {
        const now = c.get("now");
        await updateBoard(c.env.DB, row, input, now, toIso(now), consoleActor(c));
        return redirectWithNotice(c, c.req.path, `Leaderboard ${row.leaderboard_id} saved.`);
      },
      render: (form, status) => boardPage(c, app, row, form, status),
    });
  })
  .post("/console/apps/:appId/leaderboards/:boardId{[0-9]+}/delete", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const row = await requireBoard(c.env.DB, app.app_id, c.req.param("boardId"));
    await deleteBoard(c.env.DB, row, c.get("now"), consoleActor(c));
    return redirectWithNotice(c, boardsBase(app), `Leaderboard ${row.leaderboard_id} deleted.`);
  });
