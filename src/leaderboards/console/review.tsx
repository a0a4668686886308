import { requireApp, type AppRow } from "../../apps/repo";
import type { RouteWiring } from "../../kit/area";
import { MEMBER_TYPES, type LeaderboardDef, type MemberType } from "../catalog";
import type { FlagReason } from "../core/contributions";
import { acceptFlag, dismissFlag, listFlagged, removeEntry } from "../review";
import { invalid } from "../../shared/domain-errors";
import { consoleActor, consoleRouter, guard, redirectWithNotice } from "../../kit/console/http";
import { PostForm } from "../../kit/console/ui/forms";
import { EmptyState, Table, Time } from "../../kit/console/ui/lists";
import { playerPath } from "../../kit/console/ui/nav";

/**
 * A board's fair play on its page: the review queue of submissions held back by the board's bounds
 * or pace (accept applies the value, dismiss drops it), and removing one member's entry.
 */

/** The queue shows its oldest submissions; deciding them brings up the next. */
const QUEUE_SIZE = 25;

/** The board's bounds may have changed since: the reason names the setting, not its value then. */
const REASON_TEXT: Record<FlagReason, string> = {
  below_min_value: "below min_value",
  above_max_value: "above max_value",
  over_max_events_per_minute: "past max_events_per_minute",
};

const boardPath = (app: AppRow, boardId: string) => `/console/apps/${app.app_id}/leaderboards/${boardId}`;

export const readReviewQueue = (db: D1Database, app: AppRow, board: LeaderboardDef) =>
  listFlagged(db, String(app.app_id), board.id, { currentPage: 1, pageSize: QUEUE_SIZE });

type Queue = Awaited<ReturnType<typeof readReviewQueue>>;

function MemberLink(props: { app: AppRow; type: MemberType; id: string }) {
  return props.type === "user" ? <a href={playerPath(props.app, props.id)}>{props.id}</a> : <>team {props.id}</>;
}

export function ReviewQueue(props: { app: AppRow; board: LeaderboardDef; queue: Queue; canChange: boolean }) {
  const { app, board, queue } = props;
  const path = boardPath(app, board.id);
  return (
    <section class="panel" id="review">
      <h2>Held for review</h2>
      <p class="muted">
        Events outside the board's bounds or past its pace change nothing here until accepted. Accepting applies the
        value now, as if the event had just arrived; dismissing drops it. Held submissions are kept 30 days.
      </p>
      {queue.items.length === 0 ? (
        <EmptyState>
          <p>
            Nothing held. Submissions appear here when the board sets min_value, max_value or max_events_per_minute
            (Configuration below).
          </p>
        </EmptyState>
      ) : (
        <Table
          head={["Member", "Value", "Reason", "Event", "Received", ...(props.canChange ? ["Decision"] : [])]}
          numeric={[1]}
        >
          {queue.items.map((flag) => (
            <tr>
              <td>
                <MemberLink app={app} type={flag.member_type} id={flag.member_id} />
              </td>
              <td class="num">{flag.value.toLocaleString("en-US")}</td>
              <td>{REASON_TEXT[flag.reason]}</td>
              <td>
                <code>{flag.event_name}</code>
              </td>
              <td>
                <Time iso={flag.flagged_at} />
              </td>
              {props.canChange && (
                <td class="actions">
                  <PostForm action={`${path}/flagged/${flag.flag_id}/accept`} class="inline" swap="innerHTML">
                    <button type="submit" class="small">
                      Accept
                    </button>
                  </PostForm>
                  <PostForm action={`${path}/flagged/${flag.flag_id}/dismiss`} class="inline" swap="innerHTML">
                    <button type="submit" class="secondary small">
                      Dismiss
                    </button>
                  </PostForm>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {queue.total > queue.items.length && (
        <p class="muted">
          The oldest {queue.items.length} of {queue.total} held submissions; deciding them shows the next.
        </p>
      )}
    </section>
  );
}

/** Removes the member's entry on this board: a button for each row of the standings. */
export function RemoveEntryButton(props: { app: AppRow; boardId: string; type: MemberType; id: string }) {
  return (
    <PostForm
      action={`${boardPath(props.app, props.boardId)}/members/${props.type}/${encodeURIComponent(props.id)}/remove`}
      class="inline"
      swap="innerHTML"
      confirm={`Remove the entry of ${props.type} ${props.id} from this board, in every season? Everybody behind moves up. Their next event counts again (a ban stops that).`}
    >
      <button type="submit" class="link danger small">
        Remove
      </button>
    </PostForm>
  );
}

const board = "/console/apps/:appId/leaderboards/:boardId{[0-9]+}";

/** `wiring`: the fan-out of what a review changes (a member's rank, held scores let in). */
export const leaderboardReviewPages = (wiring: RouteWiring) =>
  consoleRouter()
    .post(`${board}/flagged/:flagId/accept`, async (c) => {
      guard(c, "configure");
      const app = await requireApp(c.env.DB, c.req.param("appId"));
      const boardId = c.req.param("boardId");
      const sink = wiring.deliverFor(c.env);
      const accepted = await acceptFlag(
        c.env.DB,
        String(app.app_id),
        boardId,
        c.req.param("flagId"),
        c.get("now"),
        sink,
        consoleActor(c),
      );
      const standing = accepted.member.rank === -1 ? "no visible rank" : `rank ${accepted.member.rank}`;
      return redirectWithNotice(
        c,
        boardPath(app, boardId),
        `Accepted ${accepted.value.toLocaleString("en-US")} for ${accepted.member_type} ${accepted.member_id}: score ${accepted.member.score.toLocaleString("en-US")}, ${standing}.`,
      );
    })
    .post(`${board}/flagged/:flagId/dismiss`, async (c) => {
      guard(c, "configure");
      const app = await requireApp(c.env.DB, c.req.param("appId"));
      const boardId = c.req.param("boardId");
      await dismissFlag(c.env.DB, String(app.app_id), boardId, c.req.param("flagId"), consoleActor(c));
      return redirectWithNotice(c, boardPath(app, boardId), "Dismissed: it never counts.");
    })
    .post(`${board}/members/:memberType/:memberId/remove`, async (c) => {
      guard(c, "configure");
      const app = await requireApp(c.env.DB, c.req.param("appId"));
      const boardId = c.req.param("boardId");
      const memberType = c.req.param("memberType");
      if (!(MEMBER_TYPES as readonly string[]).includes(memberType))
        throw invalid(`A member is a user or a team, not “${memberType}”.`);
      const memberId = c.req.param("memberId");
      await removeEntry(
        c.env.DB,
        String(app.app_id),
        boardId,
        memberType as MemberType,
        memberId,
        c.get("now"),
        consoleActor(c),
      );
      return redirectWithNotice(
        c,
        boardPath(app, boardId),
        `The entry of ${memberType} ${memberId} is removed from this board.`,
      );
    });
