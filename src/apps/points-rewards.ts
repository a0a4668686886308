import { z } from "@hono/zod-openapi";
import { invalid } from "../shared/domain-errors";
import { ConfigKey } from "../shared/schemas";

/**
 * `points_rewards` of the features that reward a player (challenges, battle-pass levels...): points
 * credited to the app's points systems (src/points) by the player's object when the feature's own
 * flow says (a claim). Here, below the areas, so that each names systems without importing points.
 */
export const PointsRewardsInput = z
  .array(
    z
      .object({
        system: ConfigKey.openapi({ description: "The key of a points system of the app", example: "coins" }),
        amount: z.number().int().min(1).max(1_000_000_000_000).openapi({ example: 50 }),
      })
      .strict(),
  )
  .max(20)
  .default([])
  .openapi("PointsRewards", {
    description:
      "Points credited to the player's points systems when claimed (beyond SCILL: its answers do not show them). Every system must exist in the app",
  });
export type PointsRewards = z.infer<typeof PointsRewardsInput>;

/** A stored column of rewards as the admin API and the player's object read it. */
export const parsePointsRewards = (raw: string | null | undefined): PointsRewards => (raw ? JSON.parse(raw) : []);

/** 400 naming the reward when a reward names a system the app does not have. */
export async function requireRewardSystems(
  db: D1Database,
  appId: number,
  rewards: PointsRewards,
  field = "points_rewards",
): Promise<void> {
  if (rewards.length === 0) return;
  const rows = await db.prepare("SELECT key FROM points_systems WHERE app_id = ?").bind(appId).all<{ key: string }>();
  const known = new Set(rows.results.map((r) => r.key));
  const problems = rewards.flatMap((reward, i) =>
    known.has(reward.system)
      ? []
      : [{ field: `${field}.${i}.system`, problem: `no points system '${reward.system}' in this app` }],
  );
  if (problems.length > 0) throw invalid(`Invalid body: ${problems.map((p) => p.problem).join("; ")}`, problems);
}

/**
 * How leaderboards name a points system's earnings: the event name of the points a player earned
 * (`BackgroundMessage` kind "points-earned"). It holds a control character, which no event a game
 * sends can (src/shared/event-name.ts), so no event is ever mistaken for it.
 */
export const pointsEventName = (system: string) => `\u0000points:${system}`;
