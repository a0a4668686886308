import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { requireApp, type AppRow } from "../../apps/repo";
import { readUserState } from "../../players/admin/state";
import { BanInput } from "../../players/admin/schemas";
import { readUserInfo } from "../../auth/user-info";
import { listPlayers, PLAYER_SORTS, type PlayerSort } from "../../players/registry";
import { banOf, isInForce, readBan } from "../../auth/bans";
import { challengeCatalog } from "../../challenges/catalog";
import { appLeaderboards } from "../../leaderboards/catalog";
import type { Presentation } from "../../leaderboards/core/present";
import { readMemberRows } from "../../leaderboards/reads";
import { erasureSubject } from "../../apps/erasure-tombstones";
import { receiptsOf } from "../../players/erasure-receipts";
import { requestErasure } from "../../players/erasure";
import { exportPlayer } from "../../players/export";
import { banPlayer, liftBan } from "../../players/bans";
import { resetPlayerChallenges } from "../../players/challenge-reset";
import { ApiError, badRequest, notFound } from "../../shared/errors";
import { applyCorrection } from "../../players/corrections";
import { CORRECTIONS, playerTarget } from "../../players/correction-list";
import { ChallengeCorrectionInput, ScoreCorrectionInput } from "../../players/admin/correction-schemas";
import { localize } from "../../shared/localize";
import { utcText } from "../core/times";
import { userObject } from "../../user/names";
import {
  canChange,
  consoleActor,
  consoleRouter,
  guard,
  listQuery,
  readForm,
  redirectWithNotice,
  type ConsoleContext,
} from "../http";
import { decodeBan } from "../forms/bans";
import { submitForm } from "../forms/submit";
import { PostForm } from "../ui/forms";
import { EmptyState, Pager, SearchForm, StatusBadge, Table, Time } from "../ui/lists";
import { renderAppPage } from "../ui/render";
import { BanSection } from "./player-ban";
import { PointsSection, readPlayerPoints } from "./player-points";
import { erasureInProgress, exportFileName, PrivacySection } from "./player-privacy";
import { playerPath, playersPath, type PlayerView } from "./player-view";

/**
 * Players: find one, then everything about them in one place. Each section of a player's page is
 * one component of PLAYER_SECTIONS, so an area adds its part (bans, data export) with one line.
 */

const RECENT_EVENTS = 20;
const SORT_LABELS: Record<PlayerSort, string> = { last_seen: "last seen", first_seen: "first seen", id: "id" };
const MAX_USER_ID = 256;

async function readPlayer(c: ConsoleContext, app: AppRow, userId: string): Promise<PlayerView> {
  const appId = String(app.app_id);
  const now = c.get("now");
  const [info, state, catalog, leaderboards, events, ban, erasures, points] = await Promise.all([
    readUserInfo(c.env.DB, appId, userId),
    readUserState(c.env, appId, userId, now),
    challengeCatalog(c.env.DB, appId),
    appLeaderboards(c.env.DB, appId),
    userObject(c.env, appId, userId).recentEvents(RECENT_EVENTS),
    readBan(c.env.DB, app.app_id, userId),
    erasureSubject(c.env, appId, userId).then((subject) => receiptsOf(c.env.DB, app.app_id, subject)),
    readPlayerPoints(c.env, appId, userId),
  ]);
  const p: Presentation = { language: undefined, defaultLanguage: app.default_language, now, infos: new Map() };
  const rows = await readMemberRows(c.env.DB, appId, leaderboards.boards, "user", userId, p);
  const boards = leaderboards.boards.map((board, i) => ({
    id: board.id,
    name: localize(board.name, undefined, app.default_language),
    row: rows[i],
  }));
  const inForce = ban && isInForce(banOf(ban), now) ? ban : null;
  return { app, userId, info, state, catalog, boards, events, ban: inForce, erasures, canChange: canChange(c), points };
}

