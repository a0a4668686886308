import { adminCreate, newStudioApp } from "./support";

/**
 * The studio every SDK contract test plays in, configured through the admin API: one category
 * (stored position 10) with a manual challenge "kill 3 enemies", a running battle pass of one level
 * ("kill 2 enemies"), and a leaderboard of `achieve-score` scores.
 */
export async function sdkStudio(name: string) {
  const studio = await newStudioApp(name);
  const admin = `/api/v1/admin/apps/${studio.appId}`;
  const category = await adminCreate(`${admin}/challenge-categories`, {
    category_slug: "main",
    category_name: "Main",
    category_position: 10,
  });
  const challenge = await adminCreate(`${admin}/challenges`, {
    category_id: category.category_id,
    challenge_name: "Kill 3",
    challenge_goal: 3,
    event_name: "kill-enemy",
  });
  const now = Date.now();
  const pass = await adminCreate(`${admin}/battle-passes`, {
    battle_pass_name: "Season",
    start_date: new Date(now - 3600_000).toISOString(),
    end_date: new Date(now + 30 * 86400_000).toISOString(),
    is_active: true,
  });
  await adminCreate(`${admin}/battle-passes/${pass.battle_pass_id}/levels`, {
    reward_amount: "1",
    level_reward_type: "coin",
    challenges: [{ challenge_name: "Kill 2", challenge_goal: 2, event_name: "kill-enemy" }],
  });
  const board = await adminCreate(`${admin}/leaderboards`, {
    name: "Scores",
    event_name: "achieve-score",
    value_field: "score",
    aggregation: "max",
  });
  return {
    ...studio,
    categoryId: category.category_id as string,
    challengeId: challenge.challenge_id as string,
    passId: pass.battle_pass_id as string,
    boardId: board.leaderboard_id as string,
  };
}
