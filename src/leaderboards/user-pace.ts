import type { Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import type { AreaTables } from "../shared/object-tables";
import { admit, WINDOW_MS } from "../rules/sliding-window";
import { appLeaderboards, type LeaderboardDef } from "./catalog";
import { boardTakes } from "./core/contributions";

/** The table as its first migration made it: history, never changed. */
const PACE_TABLE =
  "CREATE TABLE board_pace (leaderboard_id INTEGER NOT NULL, at INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (leaderboard_id, at))";

/**
 * The leaderboards' part of the player's object: `max_events_per_minute`, per player per board,
 * counted where the player's events arrive one at a time, so exactly. An event past a board's
 * pace is noted on the event (Staged.paceExceeded); the background consumer then flags it on that
 * board for review instead of applying it. Boards without the setting cost nothing here.
 */
export class UserBoardPace implements UserArea<LeaderboardDef[]> {
  static readonly tables: AreaTables = {
    area: "leaderboard-pace",
    migrations: [PACE_TABLE],
    // The same table as one b-tree: its key is the table (src/shared/object-tables.ts).
    created: `${PACE_TABLE} WITHOUT ROWID`,
  };

  constructor(private readonly context: UserObjectContext) {}

  /** The paced boards that take this event. */
  async prepareEvent(event: UserEvent): Promise<LeaderboardDef[]> {
    const { boards } = await appLeaderboards(this.context.env.DB, event.appId);
    return boards.filter((board) => board.maxEventsPerMinute !== null && boardTakes(board, event));
  }

  applyEvent(boards: LeaderboardDef[], event: UserEvent, staged: Staged): void {
    const sql = this.context.sql;
    const now = event.receivedAt;
    for (const board of boards) {
      const id = Number(board.id);
      sql.exec("DELETE FROM board_pace WHERE leaderboard_id = ? AND at <= ?", id, now - WINDOW_MS);
      const window = sql
        .exec<{ at: number; n: number }>("SELECT at, n FROM board_pace WHERE leaderboard_id = ? ORDER BY at", id)
        .toArray();
      if (admit(window, now, board.maxEventsPerMinute!, 1).admitted === 0) {
        staged.paceExceeded.push(board.id);
        continue;
      }
      sql.exec(
        "INSERT INTO board_pace (leaderboard_id, at, n) VALUES (?, ?, 1) ON CONFLICT (leaderboard_id, at) DO UPDATE SET n = n + 1",
        id,
        now,
      );
    }
  }
}
