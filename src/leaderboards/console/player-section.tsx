import type { PlayerSection, PlayerSectionProps } from "../../kit/area";
import { playerPath } from "../../kit/console/ui/nav";
import { PostForm } from "../../kit/console/ui/forms";
import { EmptyState, Table } from "../../kit/console/ui/lists";
import { localize } from "../../shared/localize";
import { appLeaderboards } from "../catalog";
import type { MemberRow, Presentation } from "../core/present";
import { readMemberRows } from "../reads";

/** The player's positions on a console page: every board of the app, with a score correction. */

interface PlayerBoard {
  id: string;
  name: string;
  row: MemberRow;
}

function LeaderboardsSection({ view, boards }: { view: PlayerSectionProps; boards: PlayerBoard[] }) {
  return (
    <section class="panel">
      <h2>Leaderboard positions</h2>
      {boards.length === 0 ? (
        <EmptyState>
          <p>The app has no leaderboards.</p>
        </EmptyState>
      ) : (
        <Table head={["Leaderboard", "Rank", "Score", ...(view.canChange ? ["Correct"] : [])]} numeric={[1, 2]}>
          {boards.map((b) => (
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

export const leaderboardsPlayerSection: PlayerSection<PlayerBoard[]> = {
  async read(env, app, userId, now) {
    const appId = String(app.app_id);
    const { boards } = await appLeaderboards(env.DB, appId);
    const p: Presentation = { language: undefined, defaultLanguage: app.default_language, now, infos: new Map() };
    const rows = await readMemberRows(env.DB, appId, boards, "user", userId, p);
    return boards.map((board, i) => ({
      id: board.id,
      name: localize(board.name, undefined, app.default_language),
      row: rows[i],
    }));
  },
  render: (view, boards) => <LeaderboardsSection view={view} boards={boards} />,
};
