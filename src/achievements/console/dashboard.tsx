import { localize } from "../../shared/localize";
import { EmptyState, Table } from "../../kit/console/ui/lists";
import { listedAchievements } from "./pages";

/** The dashboard's panel: every achievement with its holders and rarity, rarest first. */
export async function achievementsDashboardPanel(env: Env, app: { app_id: number; default_language: string }) {
  const rows = (await listedAchievements(env.DB, app.app_id)).filter((a) => a.status !== "inactive");
  const base = `/console/apps/${app.app_id}/achievements`;
  return (
    <section class="panel">
      <h2>Achievements</h2>
      {rows.length === 0 ? (
        <EmptyState>
          <p>
            No achievements yet. <a href={`${base}/new`}>Create one</a>.
          </p>
        </EmptyState>
      ) : (
        <Table head={["Achievement", "Holders", "Rarity"]} numeric={[1, 2]}>
          {rows
            .sort((a, b) => a.rarity - b.rarity || a.sort_order - b.sort_order)
            .map((a) => (
              <tr>
                <td>
                  <a href={`${base}/${a.achievement_id}`}>{localize(a.name, undefined, app.default_language)}</a>
                </td>
                <td class="num">{a.holders.toLocaleString("en-US")}</td>
                <td class="num">{a.rarity.toFixed(1)}%</td>
              </tr>
            ))}
        </Table>
      )}
    </section>
  );
}