function ChallengesSection({ view }: { view: PlayerView }) {
  const rows = view.state.challenges;
  return (
    <section class="panel">
      <h2>Challenges</h2>
      {rows.length === 0 ? (
        <EmptyState>
          <p>No challenge state yet: the player has not listed or played any challenge.</p>
        </EmptyState>
      ) : (
        <Table
          head={[
            "Id",
            "Challenge",
            "State",
            "Counter",
            "Goal",
            "Unlocked",
            "Activated",
            "Times out",
            ...(view.canChange ? ["Correct"] : []),
          ]}
          numeric={[0, 3, 4]}
        >
          {rows.map((ch) => {
            const def = view.catalog.byId.get(ch.challenge_id)?.challenge;
            return (
              <tr>
                <td class="num">{ch.challenge_id}</td>
                <td>
                  {def ? localize(def.name, undefined, view.app.default_language) : <span class="muted">deleted</span>}
                </td>
                <td>
                  <StatusBadge status={ch.type} />
                </td>
                <td class="num">{ch.score}</td>
                <td class="num">{def ? `${def.goalCondition === 1 ? "≤ " : ""}${def.goal}` : "—"}</td>
                <td>
                  <Time iso={ch.unlocked_at} />
                </td>
                <td>
                  <Time iso={ch.activated_at} />
                </td>
                <td>
                  <Time iso={ch.expires_at} empty="never" />
                </td>
                {view.canChange && def && (
                  <td>
                    <ChallengeCorrectionForm view={view} challengeId={ch.challenge_id} goal={def.goal} />
                  </td>
                )}
              </tr>
            );
          })}
        </Table>
      )}
    </section>
  );
}

/**
 * One challenge's correction: complete it, put it back, or set its counter; always with a reason
 * (src/players/corrections.ts).
 */
function ChallengeCorrectionForm({ view, challengeId, goal }: { view: PlayerView; challengeId: string; goal: number }) {
  return (
    <details class="correction">
      <summary>Correct</summary>
      <PostForm
        action={`${playerPath(view.app, view.userId)}/challenges/${encodeURIComponent(challengeId)}/correct`}
        class="stack"
      >
        <label>
          Change{" "}
          <select name="change">
            <option value="unclaimed">Complete it (unclaimed)</option>
            <option value="unlocked">Put it back (unlocked)</option>
            <option value="counter">Set the counter</option>
          </select>
        </label>
        <label>
          Counter (0–{goal}) <input type="number" name="counter" min="0" max={String(goal)} step="1" />
        </label>
        <label>
          Why (kept in the audit log){" "}
          <input name="reason" required maxlength={500} placeholder="why the progress is corrected" />
        </label>
        <button type="submit">Correct</button>
      </PostForm>
    </details>
  );
}

function BattlePassesSection({ view }: { view: PlayerView }) {
  const passes = view.state.battle_passes;
  return (
    <section class="panel">
      <h2>Battle passes</h2>
      {passes.length === 0 && (
        <EmptyState>
          <p>The player has not unlocked any battle pass.</p>
        </EmptyState>
      )}
      {passes.map((pass) => (
        <div class="pass">
          <h3>
            {pass.battle_pass_name} {pass.battle_pass_completed && <StatusBadge status="completed" />}
          </h3>
          <p class="muted">
            Unlocked <Time iso={pass.purchased_at} />
          </p>
          <Table head={["Level", "Challenge", "State", "Counter", "Goal", "Reward"]} numeric={[0, 3, 4]}>
            {pass.levels.flatMap((level, i) =>
              level.challenges.map((ch, j) => (
                <tr>
                  <td class="num">{j === 0 ? i + 1 : ""}</td>
                  <td>{ch.challenge_name}</td>
                  <td>
                    <StatusBadge status={ch.type} />
                  </td>
                  <td class="num">{ch.user_challenge_current_score}</td>
                  <td class="num">{ch.challenge_goal}</td>
                  <td>
                    {j === 0 ? (level.reward_claimed ? "claimed" : level.level_completed ? "to claim" : "—") : ""}
                  </td>
                </tr>
              )),
            )}
          </Table>
        </div>
      ))}
    </section>
  );
}

