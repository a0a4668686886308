import type { PlayerSection, PlayerSectionProps } from "../../kit/area";
import { playerPath } from "../../kit/console/ui/nav";
import { PostForm } from "../../kit/console/ui/forms";
import { EmptyState, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import { localize } from "../../shared/localize";
import { challengeCatalog } from "../catalog";
import type { ChallengeCatalog } from "../core/model";
import type { StoredChallengeState } from "../user-challenges";

/** The challenges on a player's console page: each stored challenge, with its correction. */

interface ChallengesData {
  rows: StoredChallengeState[];
  catalog: ChallengeCatalog;
}

function ChallengesSection({ view, data }: { view: PlayerSectionProps; data: ChallengesData }) {
  const rows = data.rows;
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
            const def = data.catalog.byId.get(ch.challenge_id)?.challenge;
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
function ChallengeCorrectionForm({
  view,
  challengeId,
  goal,
}: {
  view: PlayerSectionProps;
  challengeId: string;
  goal: number;
}) {
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

export const challengesPlayerSection: PlayerSection<ChallengesData> = {
  read: async (env, app, _userId, _now, state) => ({
    rows: state.challenges as StoredChallengeState[],
    catalog: await challengeCatalog(env.DB, String(app.app_id)),
  }),
  render: (view, data) => <ChallengesSection view={view} data={data} />,
};
