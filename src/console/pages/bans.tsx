import { requireApp } from "../../apps/repo";
import { listBans } from "../../auth/bans";
import { toIso } from "../../shared/clock";
import { canChange, consoleRouter, listQuery } from "../../kit/console/http";
import { PostForm } from "../../kit/console/ui/forms";
import { EmptyState, Pager, SearchForm, Table, Time } from "../../kit/console/ui/lists";
import { renderAppPage } from "../../kit/console/ui/render";
import { playerPath, playersPath } from "./player-view";

/**
 * The bans in force in an app, newest first, searchable by player id or reason; lifting one here asks first. Banning is
 * on the player's page.
 */

export const banPages = consoleRouter().get("/console/apps/:appId/bans", async (c) => {
  const app = await requireApp(c.env.DB, c.req.param("appId"));
  const list = listQuery(c);
  const { rows, total } = await listBans(c.env.DB, app.app_id, c.get("now"), list, list.search);
  const base = `/console/apps/${app.app_id}/bans`;
  const mayLift = canChange(c);
  return renderAppPage(
    c,
    app,
    "bans",
    {
      title: "Bans",
      lead: "Players banned now: their tokens and events are refused and their scores hidden until the ban is lifted or ends.",
    },
    <>
      <SearchForm
        action={base}
        value={list.search}
        label="Search by player id or reason"
        placeholder="part of an id or reason"
      />
      <div id="list">
        {rows.length === 0 ? (
          <EmptyState>
            {list.search ? (
              <p>No ban in force matches “{list.search}”.</p>
            ) : (
              <p>
                Nobody is banned. To ban a player, open them on the <a href={playersPath(app)}>Players</a> page.
              </p>
            )}
          </EmptyState>
        ) : (
          <Table head={["Player", "Reason", "Banned", "Ends", ...(mayLift ? [""] : [])]}>
            {rows.map((ban) => (
              <tr>
                <td>
                  <a href={playerPath(app, ban.user_id)}>{ban.user_id}</a>
                </td>
                <td>{ban.reason}</td>
                <td>
                  <Time iso={ban.banned_at} />
                </td>
                <td>
                  <Time iso={ban.expires_at === null ? null : toIso(ban.expires_at)} empty="when lifted" />
                </td>
                {mayLift && (
                  <td>
                    <PostForm
                      action={`${playerPath(app, ban.user_id)}/unban`}
                      class="inline"
                      swap="innerHTML"
                      confirm={`Lift the ban of ${ban.user_id}? Their tokens, events and scores count again at once.`}
                    >
                      <input type="hidden" name="back" value="bans" />
                      <button type="submit" class="secondary small">
                        Lift
                      </button>
                    </PostForm>
                  </td>
                )}
              </tr>
            ))}
          </Table>
        )}
        <Pager base={base} list={{ ...list, total }} />
      </div>
    </>,
  );
});
