import type { z } from "@hono/zod-openapi";
import type { PlayerSection } from "../../kit/area";
import { EmptyState, StatusBadge, Table, Time } from "../../kit/console/ui/lists";
import type { UserBattlePassState } from "../admin/user-state";

/** The battle passes on a player's console page: each pass they unlocked, level by level. */

function BattlePassesSection({ passes }: { passes: z.infer<typeof UserBattlePassState> }) {
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

export const battlePassesPlayerSection: PlayerSection<z.infer<typeof UserBattlePassState>> = {
  read: async (_env, _app, _userId, _now, state) => state.battle_passes as z.infer<typeof UserBattlePassState>,
  render: (_view, passes) => <BattlePassesSection passes={passes} />,
};
