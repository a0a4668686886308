import { z } from "@hono/zod-openapi";
import { PLAYER_EXPORT_LIST_LIMIT, type PlayerRowsPart } from "../kit/area";
import { toIso } from "../shared/clock";
import { localize } from "../shared/localize";
import { FlaggedSubmission } from "./admin/schemas";
import { syncBannedMemberStatements } from "./banned-members";
import { appLeaderboards } from "./catalog";
import type { Presentation } from "./core/present";
import { eraseMemberFlagsStatement, playerFlags, presentFlag } from "./flag-repo";
import { playerScoreStatements } from "./maintenance";
import { readMemberRows, storedScores } from "./reads";

/** What the boards keep about a player: their scores and held-back submissions (src/kit/area.ts `players`). */

const PlayerBoards = z
  .array(
    z.object({
      leaderboard_id: z.string(),
      name: z.string(),
      score: z.number().int().openapi({ description: "In the current season; 0 without a score" }),
      rank: z.number().int().openapi({ description: "In the current season; -1 without a score" }),
      seasons: z
        .array(z.object({ season_started_at: z.string(), score: z.number().int(), last_event_at: z.string() }))
        .openapi({ description: "Every score the store holds, past seasons not yet removed included" }),
    }),
  )
  .openapi({ description: "The player on every board of the app" });

/** The player's scores on every board of the app: the current standing, and every season stored. */
async function boardsOf(env: Env, app: { app_id: number; default_language: string }, userId: string, now: number) {
  const appId = String(app.app_id);
  const { boards } = await appLeaderboards(env.DB, appId);
  const p: Presentation = { language: undefined, defaultLanguage: app.default_language, now, infos: new Map() };
  const [rows, scores] = await Promise.all([
    readMemberRows(env.DB, appId, boards, "user", userId, p),
    storedScores(
      env.DB,
      boards.map((b) => b.id),
      userId,
    ),
  ]);
  return boards.map((board, i) => ({
    leaderboard_id: board.id,
    name: localize(board.name, undefined, app.default_language),
    score: rows[i].score,
    rank: rows[i].rank,
    seasons: scores
      .filter((s) => s.boardId === board.id)
      .map((s) => ({ season_started_at: toIso(s.season), score: s.score, last_event_at: toIso(s.lastAt) })),
  }));
}

export const leaderboardPlayerRows: PlayerRowsPart = {
  // Held scores name the player too.
  eraseRows: async (db, p) => [
    ...(await playerScoreStatements(db, p.appId, p.userId, p.subject)),
    eraseMemberFlagsStatement(db, p.appId, p.userId),
  ],
  banStatements: syncBannedMemberStatements,
  export: [
    {
      key: "leaderboards",
      kind: "held",
      schema: PlayerBoards,
      read: boardsOf,
      held: (boards) => ({
        leaderboard_seasons: (boards as { seasons: unknown[] }[]).reduce((n, b) => n + b.seasons.length, 0),
      }),
    },
    {
      key: "held_scores",
      kind: "fair-play",
      schema: z.array(FlaggedSubmission.extend({ leaderboard_id: z.string() })).openapi({
        description: `Scores of the player that boards held back for review, oldest first, at most ${PLAYER_EXPORT_LIST_LIMIT}`,
      }),
      read: async (env, app, userId) =>
        (await playerFlags(env.DB, app.app_id, userId, PLAYER_EXPORT_LIST_LIMIT)).map((flag) => ({
          leaderboard_id: String(flag.leaderboard_id),
          ...presentFlag(flag),
        })),
      held: (flags) => ({ held_scores: flags.length }),
    },
  ],
};
