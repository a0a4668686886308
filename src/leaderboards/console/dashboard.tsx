import { EmptyState, Table } from "../../kit/console/ui/lists";
import { localize } from "../../shared/localize";
import { appLeaderboards } from "../catalog";
import { boardMemberCounts } from "../member-counts";

const formatCount = (n: number) => n.toLocaleString("en-US");

/** The app dashboard's leaderboards panel: each board with its users and teams. */
export async function leaderboardDashboardPanel(
  env: Env,
  app: { app_id: number; default_language: string },
  now: number,
) {
  const boards = await appLeaderboards(env.DB, String(app.app_id));
  const counts = await boardMemberCounts(env.DB, boards.boards, now);
  const base = `/console/apps/${app.app_id}`;
  return (
    <section class="panel">
      <h2>Leaderboards</h2>
      {boards.boards.length === 0 ? (
        <EmptyState>
          <p>
            No leaderboards yet. <a href={`${base}/leaderboards/new`}>Create one</a>.
          </p>
        </EmptyState>
      ) : (
        <Table head={["Leaderboard", "Users", "Teams"]} numeric={[1, 2]}>
          {boards.boards.map((board, i) => (
            <tr>
              <td>
                <a href={`${base}/leaderboards/${board.id}`}>{localize(board.name, undefined, app.default_language)}</a>
              </td>
              <td class="num">{formatCount(counts[i].user)}</td>
              <td class="num">{formatCount(counts[i].team)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
