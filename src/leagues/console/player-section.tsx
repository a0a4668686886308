import type { PlayerSection, PlayerSectionProps } from "../../kit/area";
import { EmptyState, Table } from "../../kit/console/ui/lists";
import { leaguesCatalog } from "../catalog";
import { playerLeague } from "../player-league";

/** A player's leagues on their page: tier, cohort rank and zone this season, and the last result with its claim. */

export async function readPlayerLeagues(env: Env, appId: string, userId: string, now: number) {
  const catalog = await leaguesCatalog(env.DB, appId);
  return Promise.all(
    catalog.leagues.map((league) =>
      playerLeague(env, appId, league, userId, now, undefined, catalog.defaultLanguage).then((view) => ({
        key: league.key,
        view,
      })),
    ),
  );
}

type PlayerLeagues = Awaited<ReturnType<typeof readPlayerLeagues>>;

function LeaguesSection({ view, leagues }: { view: PlayerSectionProps; leagues: PlayerLeagues }) {
  if (leagues.length === 0) return null;
  return (
    <section class="panel" id="leagues">
      <h2>Leagues</h2>
      <Table head={["League", "Tier", "This season", "Last result", "Claimed"]}>
        {leagues.map(({ key, view: l }) => {
          const me = l.cohort?.members.find((m) => m.member_id === view.userId);
          const last = l.last_result;
          return (
            <tr>
              <td>
                <a href={`/console/apps/${view.app.app_id}/leagues/${l.league_id}`}>{l.name}</a>{" "}
                <span class="muted">({key})</span>
              </td>
              <td>{l.tier.name}</td>
              <td>
                {l.cohort && me ? (
                  `rank ${me.rank} of ${l.cohort.members.length} in cohort ${l.cohort.cohort_id}, ${me.score.toLocaleString("en-US")} (${me.zone})`
                ) : (
                  <span class="muted">not joined</span>
                )}
              </td>
              <td>
                {last ? (
                  `${last.season_id.slice(0, 10)}: rank ${last.rank} in ${last.tier}, ${last.outcome}`
                ) : (
                  <span class="muted">—</span>
                )}
              </td>
              <td>{last ? (last.claimed ? "yes" : "no") : ""}</td>
            </tr>
          );
        })}
      </Table>
      {leagues.every((l) => l.view.cohort === null && l.view.last_result === null) ? (
        <EmptyState>
          <p>The player has not played a league season yet.</p>
        </EmptyState>
      ) : null}
    </section>
  );
}

export const leaguesPlayerSection: PlayerSection<PlayerLeagues> = {
  read: (env, app, userId, now) => readPlayerLeagues(env, String(app.app_id), userId, now),
  render: (view, leagues) => <LeaguesSection view={view} leagues={leagues} />,
};