function LeaderboardsSection({ view }: { view: PlayerView }) {
  return (
    <section class="panel">
      <h2>Leaderboard positions</h2>
      {view.boards.length === 0 ? (
        <EmptyState>
          <p>The app has no leaderboards.</p>
        </EmptyState>
      ) : (
        <Table head={["Leaderboard", "Rank", "Score", ...(view.canChange ? ["Correct"] : [])]} numeric={[1, 2]}>
          {view.boards.map((b) => (
            <tr>
              <td>
                <a
                  href={`/console/apps/${view.app.app_id}/leaderboards/${b.id}?member=${encodeURIComponent(view.userId)}`}
                >
                  {b.name}
                </a>
              </td>
              <td class="num">{b.row.rank === -1 ? "—" : b.row.rank}</td>
              <td class="num">{b.row.score.toLocaleString("en-US")}</td>
              {view.canChange && (
                <td>
                  <details class="correction">
                    <summary>Set score</summary>
                    <PostForm action={`${playerPath(view.app, view.userId)}/leaderboards/${b.id}/score`} class="stack">
                      <label>
                        Score <input type="number" name="score" required step="1" value={String(b.row.score)} />
                      </label>
                      <label>
                        Why (kept in the audit log){" "}
                        <input name="reason" required maxlength={500} placeholder="why the score is corrected" />
                      </label>
                      <button type="submit">Set score</button>
                    </PostForm>
                  </details>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

function EventsSection({ view }: { view: PlayerView }) {
  return (
    <section class="panel">
      <h2>Recent events</h2>
      {view.events.length === 0 ? (
        <EmptyState>
          <p>
            No events kept for this player.{" "}
            <a href={`/console/apps/${view.app.app_id}/events?user_id=${encodeURIComponent(view.userId)}`}>
              Send one from the event tester
            </a>
            .
          </p>
        </EmptyState>
      ) : (
        <Table head={["Received", "Event", "Type", "Session", "Team", "Meta data"]}>
          {view.events.map((e) => (
            <tr>
              <td>
                <Time iso={new Date(e.received_at).toISOString()} seconds />
              </td>
              <td>
                <code>{e.event_name}</code>
              </td>
              <td>{e.event_type}</td>
              <td>{e.session_id}</td>
              <td>{e.team_id ?? <span class="muted">—</span>}</td>
              <td class="snippet">
                <code>{JSON.stringify(e.meta_data)}</code>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <p class="muted">Events reach this list through the background queue, a second or two after they are sent.</p>
    </section>
  );
}

/** The player's page, section by section. */
export const PLAYER_SECTIONS: ((props: { view: PlayerView }) => Child)[] = [
  ChallengesSection,
  BattlePassesSection,
  LeaderboardsSection,
  PointsSection,
  EventsSection,
  BanSection,
  PrivacySection,
];

function PlayerActions({ view }: { view: PlayerView }) {
  const base = playerPath(view.app, view.userId);
  return (
    <>
      <a
        class="button secondary"
        href={`/console/apps/${view.app.app_id}/events?user_id=${encodeURIComponent(view.userId)}`}
      >
        Send an event
      </a>
      {view.canChange && (
        <PostForm
          action={`${base}/reset-challenges`}
          class="inline"
          swap="innerHTML"
          confirm={`Reset every challenge of ${view.userId}? Their progress in personal challenges is lost.`}
        >
          <button type="submit" class="danger">
            Reset challenges
          </button>
        </PostForm>
      )}
    </>
  );
}

/**
 * A path's user id: any text the API takes (1 to 256 characters); a longer one is no player's (never cut to another's
 * id).
 */
function userIdOf(c: ConsoleContext): string {
  const userId = c.req.param("userId") ?? "";
  if (userId.length > MAX_USER_ID)
    throw badRequest(`A user id has at most ${MAX_USER_ID} characters; this one has ${userId.length}.`);
  return userId;
}

export const playerPages = consoleRouter()
  .get("/console/apps/:appId/players", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const exact = (c.req.query("user_id") ?? "").trim();
    if (exact) return c.redirect(`${playersPath(app)}/${encodeURIComponent(exact.slice(0, MAX_USER_ID))}`, 303);
    const list = listQuery(c);
    const sort = (PLAYER_SORTS as readonly string[]).includes(c.req.query("sort") ?? "")
      ? (c.req.query("sort") as PlayerSort)
      : "last_seen";
    const found = await listPlayers(c.env.DB, app.app_id, c.get("now"), { ...list, sort });
    const extra: Record<string, string> = sort === "last_seen" ? {} : { sort };
    return renderAppPage(
      c,
      app,
      "players",
      {
        title: "Players",
        lead: "Every player the app has seen, newest activity first: their challenges, battle passes, leaderboard positions and recent events, and corrections of their progress.",
      },
      <>
        <SearchForm
          action={playersPath(app)}
          value={list.search}
          label="Search by id prefix or username"
          placeholder="player-4 or a name"
          hidden={extra}
        />
        <p class="muted">
          Sort:{" "}
          {PLAYER_SORTS.map((s, i) => (
            <>
              {i > 0 && " · "}
              {s === sort ? (
                <strong>{SORT_LABELS[s]}</strong>
              ) : (
                <a
                  href={`${playersPath(app)}?${new URLSearchParams({ ...(list.search ? { search: list.search } : {}), ...(s === "last_seen" ? {} : { sort: s }) })}`}
                >
                  {SORT_LABELS[s]}
                </a>
              )}
            </>
          ))}
        </p>
        <div id="list">
          {found.rows.length === 0 ? (
            <EmptyState>
              {list.search ? (
                <p>No player's id starts with “{list.search}” and no username contains it.</p>
              ) : (
                <p>No player yet: players appear with their first event, access token or stored user info.</p>
              )}
            </EmptyState>
          ) : (
            <>
              <Table head={["User id", "Username", "Last seen", "First seen", "Events", "Banned"]} numeric={[4]}>
                {found.rows.map((u) => (
                  <tr>
                    <td>
                      <a href={`${playersPath(app)}/${encodeURIComponent(u.user_id)}`}>{u.user_id}</a>
                    </td>
                    <td>{u.username ?? <span class="muted">—</span>}</td>
                    <td>
                      <Time iso={new Date(u.last_seen_at).toISOString()} />
                    </td>
                    <td>
                      <Time iso={new Date(u.first_seen_at).toISOString()} />
                    </td>
                    <td class="num">{u.events.toLocaleString("en-US")}</td>
                    <td>{u.banned === 1 ? <StatusBadge status="banned" /> : <span class="muted">—</span>}</td>
                  </tr>
                ))}
              </Table>
              <Pager base={playersPath(app)} list={{ ...list, total: found.total }} extra={extra} />
            </>
          )}
        </div>
        <form method="get" action={playersPath(app)} class="search">
          <label for="user-id">Open a player by their exact id</label>
          <input id="user-id" name="user_id" required maxlength={MAX_USER_ID} placeholder="player-42" />
          <button type="submit" class="secondary">
            Open player
          </button>
        </form>
      </>,
    );
  })
  .get("/console/apps/:appId/players/:userId", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    return playerPage(c, await readPlayer(c, app, userIdOf(c)));
  })
  .get("/console/apps/:appId/players/:userId/export", async (c) => {
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    const document = await exportPlayer(c.env, app, userId, c.get("now"), consoleActor(c));
    c.header("Content-Disposition", `attachment; filename="${exportFileName(app, userId)}"`);
    return c.json(document, 200);
  })
  .post("/console/apps/:appId/players/:userId/reset-challenges", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    await resetPlayerChallenges(c.env, app.app_id, userId, c.get("now"), consoleActor(c));
    return redirectWithNotice(c, playerPath(app, userId), `Challenges of ${userId} reset.`);
  })
  .post("/console/apps/:appId/players/:userId/challenges/:challengeId/correct", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    const challengeId = c.req.param("challengeId");
    const form = await readForm(c);
    const change = form.change === "counter" ? { counter: form.counter ?? "" } : { state: form.change ?? "" };
    return correctFromConsole(c, app, userId, `Challenge ${challengeId} of ${userId} corrected.`, (actor) => {
      const parsed = ChallengeCorrectionInput.safeParse({
        ...change,
        ...("counter" in change ? { counter: Number(change.counter === "" ? NaN : change.counter) } : {}),
        reason: form.reason ?? "",
      });
      if (!parsed.success) throw invalidForm(parsed.error.issues);
      const { reason, ...rest } = parsed.data;
      return applyCorrection(
        c.env,
        CORRECTIONS.challenge,
        playerTarget(app.app_id, userId),
        { challengeId, ...rest, reason },
        c.get("now"),
        actor,
      );
    });
  })
  .post("/console/apps/:appId/players/:userId/leaderboards/:leaderboardId/score", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    const leaderboardId = c.req.param("leaderboardId");
    const form = await readForm(c);
    return correctFromConsole(
      c,
      app,
      userId,
      `The score of ${userId} on leaderboard ${leaderboardId} is set.`,
      (actor) => {
        const parsed = ScoreCorrectionInput.safeParse({
          score: form.score === undefined || form.score === "" ? NaN : Number(form.score),
          reason: form.reason ?? "",
        });
        if (!parsed.success) throw invalidForm(parsed.error.issues);
        const input = { leaderboardId, memberType: "user" as const, ...parsed.data };
        return applyCorrection(
          c.env,
          CORRECTIONS.leaderboardScore,
          playerTarget(app.app_id, userId),
          input,
          c.get("now"),
          actor,
        );
      },
    );
  })
  .post("/console/apps/:appId/players/:userId/erase", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    const typed = (await readForm(c)).confirm_user_id ?? "";
    // Spaces typed around the id are forgiven, unless the id itself has them.
    if (typed !== userId && typed.trim() !== userId) {
      const eraseError = typed.trim()
        ? `“${typed.trim()}” is not this player's id.`
        : "Type the player's id to confirm.";
      return playerPage(c, { ...(await readPlayer(c, app, userId)), eraseError }, 400);
    }
    const receipt = await requestErasure(c.env, app.app_id, userId, consoleActor(c), c.get("now"));
    return redirectWithNotice(
      c,
      playerPath(app, userId),
      `Erasure ${receipt.erasure_id} of ${userId} started: it completes within seconds.`,
    );
  })
  .post("/console/apps/:appId/players/:userId/ban", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    return submitForm(c, {
      decode: decodeBan,
      schema: BanInput,
      save: async (input) => {
        const expiresAt = input.expires_at == null ? null : Date.parse(input.expires_at);
        await banPlayer(c.env, app.app_id, userId, { reason: input.reason, expiresAt }, c.get("now"), consoleActor(c));
        return redirectWithNotice(
          c,
          playerPath(app, userId),
          `${userId} is banned ${expiresAt === null ? "until the ban is lifted" : `until ${utcText(expiresAt)}`}.`,
        );
      },
      render: async (banForm, status) => playerPage(c, { ...(await readPlayer(c, app, userId)), banForm }, status),
    });
  })
  .post("/console/apps/:appId/players/:userId/unban", async (c) => {
    guard(c, "configure");
    const app = await requireApp(c.env.DB, c.req.param("appId"));
    const userId = userIdOf(c);
    if (!(await liftBan(c.env, app.app_id, userId, consoleActor(c)))) throw notFound(`Player ${userId} is not banned.`);
    // The Bans page lifts through here too and goes back to its list.
    const back = (await readForm(c)).back === "bans" ? `/console/apps/${app.app_id}/bans` : playerPath(app, userId);
    return redirectWithNotice(c, back, `The ban of ${userId} is lifted.`);
  });

/** A form's problems, as the notice of the player's page says them. */
function invalidForm(issues: { path: PropertyKey[]; message: string }[]) {
  return badRequest(issues.map((i) => `${i.path.map(String).join(".") || "form"}: ${i.message}`).join("; "));
}

/** Makes a correction from the player's page: back to it with what was done, or why it was refused (400, 404, 409). */
async function correctFromConsole(
  c: ConsoleContext,
  app: AppRow,
  userId: string,
  done: string,
  correct: (actor: ReturnType<typeof consoleActor>) => Promise<unknown>,
) {
  try {
    await correct(consoleActor(c));
  } catch (err) {
    if (err instanceof ApiError && err.status < 500)
      return redirectWithNotice(c, playerPath(app, userId), `Not corrected: ${err.message}`, "error");
    throw err;
  }
  return redirectWithNotice(c, playerPath(app, userId), done);
}

/** The page; while an erasure is on its way its sections refresh themselves until the receipt says done. */
function playerPage(c: ConsoleContext, view: PlayerView, status: ContentfulStatusCode = 200) {
  const path = playerPath(view.app, view.userId);
  const refresh = erasureInProgress(view)
    ? { "hx-get": path, "hx-trigger": "every 2s", "hx-select": "#player-sections", "hx-swap": "outerHTML" }
    : {};
  return renderAppPage(
    c,
    view.app,
    "players",
    {
      title: `Player ${view.userId}`,
      crumbs: [[playersPath(view.app), "Players"]],
      lead: (
        <>
          {view.info.username ? `Username ${view.info.username}.` : "No username stored."}
          {view.ban && (
            <>
              {" "}
              <a href="#ban" class="badge status-banned">
                banned
              </a>
            </>
          )}
        </>
      ),
      actions: <PlayerActions view={view} />,
      status,
    },
    <div id="player-sections" {...refresh}>
      {PLAYER_SECTIONS.map((Section) => (
        <Section view={view} />
      ))}
    </div>,
  );
}
